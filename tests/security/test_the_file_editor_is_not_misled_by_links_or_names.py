"""The file editor runs unconfined, so it changes only the file that was rated, or nothing: a
folder swapped for a link after rating, a link flipped back and forth while it works, a
`~user/x` path, a create whose folders are not there yet, are not written through. And a file
name cannot make up entries in a folder listing the model reads."""

from __future__ import annotations

from pathlib import Path

import pytest

from openhands_tui.testing import Script, Turn
from tests.security.hostile_model import edit_call, high_effects, run_attack


async def test_a_directory_swapped_for_a_symlink_after_rating_is_not_written_through(
    workspace: Path, tmp_path: Path
) -> None:
    """Rated as `build/out.txt` inside the workspace (MEDIUM, runs unasked); by the time it
    runs, `build` is a symlink to a directory outside. The write must not follow it."""
    from openhands_tui.sdk.tool import ToolContext
    from openhands_tui.tools.file_editor.tool import FileEditorAction, FileEditorTool

    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    (workspace / "build").mkdir()
    tool = FileEditorTool(ToolContext(workspace, "root"))
    action = FileEditorAction(command="create", path="build/out.txt", file_text="planted\n")
    assert tool.subject(action).path == "build/out.txt"
    (workspace / "build").rmdir()
    (workspace / "build").symlink_to(elsewhere)
    observation = await tool.run(action)
    await tool.close()
    assert observation.is_error and not (elsewhere / "out.txt").exists()


def test_an_editor_write_lands_in_the_directory_it_was_rated_in_or_nowhere(tmp_path: Path) -> None:
    """`docs` was a plain folder when `docs/notes.md` was rated MEDIUM; a process the agent left
    running makes `docs` a link to `.git/hooks` before the editor (which runs unconfined)
    writes. The write must fail, not plant the hook; an undo of a creation must not delete there."""
    from openhands_tui.executors.local.files import remove_pinned, write_atomically

    workspace = tmp_path / "ws"
    (workspace / "docs").mkdir(parents=True)
    (workspace / ".git" / "hooks").mkdir(parents=True)
    (workspace / "docs" / "notes.md").write_text("notes\n")
    (workspace / ".git" / "hooks" / "notes.md").write_text("hook\n")
    target = workspace / "docs" / "notes.md"
    rated = str(target.resolve())
    (workspace / "docs").rename(workspace / "docs.old")
    (workspace / "docs").symlink_to(".git/hooks")
    with pytest.raises(OSError, match=r"not to .* as when it was checked"):
        write_atomically(target, b"pwned\n", rated)
    with pytest.raises(OSError):
        remove_pinned(target, rated)
    assert (workspace / ".git" / "hooks" / "notes.md").read_text() == "hook\n"
    (workspace / "docs").unlink()
    (workspace / "docs.old").rename(workspace / "docs")
    write_atomically(target, b"new\n", rated)  # the path as rated: written
    assert target.read_text() == "new\n" and not target.is_symlink()


