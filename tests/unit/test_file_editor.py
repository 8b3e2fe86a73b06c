"""The file editor, driven through the tool the model calls."""

from __future__ import annotations

import re
from pathlib import Path

from hypothesis import given, settings
from hypothesis import strategies as st

from openhands_tui.sdk.tool import ToolContext
from openhands_tui.tools.file_editor import FileEditorAction, FileEditorTool
from openhands_tui.tools.file_editor.editor import _diff


async def _call(tool: FileEditorTool, **arguments: object):
    return await tool.run(FileEditorAction.model_validate(arguments))


def _tool(workspace: Path) -> FileEditorTool:
    return FileEditorTool(ToolContext(workspace=workspace, agent_id="root"))


async def test_create_view_replace_insert_undo(workspace: Path) -> None:
    tool = _tool(workspace)
    created = await _call(tool, command="create", path="pkg/mod.py", file_text="a = 1\nb = 2\nc = 3\n")
    assert not created.is_error and (workspace / "pkg/mod.py").read_text() == "a = 1\nb = 2\nc = 3\n"
    assert "+b = 2" in created.diff

    viewed = await _call(tool, command="view", path="pkg/mod.py", view_range=[2, -1])
    assert "     2\tb = 2\n     3\tc = 3" in viewed.text and "a = 1" not in viewed.text

    replaced = await _call(tool, command="str_replace", path="pkg/mod.py", old_str="b = 2", new_str="b = 20")
    assert not replaced.is_error and "     2\tb = 20" in replaced.text
    assert "-b = 2\n+b = 20" in replaced.diff

    inserted = await _call(tool, command="insert", path="pkg/mod.py", insert_line=0, new_str="# header")
    assert not inserted.is_error
    assert (workspace / "pkg/mod.py").read_text() == "# header\na = 1\nb = 20\nc = 3\n"

    undone = await _call(tool, command="undo_edit", path="pkg/mod.py")
    assert not undone.is_error and (workspace / "pkg/mod.py").read_text() == "a = 1\nb = 20\nc = 3\n"
    await _call(tool, command="undo_edit", path="pkg/mod.py")
    assert (workspace / "pkg/mod.py").read_text() == "a = 1\nb = 2\nc = 3\n"
    await _call(tool, command="undo_edit", path="pkg/mod.py")
    assert not (workspace / "pkg/mod.py").exists()  # undoing the create removes the file
    nothing = await _call(tool, command="undo_edit", path="pkg/mod.py")
    assert nothing.is_error and "no edit" in nothing.text


async def test_str_replace_requires_exactly_one_match(workspace: Path) -> None:
    (workspace / "f.txt").write_text("x\ny\nx\n")
    tool = _tool(workspace)
    several = await _call(tool, command="str_replace", path="f.txt", old_str="x", new_str="z")
    assert several.is_error and "appears 2 times" in several.text and "lines 1, 3" in several.text
    none = await _call(tool, command="str_replace", path="f.txt", old_str="q", new_str="z")
    assert none.is_error and "does not appear" in none.text
    assert (workspace / "f.txt").read_text() == "x\ny\nx\n"


async def test_create_never_overwrites_and_missing_files_are_explained(workspace: Path) -> None:
    (workspace / "keep.txt").write_text("precious")
    tool = _tool(workspace)
    refused = await _call(tool, command="create", path="keep.txt", file_text="oops")
    assert refused.is_error and "already exists" in refused.text
    assert (workspace / "keep.txt").read_text() == "precious"
    missing = await _call(tool, command="view", path="nope.txt")
    assert missing.is_error and "does not exist" in missing.text


async def test_view_directory_lists_two_levels_without_hidden(workspace: Path) -> None:
    (workspace / "src" / "deep" / "deeper").mkdir(parents=True)
    (workspace / "src" / "a.py").write_text("")
    (workspace / ".git").mkdir()
    listing = await _call(_tool(workspace), command="view", path=".")
    assert "src/" in listing.text and "src/a.py" in listing.text and "src/deep/" in listing.text
    assert ".git" not in listing.text and "deeper" not in listing.text


async def test_binary_and_bad_range(workspace: Path) -> None:
    (workspace / "bin").write_bytes(b"\x00\x01\x02")
    (workspace / "t.txt").write_text("one\ntwo\n")
    tool = _tool(workspace)
    assert "binary" in (await _call(tool, command="view", path="bin")).text
    bad = await _call(tool, command="view", path="t.txt", view_range=[5, 6])
    assert bad.is_error and "outside the file" in bad.text


def test_only_view_is_read_only(workspace: Path) -> None:
    tool = _tool(workspace)
    assert not tool.subject(FileEditorAction(command="view", path=".")).changes_state
    assert tool.subject(FileEditorAction(command="create", path="x", file_text="")).changes_state


def _applied(before: str, diff: str) -> str:
    """`diff` (unified, as the editor shows it) applied to `before`, hunk by hunk."""
    source, result, at = before.split("\n"), [], 0
    lines = diff.split("\n")[2:]
    for number, line in enumerate(lines):
        hunk = re.match(r"@@ -(\d+)(?:,(\d+))? \+\d+(?:,\d+)? @@", line)
        if hunk:
            start = int(hunk.group(1)) - (0 if hunk.group(2) == "0" else 1)
            result += source[at:start]
            at = start
            continue
        if line.startswith((" ", "-")):
            assert source[at] == line[1:], (number, line)
            at += 1
        if line.startswith((" ", "+")):
            result.append(line[1:])
    return "\n".join(result + source[at:])


@settings(max_examples=300, deadline=None)
@given(
    lines=st.lists(st.sampled_from(["a", "b", "", "dd"]), min_size=1, max_size=30),
    edits=st.lists(st.tuples(st.integers(0, 40), st.sampled_from(["insert", "delete", "change"])), max_size=4),
)
def test_a_diff_shows_exactly_the_change(lines: list[str], edits: list[tuple[int, str]]) -> None:
    """The editor finds the changed region by comparing the texts, not line by line: whatever
    the edit, its diff applied to the old text gives the new one, numbered as in the file."""
    changed = list(lines)
    for position, kind in edits:
        at = min(position, len(changed))
        if kind == "insert":
            changed.insert(at, "x")
        elif changed and kind == "delete":
            changed.pop(min(at, len(changed) - 1))
        elif changed:
            changed[min(at, len(changed) - 1)] += "z"
    before, after = "\n".join(lines) + "\n", "\n".join(changed) + "\n"
    assert _applied(before, _diff(Path("f.txt"), before, after)) == after
