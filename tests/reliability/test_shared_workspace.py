"""Two writers in one workspace (fourth chaos round): the user's own editor, a second tui or a
command changes a file after the agent's edit; `undo_edit` restored its saved copy over that
change, silently. It now refuses, says why, and the other writer's change stays."""

from __future__ import annotations

import json
from pathlib import Path

from openhands_tui.testing import Script, Turn
from tests.conftest import model_args, run_tui


def test_undo_never_throws_away_a_change_someone_else_made(serve, workspace: Path) -> None:
    target = workspace / "notes.txt"
    target.write_text("one\n")
    edit = Turn.call("file_editor", command="insert", path=str(target), insert_line=1, new_str="agent")
    someone_else = Turn.call("terminal", command=f"echo user >> {target}")
    undo = Turn.call("file_editor", command="undo_edit", path=str(target))
    again = Turn.call("file_editor", command="insert", path=str(target), insert_line=0, new_str="top")
    turns = [edit, someone_else, undo, again, undo, Turn.finish("done")]
    server = serve([Script(turns=turns)])
    args = ["--headless", "--json", "--task", "go", *model_args(server), "--workspace", str(workspace)]
    result = run_tui(*args, "--confirm", "never")
    assert result.returncode == 0, result.stderr
    results = [e["content"] for e in map(json.loads, result.stdout.splitlines()) if e["kind"] == "observation"]
    assert "Nothing undone" in results[2] and "changed after your last edit" in results[2]
    assert "Restored" in results[4]  # an edit after the refusal can be undone as usual
    assert target.read_text() == "one\nagent\nuser\n"
