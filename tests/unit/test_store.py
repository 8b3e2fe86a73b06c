"""The event log: round trips, torn last lines, damage in the middle, and the session index."""

from __future__ import annotations

import time
from pathlib import Path

import pytest

from openhands_tui.sdk.errors import SessionError
from openhands_tui.sdk.facts.event import ActionEvent, MessageEvent, ObservationEvent, Risk, TextDeltaEvent
from openhands_tui.sdk.facts.store import SessionMeta, SessionStore, encode_line


def _store(tmp_path: Path) -> SessionStore:
    return SessionStore(tmp_path)


def _events() -> list:
    return [
        MessageEvent(agent_id="root", role="user", content="hi"),
        ActionEvent(
            agent_id="root",
            tool_call_id="c1",
            tool_name="terminal",
            arguments={"command": "ls"},
            raw_arguments='{"command": "ls"}',
            security_risk=Risk.LOW,
        ),
        ObservationEvent(agent_id="root", tool_call_id="c1", tool_name="terminal", content="a\nb"),
    ]


def test_round_trip_preserves_every_field(tmp_path: Path) -> None:
    log = _store(tmp_path).create(SessionMeta(id="s1"))
    written = _events()
    for event in written:
        log.append(event)
    log.close()
    loaded = _store(tmp_path).open("s1").load()
    assert loaded.warnings == []
    assert loaded.events == written  # ids, timestamps and payloads all survive


def test_transient_events_are_not_written(tmp_path: Path) -> None:
    from openhands_tui.sdk.run.bus import EventBus

    log = _store(tmp_path).create(SessionMeta(id="s1"))
    bus = EventBus(log)
    seen = []
    bus.subscribe(seen.append)
    bus.publish(TextDeltaEvent(agent_id="root", delta="he", response_id="r"))
    bus.publish(MessageEvent(agent_id="root", role="assistant", content="hello"))
    log.close()
    assert [e.kind for e in seen] == ["text_delta", "message"]
    assert [e.kind for e in _store(tmp_path).open("s1").load().events] == ["message"]


def test_torn_last_line_is_dropped_and_truncated_before_appending(tmp_path: Path) -> None:
    log = _store(tmp_path).create(SessionMeta(id="s1"))
    for event in _events():
        log.append(event)
    log.close()
    with open(log.events_path, "ab") as f:
        f.write(b'{"kind": "message", "agent_id": "ro')  # killed mid-write
    reopened = _store(tmp_path).open("s1")
    loaded = reopened.load()
    assert len(loaded.events) == 3
    assert len(loaded.warnings) == 1 and "torn last line" in loaded.warnings[0]
    reopened.append(MessageEvent(agent_id="root", role="user", content="again"))
    reopened.close()
    again = _store(tmp_path).open("s1").load()
    assert again.warnings == []
    assert [e.kind for e in again.events][-1] == "message" and len(again.events) == 4


def test_complete_last_line_without_newline_is_kept(tmp_path: Path) -> None:
    log = _store(tmp_path).create(SessionMeta(id="s1"))
    log.append(_events()[0])
    log.close()
    data = log.events_path.read_bytes()
    log.events_path.write_bytes(data + encode_line(_events()[1].model_dump_json().encode()).rstrip(b"\n"))
    reopened = _store(tmp_path).open("s1")
    assert len(reopened.load().events) == 2
    reopened.append(_events()[2])
    reopened.close()
    assert len(_store(tmp_path).open("s1").load().events) == 3


def test_damage_in_the_middle_is_an_error_naming_the_line(tmp_path: Path) -> None:
    log = _store(tmp_path).create(SessionMeta(id="s1"))
    for event in _events():
        log.append(event)
    log.close()
    lines = log.events_path.read_text().splitlines()
    lines[1] = lines[1][:20]
    log.events_path.write_text("\n".join(lines) + "\n")
    with pytest.raises(SessionError, match=r"events.jsonl: line 2 is damaged"):
        _store(tmp_path).open("s1").load()


