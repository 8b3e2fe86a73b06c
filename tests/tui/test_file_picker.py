"""`@` in the prompt lists the workspace's files as git sees them, matched fuzzily; Tab or Enter
puts the chosen one in as a mention (quoted when it has a space), Esc closes the list, and a
file's name is drawn as it is, never read as markup."""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest
from textual.widgets import OptionList

from openhands_tui.testing import Script, Turn
from openhands_tui.tui.file_picker import FileIndex, matches, mention, score, typed_mention, walked, workspace_files
from openhands_tui.tui.widgets.prompt import Prompt
from tests.tui.conftest import SIZE, live_app, wait_until
from tests.tui.drawn import drawn_in


def _project(workspace: Path, *, git: bool = True) -> None:
    for name in ("src/app.py", "src/apple/core.py", "docs/read me.txt", "[b]bold[/b].md", "build/out.txt"):
        (workspace / name).parent.mkdir(parents=True, exist_ok=True)
        (workspace / name).write_text("x\n")
    (workspace / "node_modules" / "left-pad").mkdir(parents=True)
    (workspace / "node_modules" / "left-pad" / "index.js").write_text("x\n")
    (workspace / ".gitignore").write_text("build/\nnode_modules/\n")
    if git:
        subprocess.run(["git", "init", "-q", str(workspace)], check=True)


def test_git_lists_the_files_gitignore_does_not_hide(workspace: Path) -> None:
    _project(workspace)
    files = workspace_files(workspace)
    assert {"src/app.py", "docs/read me.txt", ".gitignore"} <= set(files)
    assert not any(f.startswith(("build/", "node_modules/")) for f in files)


def test_outside_git_a_walk_skips_dependency_folders(workspace: Path) -> None:
    _project(workspace, git=False)
    files = walked(workspace)
    assert "src/app.py" in files and "build/out.txt" in files
    assert not any("node_modules" in f for f in files)


def test_a_match_in_the_files_name_comes_before_a_scattered_one() -> None:
    files = ["src/apple/core.py", "src/app.py", "lib/a_p_p.txt", "README.md"]
    assert matches("app", files) == ["src/app.py", "src/apple/core.py", "lib/a_p_p.txt"]
    assert score("zzz", "src/app.py") is None
    assert matches("", files, limit=2) == ["README.md", "src/app.py"]


def test_a_mention_is_quoted_when_the_path_has_a_space() -> None:
    assert mention("src/app.py") == "@src/app.py"
    assert mention("docs/read me.txt") == '@"docs/read me.txt"'


@pytest.mark.parametrize(
    ("typed", "found"),
    [
        ("look at @sr", (8, "sr")),
        ("@", (0, "")),
        ('see @"docs/read m', (4, "docs/read m")),
        ("mail me@home", None),  # not a mention: no space before the @
        ("@src/app.py done", None),  # finished by the space
        ('@"a b" next', None),
    ],
)
def test_the_mention_being_typed(typed: str, found: tuple[int, str] | None) -> None:
    assert typed_mention(typed) == found


def test_the_index_reads_once_then_again_only_when_stale(workspace: Path) -> None:
    started: list[object] = []
    index = FileIndex(lambda job: (started.append(job), job()), lambda: None)
    index.read_files = lambda _: ["a.py"]
    assert index.files(workspace, now=0.0) is None or index.files(workspace, now=0.0) == ["a.py"]
    assert index.files(workspace) == ["a.py"] and len(started) == 1
    index.files(workspace, now=10**9)  # stale: read again in the background
    assert len(started) == 2


def _drawn_list(app) -> str:
    return drawn_in(app, app.query_one("#completions", OptionList))


async def test_at_lists_matching_files_and_tab_or_enter_inserts_a_mention(serve, workspace: Path) -> None:
    _project(workspace)
    app = live_app(serve([Script(turns=[Turn.finish("ok")])]), workspace)
    async with app.run_test(size=SIZE) as pilot:
        await wait_until(pilot, lambda: app.session is not None)
        prompt = app.query_one(Prompt)
        await pilot.press(*"look at @")
        await wait_until(pilot, lambda: "src/app.py" in _drawn_list(app))  # once the worker read them
        drawn = _drawn_list(app)
        assert "[b]bold[/b].md" in drawn  # the name as it is: not markup
        assert "build/out.txt" not in drawn and "node_modules" not in drawn
        await pilot.press(*"app")
        await pilot.pause(0.05)
        assert _drawn_list(app).splitlines()[1].strip("│ ") == "src/app.py"
        await pilot.press("tab")
        await pilot.pause(0.05)
        assert prompt.text == "look at @src/app.py " and not app.query_one("#completions").display
        await pilot.press(*"and @readme", "enter")  # Enter takes the file; it does not send
        await pilot.pause(0.05)
        assert prompt.text == 'look at @src/app.py and @"docs/read me.txt" '
        assert '@"docs/read me.txt"' in drawn_in(app, prompt)
        await pilot.press(*"@doc")
        await wait_until(pilot, lambda: app.query_one("#completions").display)
        await pilot.press("escape")
        await pilot.pause(0.05)
        assert not app.query_one("#completions").display and prompt.text.endswith("@doc")
        assert not app.runs.running
