"""Two writers in one workspace: the user's own editor, a second tui or a command changes a file
after the agent's edit; `undo_edit` restored its saved copy over that change, silently. It now
refuses, says why, and the other writer's change stays. Two tuis saving the user's config at
once keep both changes."""

from __future__ import annotations

import json
import stat
import subprocess
import sys
from pathlib import Path

import pytest

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


WRITER = """
import sys
from pathlib import Path
from openhands_tui.sdk.settings import save_config
for i in range(150):
    save_config({sys.argv[2]: i, "llm": {"api_key": "sk-secret"}}, Path(sys.argv[1]))
"""


@pytest.mark.subprocess
def test_two_processes_saving_the_config_at_once_keep_both_changes(tmp_path: Path) -> None:
    """A fixed `config.tmp` let one tui rename the other's half-written copy: FileNotFoundError,
    and a torn config.toml that every later start refused."""
    from openhands_tui.sdk.settings import load_config

    config = tmp_path / "config" / "config.toml"
    writers = [
        subprocess.Popen([sys.executable, "-c", WRITER, str(config), name], stderr=subprocess.PIPE, text=True)
        for name in ("first", "second")
    ]
    for writer in writers:
        _, err = writer.communicate(timeout=120)
        assert writer.returncode == 0, err
    assert load_config(config) == {"first": 149, "second": 149, "llm": {"api_key": "sk-secret"}}
    assert stat.S_IMODE(config.stat().st_mode) == 0o600
    assert sorted(p.name for p in config.parent.iterdir()) == [".config.toml.lock", "config.toml"]


REMEMBERER = """
import sys
from pathlib import Path
from openhands_tui.sdk.security.permissions import PermissionRule, PermissionSet
rules = PermissionSet.load(Path(sys.argv[1]))[0]
for i in range(60):
    rules.remember(PermissionRule(action="allow", command=f"make {sys.argv[3]}{i}"), Path(sys.argv[2]))
"""


@pytest.mark.subprocess
def test_two_processes_answering_always_at_once_keep_every_rule(tmp_path: Path) -> None:
    from openhands_tui.sdk.files.toml_file import read_toml

    workspace, rules = tmp_path / "workspace", tmp_path / "config" / "permissions.toml"
    workspace.mkdir()
    writers = [
        subprocess.Popen([sys.executable, "-c", REMEMBERER, str(workspace), str(rules), name], stderr=subprocess.PIPE)
        for name in ("a", "b")
    ]
    for writer in writers:
        _, err = writer.communicate(timeout=120)
        assert writer.returncode == 0, err
    commands = sorted(rule["command"] for rule in read_toml(rules)["rule"])
    assert commands == sorted(f"make {name}{i}" for name in "ab" for i in range(60))