def test_a_torn_last_line_is_never_read_as_data_wherever_it_was_cut(tmp_path: Path) -> None:
    """Cut the last line at every byte: each prefix is dropped with a warning, never parsed,
    including the cut just before the checksum, where the JSON itself is complete."""
    log = _store(tmp_path).create(SessionMeta(id="s1"))
    for event in _events():
        log.append(event)
    log.close()
    whole = log.events_path.read_bytes()
    last_start = whole.rstrip(b"\n").rfind(b"\n") + 1
    for cut in range(last_start + 1, len(whole) - 1):
        log.events_path.write_bytes(whole[:cut])
        loaded = _store(tmp_path).open("s1").load()
        assert len(loaded.events) == 2, cut
        assert len(loaded.warnings) == 1 and "torn last line" in loaded.warnings[0]
        assert log.events_path.read_bytes() == whole[:last_start]  # truncated back to clean lines
    log.events_path.write_bytes(whole[:-1])  # only the newline missing: the line is whole
    assert len(_store(tmp_path).open("s1").load().events) == 3


def test_a_flipped_byte_in_the_middle_is_caught_by_the_checksum(tmp_path: Path) -> None:
    log = _store(tmp_path).create(SessionMeta(id="s1"))
    for event in _events():
        log.append(event)
    log.close()
    data = bytearray(log.events_path.read_bytes())
    position = data.index(b'"ls"')  # still valid JSON after the change: only the checksum knows
    data[position + 1 : position + 3] = b"rm"
    log.events_path.write_bytes(bytes(data))
    with pytest.raises(SessionError, match=r"line 2 is damaged \(checksum mismatch\)"):
        _store(tmp_path).open("s1").load()


def test_files_from_before_checksums_still_load(tmp_path: Path) -> None:
    log = _store(tmp_path).create(SessionMeta(id="s1"))
    events = _events()
    log.events_path.write_text("".join(e.model_dump_json() + "\n" for e in events))
    assert _store(tmp_path).open("s1").load().events == events


def test_open_by_prefix_and_last(tmp_path: Path) -> None:
    store = _store(tmp_path)
    older = store.create(SessionMeta(id="20260101-000000-aaaa"))
    older.append(_events()[0])
    older.close()
    time.sleep(0.02)
    newer = store.create(SessionMeta(id="20260102-000000-bbbb"))
    newer.append(_events()[0])
    newer.close()
    assert store.open("last").id == "20260102-000000-bbbb"
    assert store.open("20260101").id == "20260101-000000-aaaa"
    with pytest.raises(SessionError, match="ambiguous"):
        store.open("2026")
    with pytest.raises(SessionError, match="no such session"):
        store.open("nope")
    assert [m.id for m in store.list_sessions()] == ["20260102-000000-bbbb", "20260101-000000-aaaa"]


def test_all_metadata_is_every_readable_session_and_nothing_else(tmp_path: Path) -> None:
    """What each launch asks of every earlier session (its strategy): the same sessions a list
    shows, damaged ones and stray files left out, in any order."""
    store = _store(tmp_path)
    for name in ("20260101-000000-aaaa", "20260102-000000-bbbb"):
        store.create(SessionMeta(id=name, strategy=f"{name}.py")).close()
    damaged = store.create(SessionMeta(id="20260103-000000-cccc"))
    damaged.close()
    for name in ("meta.json", "meta.backup.json"):  # damaged beyond its backup copy
        (damaged.directory / name).write_text("{not json")
    (store.root / "stray.txt").write_text("not a session")
    (store.root / "empty-folder").mkdir()
    assert sorted(m.strategy for m in store.all_metadata()) == ["20260101-000000-aaaa.py", "20260102-000000-bbbb.py"]
    assert sorted(m.id for m in store.all_metadata()) == sorted(m.id for m in store.list_sessions())
    assert SessionStore(tmp_path / "no-store-yet").all_metadata() == []


def test_last_with_no_sessions(tmp_path: Path) -> None:
    with pytest.raises(SessionError, match="no sessions stored"):
        _store(tmp_path).open("last")


def test_risk_compares_by_severity_not_alphabet() -> None:
    assert Risk.max(Risk.HIGH, Risk.LOW, Risk.MEDIUM) is Risk.HIGH
    assert Risk.max(Risk.LOW, Risk.MEDIUM) is Risk.MEDIUM
    assert Risk.max(None, None) is Risk.LOW
    assert sorted([Risk.MEDIUM, Risk.HIGH, Risk.LOW], key=lambda r: r.severity) == [
        Risk.LOW,
        Risk.MEDIUM,
        Risk.HIGH,
    ]
