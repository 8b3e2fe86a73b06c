"""A session's history as it stands after its rewinds, and the turns a user can go back to.

The log is append-only: a `RewindEvent` never deletes the events after the point it returns to.
Folding the log here gives the history the session continues from. Every event is a node that
points at the node before it; a rewind moves the head back to the node that was the head when
its target event was appended. Undoing a rewind is a rewind whose target is that rewind itself,
so one rule covers both and any sequence of them, in one pass over the log.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass

from openhands_tui.sdk.facts.event import CheckpointEvent, DelegationOpenedEvent, Event, MessageEvent, RewindEvent
from openhands_tui.sdk.terminal_text import one_line


def effective_history(events: Sequence[Event]) -> list[Event]:
    """The events the session goes on from: each rewind of the conversation drops what came
    after its target (to the rewind itself, which stays, so it can be shown and undone)."""
    previous: list[int] = []  # previous[i]: the node before node i (-1: none)
    head_before: dict[str, int] = {}  # event id -> the head when that event was appended
    head = -1
    for index, event in enumerate(events):
        head_before[event.id] = head
        if isinstance(event, RewindEvent) and event.conversation and event.to_event in head_before:
            head = head_before[event.to_event]
        previous.append(head)
        head = index
    kept: list[Event] = []
    while head >= 0:
        kept.append(events[head])
        head = previous[head]
    kept.reverse()
    return kept


@dataclass(frozen=True)
class Turn:
    """One message the user gave the root agent, and where rewinding to it goes back to."""

    number: int
    #: The user's message: rewinding to the turn returns to the state just before it.
    event_id: str
    text: str
    timestamp: str
    #: The workspace's files as they were before the turn ("" if no checkpoint was taken).
    tree: str = ""
    #: Why there is no checkpoint to restore files from, or what it left out.
    checkpoint_note: str = ""


def turns(history: Sequence[Event]) -> list[Turn]:
    """The user's turns in an (effective) history, numbered from 1, each with the checkpoint
    taken for it. Messages the engine sent (a critic's follow-up) are not turns."""
    checkpoints = {
        event.turn_event: event
        for event in history
        if isinstance(event, CheckpointEvent) and event.purpose == "turn" and event.turn_event
    }
    found: list[Turn] = []
    for event in history:
        if not (isinstance(event, MessageEvent) and event.role == "user" and event.agent_id == "root"):
            continue
        if event.source:
            continue
        checkpoint = checkpoints.get(event.id)
        found.append(
            Turn(
                number=len(found) + 1,
                event_id=event.id,
                text=one_line(event.content)[:200],
                timestamp=event.timestamp,
                tree=checkpoint.tree if checkpoint is not None else "",
                checkpoint_note=_note(checkpoint),
            )
        )
    return found


def _note(checkpoint: CheckpointEvent | None) -> str:
    if checkpoint is None:
        return "no checkpoint of the files was taken"
    if checkpoint.problem:
        return checkpoint.problem
    if checkpoint.skipped:
        return f"{len(checkpoint.skipped)} file(s) not kept: " + "; ".join(checkpoint.skipped[:3])
    return ""


def last_rewind(history: Sequence[Event]) -> RewindEvent | None:
    """The most recent rewind still in effect: what an undo takes back (with whatever the
    session did after it)."""
    return next((event for event in reversed(history) if isinstance(event, RewindEvent)), None)


def child_ids_taken(events: Sequence[Event]) -> int:
    """How many sub-agent ids are taken (`coder-7` takes 7), counting children a rewind took out
    of the history (each rewind says how many there were): a new child never gets the id of one
    still in the log."""
    opened = [event.agent_id for event in events if isinstance(event, DelegationOpenedEvent)]
    numbers = [int(found.group(1)) for agent_id in opened if (found := re.search(r"-(\d+)$", agent_id))]
    rewound = [event.agents_started for event in events if isinstance(event, RewindEvent)]
    return max([len(opened), *numbers, *rewound])
