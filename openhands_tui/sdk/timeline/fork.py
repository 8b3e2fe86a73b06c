"""Forking a session: a new session whose history is a copy of another's, up to a turn.

The fork's log starts with a `SessionForkedEvent` naming its origin (the tree shows it), then
the origin's history as it stands after its rewinds, cut before the chosen turn. From then on
the two are independent: each has its own log and lock, and only the workspace's checkpoint
objects are shared (they are kept per workspace, and never change once written).
"""

from __future__ import annotations

import shutil

from openhands_tui.sdk.errors import StorageError
from openhands_tui.sdk.facts.attachment import ATTACHMENTS_FOLDER
from openhands_tui.sdk.facts.event import Event, SessionForkedEvent
from openhands_tui.sdk.facts.store import SessionLog, SessionMeta, SessionStore, new_session_id
from openhands_tui.sdk.timeline.history import effective_history, turns
from openhands_tui.sdk.timeline.rewind import TimelineError

#: The index through which a session takes its checkpoints (see ShadowRepo).
CHECKPOINT_INDEX = "checkpoint-index"


def fork_session(store: SessionStore, origin: SessionLog, events: list[Event], at_turn: int | None) -> SessionLog:
    """A new session with `origin`'s history (`events`, its log as read) up to before turn
    `at_turn` (None: all of it). The new session is created, not locked."""
    history = effective_history(events)
    if at_turn is not None:
        found = turns(history)
        if not 1 <= at_turn <= len(found):
            have = f"turns 1 to {len(found)}" if found else "no turns yet"
            raise TimelineError(f"--at {at_turn}: session {origin.id} has {have}")
        cut = next(i for i, event in enumerate(history) if event.id == found[at_turn - 1].event_id)
        history = history[:cut]
    meta = origin.meta
    title = f"{meta.title} (fork)" if meta.title else ""
    fork = store.create(
        meta.model_copy(
            update={
                "id": new_session_id(),
                "created": SessionMeta(id="x").created,
                "title": title,
                "status": "idle",
                "forked_from": origin.id,
                "forked_at": at_turn,
            }
        )
    )
    try:
        attachments = origin.directory / ATTACHMENTS_FOLDER
        if attachments.is_dir():  # the images its messages name, so the fork sends them too
            shutil.copytree(attachments, fork.directory / ATTACHMENTS_FOLDER, symlinks=True)
        fork.append(SessionForkedEvent(agent_id="root", origin=origin.id, origin_title=meta.title, turn=at_turn))
        for event in history:
            fork.append(event)
        fork.sync()
    except (StorageError, OSError) as exc:  # disk full: no half-copied session left behind
        fork.close()
        shutil.rmtree(fork.directory, ignore_errors=True)
        if isinstance(exc, StorageError):
            raise
        raise TimelineError(f"cannot copy {origin.directory / ATTACHMENTS_FOLDER}: {exc.strerror or exc}") from None
    fork.close()
    return fork
