"""The README's batch recipe (`tests/batch/batch.py`) runs as documented: tasks side by side,
each in its own copy of the repository, one state folder for all, and the exit codes and JSON
events it relies on say how each ended."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from openhands_tui.testing import Script, ScriptedToolCall, Turn
from tests.conftest import model_args

pytestmark = pytest.mark.subprocess

RECIPE = Path(__file__).parent / "batch.py"


def test_tasks_run_side_by_side_each_in_its_own_copy_and_say_how_they_ended(serve, tmp_path: Path) -> None:
    repo = tmp_path / "repo"
    repo.mkdir()
    (repo / "README.md").write_text("a project\n")
    subprocess.run(["git", "init", "-q", str(repo)], check=True)
    subprocess.run(["git", "-C", str(repo), "add", "."], check=True)
    subprocess.run(
        ["git", "-C", str(repo), "-c", "user.name=t", "-c", "user.email=t@t", "commit", "-qm", "start"], check=True
    )
    writes = [Turn.call("terminal", command="echo ok > done.txt"), Turn.finish("wrote it")]
    loops = [Turn(tool_calls=[ScriptedToolCall(name="terminal", arguments={"command": "true"})], repeat=10)]
    model = serve(  # a script's turns are used up as they are answered: one script per task
        [
            Script(name="first", match_user="write marker A", turns=writes),
            Script(name="second", match_user="write marker B", turns=writes),
            Script(name="loops", match_user="keep going", turns=loops),
        ]
    )
    tasks = tmp_path / "tasks.txt"
    tasks.write_text("# one per line\nwrite marker A\n\nkeep going\nwrite marker B\n")
    out = tmp_path / "out"
    env = {**os.environ, "TUI": f"{sys.executable} -m openhands_tui"}
    flags = [*model_args(model), "--max-iterations", "3"]
    done = subprocess.run(
        [sys.executable, str(RECIPE), str(tasks), str(repo), str(out), "--parallel", "3", "--", *flags],
        env=env,
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )
    assert done.returncode == 1, done.stderr  # one task did not finish
    assert "2 of 3 tasks finished" in done.stderr
    summary = {line["task"]: line for line in map(json.loads, (out / "summary.jsonl").read_text().splitlines())}
    assert set(summary) == {"write marker A", "keep going", "write marker B"}
    for task in ("write marker A", "write marker B"):
        line = summary[task]
        assert (line["exit_code"], line["status"], line["result"]) == (0, "finished", "wrote it")
        assert (out / str(line["n"]) / "workspace" / "done.txt").read_text() == "ok\n"
    looped = summary["keep going"]
    assert looped["exit_code"] == 3 and looped["status"] != "finished"
    assert not (repo / "done.txt").exists()  # the repository itself is untouched
    sessions = {line["session"] for line in summary.values()}
    assert len(sessions) == 3 and all(sessions)
    for line in summary.values():  # stdout carried events and nothing else
        for event in (out / str(line["n"]) / "events.jsonl").read_text().splitlines():
            assert "kind" in json.loads(event)
