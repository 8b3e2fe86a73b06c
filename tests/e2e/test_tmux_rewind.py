"""Rewind in the real app in a real terminal (tmux), read off the drawn screen: two turns of a
scripted model change files, Esc Esc lists the turns, choosing the first and both restores puts
every file back as it was before it and the transcript says what changed."""

from __future__ import annotations

import shutil
import subprocess
import time
from collections.abc import Callable
from pathlib import Path

import pytest

from openhands_tui.testing import Script, Turn
from tests.conftest import model_args
from tests.e2e.test_tmux import _pane, _start, _wait_for

pytestmark = pytest.mark.skipif(shutil.which("tmux") is None, reason="tmux is not installed (.ci/run installs it)")


def _files(workspace: Path) -> dict[str, str]:
    return {str(p.relative_to(workspace)): p.read_text() for p in sorted(workspace.rglob("*")) if p.is_file()}


def _keys(session: str, *keys: str) -> None:
    subprocess.run(["tmux", "send-keys", "-t", session, *keys], check=True)


def _transcript(screen: str) -> str:
    """The transcript's words on one line: each screen line left of the tree's border, joined
    (a long notice wraps over two lines)."""
    return " ".join(" ".join(line.split("▏")[0].split()) for line in screen.splitlines())


def _wait_until(session: str, predicate: Callable[[str], bool], what: str, timeout: float = 90.0) -> str:
    """The screen once `predicate` holds for it."""
    deadline = time.monotonic() + timeout
    screen = ""
    while time.monotonic() < deadline:
        screen = _pane(session)
        if predicate(screen):
            return screen
        time.sleep(0.2)
    raise AssertionError(f"never saw {what} on screen; last screen:\n{screen}")


def test_escape_twice_rewinds_files_and_conversation_to_before_the_first_turn(
    serve, workspace: Path, isolated_home: Path
) -> None:
    (workspace / "notes.txt").write_text("original\n")
    (workspace / "keep.txt").write_text("untouched\n")
    before = _files(workspace)
    edit = Turn.call("file_editor", command="str_replace", path="notes.txt", old_str="original", new_str="first")
    make = Turn.call("file_editor", command="create", path="made.txt", file_text="made in turn 1\n")
    again = Turn.call("terminal", command="sed -i s/first/second/ notes.txt && rm keep.txt")
    server = serve([Script(turns=[edit, make, Turn.finish("one done"), again, Turn.finish("two done")])])
    args = [*model_args(server), "--workspace", str(workspace), "--confirm", "never"]
    session = _start(args, isolated_home)
    try:
        _wait_for(session, "Type a task", server.model)  # drawn, and the session open (its model shown)
        _keys(session, "edit the notes", "Enter")
        _wait_for(session, "one done", "● finished", timeout=90)
        _keys(session, "edit them again", "Enter")
        _wait_until(session, lambda screen: screen.count("● finished") == 2, "the second run's end")
        assert _files(workspace) == {"made.txt": "made in turn 1\n", "notes.txt": "second\n"}

        _keys(session, "Escape", "Escape")  # nothing runs: Esc Esc lists the turns
        listed = _wait_for(session, "Rewind to before a turn", "edit them again", timeout=30)
        assert "  1  " in listed and "  2  " in listed and "files ✓" in listed
        assert listed.index("edit the notes") < listed.index("edit them again")  # the newest last

        _keys(session, "Up", "Enter")  # the newest is highlighted: up is the first turn
        asked = _wait_for(session, "Rewind to before turn 1", "Files and conversation", timeout=30)
        assert "Conversation only" in asked and "Files only" in asked
        _keys(session, "Enter")  # the default: both

        rewound = "↶ Rewound to before turn 1 (files and conversation): 1 file restored, 1 brought back, 1 removed"
        done = _transcript(_wait_until(session, lambda screen: rewound in _transcript(screen), "the rewind's notice"))
        assert f"{rewound} — /rewind again to undo" in done
        assert "edit the notes" not in done and "one done" not in done  # the conversation went back too
        assert _files(workspace) == before  # every file as it was before the first turn
    finally:
        subprocess.run(["tmux", "kill-session", "-t", session], capture_output=True)
