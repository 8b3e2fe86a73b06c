"""A session log written by another version of tui: a newer one's extra fields are read past, a
kind of event this version does not know is named (not called damage, and never cut off as a
torn last line), a missing field is named."""

from __future__ import annotations

import json
import os
from pathlib import Path

from openhands_tui.sdk.facts.store import encode_line
from openhands_tui.testing import Script, Turn
from tests.conftest import model_args, run_tui


def _first_session(serve, workspace: Path) -> tuple[object, list[str], Path]:  # type: ignore[no-untyped-def]
    server = serve([Script(turns=[Turn.finish("first answer"), Turn.finish("second answer")])])
    args = [*model_args(server), "--workspace", str(workspace)]
    first = run_tui("--headless", "--task", "the first task", *args)
    assert first.returncode == 0, first.stderr
    (log,) = (Path(os.environ["XDG_STATE_HOME"]) / "openhands-tui" / "sessions").glob("*/events.jsonl")
    return server, args, log


def _rewrite(log: Path, change) -> bytes:  # type: ignore[no-untyped-def]
    events = [json.loads(line.rpartition(b"\t")[0]) for line in log.read_bytes().splitlines()]
    data = b"".join(encode_line(json.dumps(event).encode()) for event in change(events))
    log.write_bytes(data)
    return data


def test_fields_a_newer_version_added_are_read_past(serve, workspace: Path) -> None:
    server, args, log = _first_session(serve, workspace)
    _rewrite(log, lambda events: [{**event, "added_later": {"x": [1, 2]}} for event in events])
    resumed = run_tui("--headless", "--resume", "last", "--task", "the second task", *args)
    assert resumed.returncode == 0, resumed.stderr
    assert "second answer" in resumed.stdout
    sent = json.dumps(server.requests[-1].body["messages"])  # type: ignore[attr-defined]
    assert "the first task" in sent and "first answer" in sent and "added_later" not in sent


def test_an_unknown_kind_of_event_is_named_and_the_log_left_whole(serve, workspace: Path) -> None:
    _, args, log = _first_session(serve, workspace)

    def add_unknown_last(events: list[dict[str, object]]) -> list[dict[str, object]]:
        return [*events, {"id": "x1", "agent_id": "root", "kind": "hologram", "payload": {"frames": 3}}]

    before = _rewrite(log, add_unknown_last)
    resumed = run_tui("--headless", "--resume", "last", "--task", "more", *args, timeout=30)
    assert resumed.returncode == 2, resumed.stderr
    lines = resumed.stderr.strip().splitlines()
    assert len(lines) == 1 and str(log) in lines[0], resumed.stderr
    line_number = before.count(b"\n")
    assert f"line {line_number} is an event of kind 'hologram'" in lines[0] and "newer version" in lines[0]
    assert log.read_bytes() == before  # not truncated as if the last line were torn


def test_a_missing_field_is_named(serve, workspace: Path) -> None:
    _, args, log = _first_session(serve, workspace)
    _rewrite(log, lambda events: [{k: v for k, v in event.items() if k != "agent_id"} for event in events])
    resumed = run_tui("--headless", "--resume", "last", "--task", "more", *args, timeout=30)
    assert resumed.returncode == 2 and "Traceback" not in resumed.stderr, resumed.stderr
    assert "line 1 is damaged (agent_id: Field required)" in resumed.stderr
