"""The idle collector: full collections only when the user is idle or one is overdue."""

from __future__ import annotations

import gc

from openhands_tui.tui.idle_gc import NEVER, IdleCollector


class Clock:
    def __init__(self) -> None:
        self.now = 100.0

    def __call__(self) -> float:
        return self.now


def test_collects_only_when_idle_or_overdue_and_restores_thresholds() -> None:
    before = gc.get_threshold()
    clock = Clock()
    collector = IdleCollector(clock=clock, idle_after=0.5, at_most_every=30.0)
    assert collector.tick() is False  # not started: the process keeps its own policy
    collector.start()
    try:
        assert gc.get_threshold()[2] == NEVER
        collector.touched()
        clock.now += 0.2
        assert collector.tick() is False  # the user is typing
        clock.now += 0.4
        assert collector.tick() is True  # 0.6 s without input
        for _ in range(40):  # typing without pause for 40 s: one overdue collection at 30 s
            clock.now += 1.0
            collector.touched()
            collector.tick()
        assert collector.collections == 2
    finally:
        collector.stop()
    assert gc.get_threshold() == before
