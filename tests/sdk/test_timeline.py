"""The history a session goes on from after rewinds, folded from an append-only log: a rewind
drops what followed its target, an undo brings it back, an undo of the undo drops it again,
a rewind of the files alone leaves the conversation; turns are the user's own messages; the
calls a rewind drops still count in the session's cost; children's ids are never reused."""

from __future__ import annotations

from pathlib import Path

from openhands_tui.sdk.facts.event import (
    CheckpointEvent,
    DelegationOpenedEvent,
    Event,
    LLMUsageEvent,
    MessageEvent,
    RewindEvent,
)
from openhands_tui.sdk.facts.store import SessionMeta, SessionStore
from openhands_tui.sdk.facts.tree import DelegationTree
from openhands_tui.sdk.timeline.history import child_ids_taken, effective_history, last_rewind, turns
from openhands_tui.sdk.timeline.rewind import rewind, undo_rewind


def _user(text: str, source: str = "") -> MessageEvent:
    return MessageEvent(agent_id="root", role="user", content=text, source=source)


def _said(history: list[Event]) -> list[str]:
    return [e.content for e in history if isinstance(e, MessageEvent)]


def _session(tmp_path: Path) -> list[Event]:
    first, second = _user("first"), _user("second")
    return [
        first,
        CheckpointEvent(agent_id="root", turn_event=first.id, tree="t1"),
        MessageEvent(agent_id="root", role="assistant", content="one"),
        LLMUsageEvent(agent_id="root", model="m", response_id="r1", prompt_tokens=10, completion_tokens=1, cost=0.5),
        _user("go on", source="critic"),
        second,
        CheckpointEvent(agent_id="root", turn_event=second.id, tree="t2"),
        DelegationOpenedEvent(agent_id="coder-4", parent_agent_id="root", agent_name="coder", task="x", depth=1),
        MessageEvent(agent_id="root", role="assistant", content="two"),
        LLMUsageEvent(agent_id="root", model="m", response_id="r2", prompt_tokens=20, completion_tokens=2, cost=0.25),
    ]


def test_turns_are_the_users_messages_with_their_checkpoints(tmp_path: Path) -> None:
    found = turns(_session(tmp_path))
    assert [(t.number, t.text, t.tree) for t in found] == [(1, "first", "t1"), (2, "second", "t2")]


def test_rewinds_and_their_undos_fold_into_the_history_the_session_goes_on_from(tmp_path: Path) -> None:
    events = _session(tmp_path)
    second = turns(events)[1]
    back = RewindEvent(agent_id="root", to_event=second.event_id, turn=2)
    events.append(back)
    assert _said(effective_history(events)) == ["first", "one", "go on"]
    events.append(_user("instead"))
    assert _said(effective_history(events)) == ["first", "one", "go on", "instead"]
    assert last_rewind(effective_history(events)) == back
    undo = RewindEvent(agent_id="root", to_event=back.id, undoes=back.id)
    events.append(undo)
    assert _said(effective_history(events)) == ["first", "one", "go on", "second", "two"]
    events.append(RewindEvent(agent_id="root", to_event=undo.id, undoes=undo.id))  # redo
    assert _said(effective_history(events)) == ["first", "one", "go on", "instead"]
    events.append(RewindEvent(agent_id="root", to_event=events[0].id, turn=1, conversation=False))
    assert _said(effective_history(events)) == ["first", "one", "go on", "instead"]  # files only


def test_a_rewind_on_disk_keeps_the_dropped_calls_in_the_cost_and_an_undo_gives_them_back(tmp_path: Path) -> None:
    store = SessionStore(tmp_path / "state")
    log = store.create(SessionMeta(id="s1"))
    for event in _session(tmp_path):
        log.append(event)
    log.lock()
    done = rewind(log, None, 2, code=False)
    assert (done.event.tokens_dropped, done.event.cost_dropped, done.turns_dropped) == (22, 0.25, 1)
    history = effective_history(log.load().events)
    tree = DelegationTree.from_events(history)
    assert "coder-4" not in tree.nodes and tree.subtree_cost("root") == 0.75 and tree.subtree_tokens("root") == 33
    assert child_ids_taken(history) == 4  # a new child is coder-5, not a second coder-4
    undone = undo_rewind(log, None)
    assert undone.event.cost_dropped == 0.0
    tree = DelegationTree.from_events(effective_history(log.load().events))
    assert "coder-4" in tree.nodes and tree.subtree_cost("root") == 0.75
    log.close()
