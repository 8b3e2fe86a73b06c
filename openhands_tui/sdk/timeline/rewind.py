"""Rewinding a stored session to before one of its turns, and undoing a rewind.

Works on a session's log, not on a live conversation: the app closes its conversation, rewinds,
and opens the session again, so the headless command and the app go through this one path and a
resumed session rebuilds exactly what a rewound one continues from. The caller holds the
session's lock (`SessionLog.lock`).

A rewind of the files restores the checkpoint taken before the turn (every file the session's
agents changed, by the editor or by commands, sub-agents' too); it first takes a checkpoint of
the files as they are, recorded before the `RewindEvent`, so that the rewind can be undone.
"""

from __future__ import annotations

from dataclasses import dataclass

from openhands_tui.sdk.errors import SessionError
from openhands_tui.sdk.facts.event import Event, LLMUsageEvent, RewindEvent
from openhands_tui.sdk.facts.store import SessionLog
from openhands_tui.sdk.timeline.checkpointer import checkpoint_event
from openhands_tui.sdk.timeline.history import Turn, child_ids_taken, effective_history, last_rewind, turns
from openhands_tui.sdk.timeline.shadow_repo import CheckpointError, Restored, ShadowRepo


class TimelineError(SessionError):
    """A rewind or fork that cannot be done as asked: said in one line, nothing changed."""


@dataclass(frozen=True)
class RewindDone:
    event: RewindEvent
    #: The turn rewound to (None: an undo).
    turn: Turn | None
    #: Turns of the conversation left behind (0 when only the files were rewound).
    turns_dropped: int


def rewind(
    log: SessionLog, repo: ShadowRepo | None, to_turn: int, *, code: bool = True, conversation: bool = True
) -> RewindDone:
    """Go back to before turn `to_turn` (1: before the first): the files (`code`), the
    conversation, or both."""
    if not (code or conversation):
        raise TimelineError("a rewind restores the code, the conversation, or both: nothing was chosen")
    events = log.load().events
    found = turns(effective_history(events))
    if not found:
        raise TimelineError(f"session {log.id} has no turns to rewind to")
    if not 1 <= to_turn <= len(found):
        raise TimelineError(f"--to {to_turn}: session {log.id} has turns 1 to {len(found)}")
    turn = found[to_turn - 1]
    restored = None
    if code:
        if not turn.tree:
            raise TimelineError(
                f"turn {to_turn} has no checkpoint of the files ({turn.checkpoint_note}); "
                "rewind the conversation alone (--conversation)"
            )
        restored = _restore(log, repo, turn.tree)
    event = RewindEvent(
        agent_id="root",
        to_event=turn.event_id,
        turn=to_turn,
        code=code,
        conversation=conversation,
        restored_tree=turn.tree if code else "",
        **_files(restored),
        agents_started=child_ids_taken(events),
    )
    event = _with_spending(events, event)
    _record(log, event)
    return RewindDone(event, turn, len(found) - to_turn + 1 if conversation else 0)


def undo_rewind(log: SessionLog, repo: ShadowRepo | None) -> RewindDone:
    """Take back the last rewind still in effect (and whatever the session did since)."""
    events = log.load().events
    undone = last_rewind(effective_history(events))
    if undone is None:
        raise TimelineError(f"session {log.id} has no rewind to undo")
    restored = None
    if undone.code:
        if not undone.undo_tree:
            raise TimelineError("that rewind kept no checkpoint of the files before it; undo the conversation alone")
        restored = _restore(log, repo, undone.undo_tree)
    event = RewindEvent(
        agent_id="root",
        to_event=undone.id,
        undoes=undone.id,
        code=undone.code,
        conversation=undone.conversation,
        restored_tree=undone.undo_tree if undone.code else "",
        **_files(restored),
        agents_started=child_ids_taken(events),
    )
    event = _with_spending(events, event)
    _record(log, event)
    return RewindDone(event, None, 0)


def _restore(log: SessionLog, repo: ShadowRepo | None, tree: str) -> Restored:
    if repo is None:
        raise TimelineError(f"no checkpoints are kept for session {log.id}, so its files cannot be restored")
    try:
        restored = repo.restore(tree)
    except CheckpointError as exc:
        raise TimelineError(f"the files were not restored: {exc}") from None
    log.append(checkpoint_event(restored.before, purpose="rewind"))  # what an undo restores
    return restored


def _files(restored: Restored | None) -> dict[str, object]:
    if restored is None:
        return {}
    return {"undo_tree": restored.before.tree, "changed": restored.changed, "problem": restored.problem}


def _with_spending(events: list[Event], event: RewindEvent) -> RewindEvent:
    """`event` with what the model calls it takes out of the history cost."""
    kept = {e.id for e in effective_history([*events, event])}
    dropped = [e for e in effective_history(events) if e.id not in kept and isinstance(e, LLMUsageEvent)]
    tokens = sum(e.prompt_tokens + e.completion_tokens for e in dropped)
    return event.model_copy(update={"tokens_dropped": tokens, "cost_dropped": sum(e.cost or 0.0 for e in dropped)})


def _record(log: SessionLog, event: RewindEvent) -> None:
    log.append(event)
    log.sync()
