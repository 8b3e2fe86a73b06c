"""Taking a checkpoint as each user turn starts, without making the model wait for it.

The snapshot is started when the user's message is given and runs on a worker thread while the
model reads it; the first tool of the turn (any agent's: children share the runtime) waits for
it, so the checkpoint always holds the files as they were before anything of that turn ran.
A checkpoint that cannot be taken is recorded with its reason (`CheckpointEvent.problem`) and
said to the user once; the session goes on without it.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Callable
from typing import Literal

from openhands_tui.sdk.facts.event import CheckpointEvent, Event
from openhands_tui.sdk.timeline.shadow_repo import ShadowRepo, Snapshot


def checkpoint_event(
    snapshot: Snapshot, *, purpose: Literal["turn", "rewind"] = "turn", turn_event: str = ""
) -> CheckpointEvent:
    return CheckpointEvent(
        agent_id="root",
        purpose=purpose,
        turn_event=turn_event,
        tree=snapshot.tree,
        files=snapshot.files,
        skipped=snapshot.skipped,
        problem=snapshot.problem,
        seconds=round(snapshot.seconds, 4),
    )


class Checkpoints:
    """One session's checkpoints: `begin` as a turn starts, `settle` before a tool runs."""

    def __init__(self, repo: ShadowRepo, publish: Callable[[Event], None]) -> None:
        self.repo = repo
        self._publish = publish
        self._pending: asyncio.Task[None] | None = None

    def begin(self, turn_event: str) -> None:
        """Snapshot the workspace for the turn that `turn_event` (the user's message) starts."""
        earlier = self._pending
        self._pending = asyncio.create_task(self._take(turn_event, earlier))

    async def _take(self, turn_event: str, earlier: asyncio.Task[None] | None) -> None:
        if earlier is not None:  # one index, one git at a time
            with contextlib.suppress(Exception):
                await earlier
        snapshot = await asyncio.to_thread(self.repo.snapshot)
        self._publish(checkpoint_event(snapshot, turn_event=turn_event))

    async def settle(self) -> None:
        """Wait for the turn's checkpoint (an interrupt stops the waiting, not the snapshot)."""
        pending = self._pending
        if pending is not None and not pending.done():
            await asyncio.shield(pending)

    async def aclose(self) -> None:
        """Let a snapshot still running finish and be recorded before the log closes."""
        pending, self._pending = self._pending, None
        if pending is not None:
            with contextlib.suppress(Exception):
                await pending
