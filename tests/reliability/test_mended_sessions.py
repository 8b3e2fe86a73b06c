"""A session whose files were damaged while its history survives goes on, and says what it
lost: metadata emptied or cut (its backup copy is read), a log emptied or gone (a warning, not
silence), a log damaged in the middle (`--recover` goes on from the events before the damage
and keeps the damaged file whole). And eight `tui mcp add` at once keep all eight servers."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from openhands_tui.testing import Script, Turn
from tests.conftest import model_args, run_tui


def _first_session(serve, workspace: Path, answers: int = 2) -> tuple[object, list[str], str, Path]:
    server = serve([Script(turns=[Turn.finish(f"answer {n}") for n in range(answers)])])
    args = [*model_args(server), "--workspace", str(workspace)]
    first = run_tui("--headless", "--task", "remember the word PELICAN", *args)
    assert first.returncode == 0, first.stderr
    session_id = first.stderr.rsplit("resume with: tui --resume ", 1)[1].split(")")[0]
    directory = Path(os.environ["XDG_STATE_HOME"]) / "openhands-tui" / "sessions" / session_id
    return server, args, session_id, directory


def _sent_history(server: object) -> str:
    return json.dumps(server.requests[-1].body["messages"])  # type: ignore[attr-defined]


META_DAMAGE = {
    "emptied": lambda path: path.write_bytes(b""),
    "cut in the middle": lambda path: path.write_bytes(path.read_bytes()[:40]),
    "not UTF-8": lambda path: path.write_bytes(b"\xff\xfe{\x00"),
    "a pipe": lambda path: (path.unlink(), os.mkfifo(path)),
    "gone": lambda path: path.unlink(),
}


@pytest.mark.parametrize("damage", list(META_DAMAGE))
def test_damaged_metadata_is_read_from_its_backup_and_the_session_goes_on(serve, workspace: Path, damage) -> None:
    server, args, session_id, directory = _first_session(serve, workspace)
    META_DAMAGE[damage](directory / "meta.json")
    listed = run_tui("sessions", timeout=30)
    assert listed.returncode == 0 and session_id in listed.stdout, listed.stdout + listed.stderr
    resumed = run_tui("--headless", "--resume", session_id, "--task", "what was the word?", *args, timeout=60)
    assert resumed.returncode == 0, resumed.stderr
    assert "Traceback" not in resumed.stderr
    assert f"{directory / 'meta.json'}: unreadable" in resumed.stderr and "backup" in resumed.stderr
    assert "PELICAN" in _sent_history(server)  # the history went to the model
    json.loads((directory / "meta.json").read_text())  # and the next save mended meta.json


def test_metadata_lost_with_its_backup_is_one_line(serve, workspace: Path) -> None:
    _, args, session_id, directory = _first_session(serve, workspace)
    for name in ("meta.json", "meta.backup.json"):
        (directory / name).write_bytes(b"")
    resumed = run_tui("--headless", "--resume", session_id, "--task", "more", *args, timeout=30)
    assert resumed.returncode == 2
    assert resumed.stderr.strip().splitlines() == [
        f"tui: {directory / 'meta.json'}: unreadable session metadata (Invalid JSON: EOF while parsing a value "
        "at line 1 column 0)"
    ] or (len(resumed.stderr.strip().splitlines()) == 1 and str(directory / "meta.json") in resumed.stderr)


@pytest.mark.parametrize("damage", ["emptied", "gone"])
def test_a_lost_log_is_said_when_the_session_resumes(serve, workspace: Path, damage: str) -> None:
    _, args, session_id, directory = _first_session(serve, workspace)
    log = directory / "events.jsonl"
    log.write_bytes(b"") if damage == "emptied" else log.unlink()
    resumed = run_tui("--headless", "--resume", session_id, "--task", "more", *args, timeout=60)
    assert resumed.returncode == 0, resumed.stderr
    said = "empty" if damage == "emptied" else "missing"
    assert f"{log}: {said}; the session's history is lost" in resumed.stderr


def test_a_log_damaged_in_the_middle_goes_on_with_recover_and_keeps_the_damaged_file(serve, workspace: Path) -> None:
    server, args, session_id, directory = _first_session(serve, workspace, answers=3)
    log = directory / "events.jsonl"
    lines = log.read_bytes().splitlines(keepends=True)
    assert len(lines) > 4
    damaged_at = len(lines) - 2  # a line before the last: not a torn tail
    lines[damaged_at - 1] = b"\x00" * (len(lines[damaged_at - 1]) - 1) + b"\n"  # zeroed, as a lost page reads
    damaged = b"".join(lines)
    log.write_bytes(damaged)

    refused = run_tui("--headless", "--resume", session_id, "--task", "more", *args, timeout=30)
    assert refused.returncode == 2
    assert f"tui --resume {session_id} --recover" in refused.stderr and len(refused.stderr.strip().splitlines()) == 1
    assert log.read_bytes() == damaged  # refusing changed nothing

    resumed = run_tui("--headless", "--resume", session_id, "--recover", "--task", "what was the word?", *args)
    assert resumed.returncode == 0, resumed.stderr
    assert f"line {damaged_at} is damaged" in resumed.stderr and "leaving out 3 lines" in resumed.stderr
    (kept,) = directory.glob("events.jsonl.damaged-*")
    assert kept.read_bytes() == damaged and kept.name in resumed.stderr
    assert "PELICAN" in _sent_history(server)  # the first turn, before the damage, is history


def test_recover_without_resume_is_one_line(workspace: Path) -> None:
    result = run_tui("--headless", "--recover", "--task", "x", "--workspace", str(workspace), timeout=30)
    assert result.returncode == 2 and result.stderr.strip() == (
        "tui: --recover mends a stored session's log: use it with --resume ID"
    )


@pytest.mark.subprocess
@pytest.mark.parametrize("project", [False, True])
def test_eight_mcp_adds_at_once_keep_all_eight(forker, workspace: Path, tmp_path: Path, project: bool) -> None:
    scope = ["--project"] if project else []
    pids = [
        forker.start(
            ["mcp", "add", *scope, "--workspace", str(workspace), f"server{n}", "--", "python3", "-m", f"server{n}"],
            tmp_path / f"out{n}",
            tmp_path / f"err{n}",
        )
        for n in range(8)
    ]
    for n, pid in enumerate(pids):
        assert forker.ended(pid) == "exit 0", (tmp_path / f"err{n}").read_text()
    path = workspace / ".mcp.json" if project else Path(os.environ["XDG_CONFIG_HOME"]) / "openhands-tui" / "mcp.json"
    assert sorted(json.loads(path.read_text())["mcpServers"]) == [f"server{n}" for n in range(8)]
    assert sorted(p.name for p in path.parent.iterdir() if "mcp" in p.name) == [
        *([] if project else [".mcp.json.lock"]),
        "mcp.json" if not project else ".mcp.json",
    ]
