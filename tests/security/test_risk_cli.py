"""`tui risk`: one command, or JSON lines, rated by the rules."""

from __future__ import annotations

import json
from pathlib import Path

from tests.conftest import run_tui


def test_rate_one_command(project: Path) -> None:
    result = run_tui("risk", "rm -rf build", "--workspace", str(project))
    assert result.returncode == 0
    lines = result.stdout.splitlines()
    assert lines[0] == "HIGH" and lines[1].startswith("  - rm -rf deletes")


def test_json_lines(project: Path) -> None:
    cases = [
        {"kind": "cmd", "input": "ls -la"},
        {"kind": "cmd", "input": "npm test"},
        {"kind": "edit", "input": {"path": ".github/workflows/ci.yml", "op": "edit"}},
        {"kind": "read", "input": {"path": "src/app.py"}},
        {"kind": "read", "input": {"path": "../outside.txt"}},
    ]
    stdin = "\n".join(json.dumps(c) for c in cases) + "\n"
    result = run_tui("risk", "--json", "--workspace", str(project), input=stdin)
    assert result.returncode == 0, result.stderr
    answers = [json.loads(line) for line in result.stdout.splitlines()]
    assert [a["risk"] for a in answers] == ["LOW", "MEDIUM", "HIGH", "LOW", "HIGH"]
    assert all(a["reasons"] for a in answers)


def test_bad_lines_are_reported_in_place_and_exit_2(project: Path) -> None:
    stdin = '{"kind": "cmd", "input": "ls"}\nnot json\n{"kind": "edit", "input": "x"}\n'
    result = run_tui("risk", "--json", "--workspace", str(project), input=stdin)
    assert result.returncode == 2
    answers = [json.loads(line) for line in result.stdout.splitlines()]
    assert answers[0]["risk"] == "LOW"
    assert answers[1]["error"].startswith("line 2:") and answers[2]["error"].startswith("line 3:")


def test_missing_workspace_is_one_line(tmp_path: Path) -> None:
    result = run_tui("risk", "ls", "--workspace", str(tmp_path / "nope"))
    assert result.returncode == 2 and "not a directory" in result.stderr
    assert len(result.stderr.strip().splitlines()) == 1
