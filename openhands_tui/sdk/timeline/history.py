"""A session's history as it stands after its rewinds, and the turns a user can go back to.

The log is append-only: a `RewindEvent` never deletes the events after the point it returns to.
Folding the log here gives the history the session continues from. Every event is a node that
points at the node before it; a rewind moves the head back to the node that was the head when
its target event was appended. Undoing a rewind is a rewind whose target is that rewind itself,
so one rule covers both and any sequence of them, in one pass over the log.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from openhands_tui.sdk.facts.event import CheckpointEvent, Event, MessageEvent, RewindEvent
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
    #: The event the conversation returns to the state before (the turn's checkpoint, else the
    #: message itself).
    event_id: str
    text: str
    timestamp: str
    #: The workspace's files as they were before the turn ("" if no checkpoint was taken).
    tree: str = ""
    #: Why there is no checkpoint to restore files from, or what it left out.
    checkpoint_note: str = ""


def turns(history: Sequence[Event]) -> list[Turn]:
    """The user's turns in an (effective) history, numbered from 1, each with the checkpoint
    taken just before it. Messages the engine sent (a critic's follow-up) are not turns."""
    found: list[Turn] = []
    checkpoint: CheckpointEvent | None = None
    for event in history:
        if isinstance(event, CheckpointEvent) and event.agent_id == "root" and event.purpose == "turn":
            checkpoint = event
        elif isinstance(event, MessageEvent) and event.role == "user" and event.agent_id == "root" and not event.source:
            note = ""
            if checkpoint is None:
                note = "no checkpoint of the files was taken"
            elif checkpoint.problem:
                note = checkpoint.problem
            elif checkpoint.skipped:
                note = f"{len(checkpoint.skipped)} file(s) not kept: " + "; ".join(checkpoint.skipped[:3])
            found.append(
                Turn(
                    number=len(found) + 1,
                    event_id=checkpoint.id if checkpoint is not None else event.id,
                    text=one_line(event.content)[:200],
                    timestamp=event.timestamp,
                    tree=checkpoint.tree if checkpoint is not None else "",
                    checkpoint_note=note,
                )
            )
            checkpoint = None
        elif isinstance(event, MessageEvent) and event.agent_id == "root" and event.role == "assistant":
            checkpoint = None  # a checkpoint belongs to the user message right after it
    return found


def last_rewind(history: Sequence[Event]) -> RewindEvent | None:
    """The most recent rewind still in effect: what an undo takes back (with whatever the
    session did after it)."""
    return next((event for event in reversed(history) if isinstance(event, RewindEvent)), None)
