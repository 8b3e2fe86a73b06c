"""Parallel siblings and the provider's prompt cache: one writes the shared prefix first.

Children of the same role, started together (`delegate_parallel`), send the same system prompt
and tools. Where writing the cache costs extra and an entry is readable only once the answer
that wrote it has begun (Claude), sending them all at once makes every one of them pay for
writing the same prefix. So the first to ask writes it; the others wait until its answer has
begun — one time-to-first-byte — and then read it. The wait is capped, and a write older than
the provider's cache lifetime is not trusted.
"""

from __future__ import annotations

import asyncio
import contextlib
import time
from collections.abc import Callable

#: The provider keeps an entry 5 minutes after its last use; trust it for less.
FRESH_SECONDS = 240.0
_clock = time.monotonic

#: Longest a sibling waits for the writer's answer to begin before going anyway.
MAX_WAIT_SECONDS = 30.0


class PrefixShare:
    """One per parent agent: its children claim their prefix key before their first call."""

    def __init__(self, max_wait: float = MAX_WAIT_SECONDS) -> None:
        self.max_wait = max_wait
        self._writes: dict[str, tuple[asyncio.Event, float]] = {}

    async def claim(self, key: str) -> Callable[[], None] | None:
        """Returns the function the writer calls once its answer has begun (or failed), or
        None after waiting for another writer."""
        entry = self._writes.get(key)
        if entry is None or (entry[0].is_set() and _clock() - entry[1] > FRESH_SECONDS):
            written = asyncio.Event()
            self._writes[key] = (written, _clock())

            def accepted() -> None:
                if not written.is_set():
                    self._writes[key] = (written, _clock())
                    written.set()

            return accepted
        with contextlib.suppress(TimeoutError):  # a slow writer delays its siblings only so long
            await asyncio.wait_for(entry[0].wait(), self.max_wait)
        return None
