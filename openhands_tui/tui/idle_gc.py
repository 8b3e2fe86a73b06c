"""Full garbage collections while the user is idle, not in the middle of a key press.

A session with thousands of entries keeps hundreds of thousands of objects alive; CPython's
automatic full collection walks all of them (25-50 ms measured by tests/bench/bench_tui.py) and
fires whenever enough new objects survive, so about one key press in ten paid for it. Here the
automatic full collection is switched off and run from the app's clock tick instead: when no
input came for a moment, or at the latest every `at_most_every` seconds. Young generations are
still collected automatically, with a larger first threshold so they run less often.
"""

from __future__ import annotations

import gc
import time
from collections.abc import Callable

#: Objects allocated before a young collection (CPython's default is 700; each costs ~0.1 ms).
YOUNG_THRESHOLD = 5_000
#: A gen-2 threshold no session reaches: full collections come only from `tick`.
NEVER = 1_000_000_000


class IdleCollector:
    def __init__(
        self,
        clock: Callable[[], float] = time.monotonic,
        idle_after: float = 0.5,
        at_most_every: float = 30.0,
    ) -> None:
        self.clock = clock
        self.idle_after = idle_after
        self.at_most_every = at_most_every
        self.last_input = clock()
        self.last_collect = clock()
        self.collections = 0
        self._saved: tuple[int, int, int] | None = None

    def start(self) -> None:
        if self._saved is None:
            self._saved = gc.get_threshold()
            gc.set_threshold(YOUNG_THRESHOLD, self._saved[1], NEVER)

    def stop(self) -> None:
        """Give the process back its own thresholds (tests run many apps in one process)."""
        if self._saved is not None:
            gc.set_threshold(*self._saved)
            self._saved = None

    def touched(self) -> None:
        self.last_input = self.clock()

    def tick(self) -> bool:
        """Collect if the user is idle or the last full collection is overdue; True if it did."""
        now = self.clock()
        idle = now - self.last_input >= self.idle_after
        overdue = now - self.last_collect >= self.at_most_every
        if self._saved is None or not (idle or overdue):
            return False
        gc.collect()
        self.last_collect = self.clock()
        self.collections += 1
        return True