@pytest.mark.parametrize("command", ["str_replace", "view"])
async def test_a_link_raced_in_while_the_editor_works_never_gets_the_change(tmp_path: Path, command: str) -> None:
    """The race itself, against the real tool: a thread flips `docs` between the project's folder
    and `.git/hooks` as fast as it can while the editor edits (or shows) `docs/notes.md`, each
    action rated while `docs` pointed into the project. Before the file was reached through the
    rated directory, about one edit in five landed in `.git/hooks`, and a view could show the
    file there (a `~/.netrc`, had the link pointed home)."""
    import os
    import threading

    from openhands_tui.sdk.tool import ToolContext
    from openhands_tui.tools.file_editor.tool import FileEditorAction, FileEditorTool

    workspace = tmp_path / "ws"
    (workspace / "docs.real").mkdir(parents=True)
    (workspace / ".git" / "hooks").mkdir(parents=True)
    (workspace / "docs.real" / "notes.md").write_text("x\n")
    hook = workspace / ".git" / "hooks" / "notes.md"
    hook.write_text("x\nunjudged\n")
    (workspace / "docs").symlink_to("docs.real")
    rated_path = str(workspace / "docs.real" / "notes.md")
    stop = threading.Event()

    def flip() -> None:
        n = 0
        while not stop.is_set():
            n += 1
            link = workspace / f".link{n}"
            link.symlink_to(".git/hooks" if n % 2 else "docs.real")
            os.replace(link, workspace / "docs")

    tool = FileEditorTool(ToolContext(workspace, "root"))
    flipper = threading.Thread(target=flip, daemon=True)
    flipper.start()
    tried = 0
    try:
        for _ in range(400):
            edit = {"old_str": "x", "new_str": "x"} if command == "str_replace" else {}
            action = FileEditorAction(command=command, path="docs/notes.md", **edit)
            for _ in range(10_000):  # rate it while `docs` points into the project
                if os.path.realpath(workspace / "docs" / "notes.md") == rated_path:
                    break
            tool.subject(action)
            if tool._rated.get(id(action)) != rated_path:
                tool._rated.pop(id(action), None)
                continue
            before = hook.stat().st_mtime_ns
            shown = await tool.run(action)
            tried += 1
            assert hook.stat().st_mtime_ns == before and hook.read_text() == "x\nunjudged\n", f"after {tried}"
            assert "unjudged" not in shown.text, f"after {tried}"
    finally:
        stop.set()
        flipper.join()
        await tool.close()
    assert tried >= 20


def test_an_editor_create_makes_its_folders_where_it_was_rated_or_nowhere(tmp_path: Path) -> None:
    """`create docs/new/deep/x.md` was rated with `docs` a plain folder; `docs` became a link to a
    folder outside the workspace before the editor (unconfined) ran. `mkdir -p` followed the link
    and made `new/deep` out there before the write was refused; now nothing is made there."""
    from openhands_tui.tools.file_editor.editor import EditorError, FileEditor

    workspace, outside = tmp_path / "ws", tmp_path / "outside"
    (workspace / "docs").mkdir(parents=True)
    outside.mkdir()
    target = workspace / "docs" / "new" / "deep" / "x.md"
    rated = str(target.resolve())
    (workspace / "docs").rmdir()
    (workspace / "docs").symlink_to(outside)
    editor = FileEditor(workspace)
    with pytest.raises((OSError, EditorError)):
        editor.create(str(target), "text\n", rated)
    assert list(outside.iterdir()) == []
    (workspace / "docs").unlink()
    (workspace / "docs").mkdir()
    editor.create(str(target), "text\n", rated)  # as rated: the folders are made, the file written
    assert target.read_text() == "text\n"


async def test_a_tilde_user_path_is_judged_where_the_editor_writes_it(serve, workspace: Path) -> None:
    """`~user/x` was judged as a file named `~user` in the workspace (MEDIUM, unasked) while
    the editor expanded it to that user's home directory."""
    import getpass
    import os

    target = Path(os.path.expanduser(f"~{getpass.getuser()}")) / f"oht-attack-{os.getpid()}.txt"
    calls = [edit_call(command="create", path=f"~{getpass.getuser()}/{target.name}", file_text="planted\n")]
    server = serve([Script(turns=[Turn(tool_calls=calls), Turn.finish("done")])])
    try:
        events = await run_attack(server, workspace)
        created = target.exists()
    finally:
        target.unlink(missing_ok=True)
    assert not created and high_effects(events) == []


def test_a_file_name_cannot_add_made_up_entries_to_a_folder_listing(tmp_path: Path) -> None:
    """A repository's file named `notes\\nsecret_plan.md` was listed as two entries, the second
    one made up (and `\\r` could hide what came before it): such names are shown quoted."""
    from openhands_tui.tools.file_editor.editor import FileEditor

    workspace = tmp_path / "ws"
    (workspace / "docs").mkdir(parents=True)
    (workspace / "notes\nsecret_plan.md").write_text("x")
    (workspace / "docs" / "a\rREADME.md").write_text("x")
    (workspace / "plain.md").write_text("x")
    listing = FileEditor(workspace).view(str(workspace)).text.splitlines()[1:]
    assert "secret_plan.md" not in listing and "README.md" not in [line.rpartition("\r")[2] for line in listing]
    assert "'notes\\nsecret_plan.md'" in listing and "docs/'a\\rREADME.md'" in listing and "plain.md" in listing
