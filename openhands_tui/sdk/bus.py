"""The event bus: the engine's one output port.

Every agent in a run (root and delegated children) publishes here. The session log is the
first subscriber, so an event is on disk before any UI sees it; UIs and printers follow.
"""

from __future__ import annotations

import logging
from collections.abc import Callable

from openhands_tui.sdk.event import Event, parse_event
from openhands_tui.sdk.security.secrets import Redactor
from openhands_tui.sdk.store import SessionLog

logger = logging.getLogger(__name__)

Subscriber = Callable[[Event], None]


class EventBus:
    def __init__(self, log: SessionLog | None = None, redactor: Redactor | None = None) -> None:
        self.log = log
        self.redactor = redactor or Redactor()
        self._subscribers: list[Subscriber] = []

    def subscribe(self, subscriber: Subscriber) -> Callable[[], None]:
        """Add a subscriber; returns a function that removes it."""
        self._subscribers.append(subscriber)
        return lambda: self._subscribers.remove(subscriber)

    def publish(self, event: Event) -> Event:
        """Redact, store, then tell every subscriber. Returns the event as published."""
        line = None
        if self.redactor.active:
            line = event.model_dump_json()
            clean = self.redactor.redact(line)
            if clean != line:
                event, line = parse_event(clean), clean
        if self.log is not None and not event.transient:
            self.log.append(event, line)
        for subscriber in tuple(self._subscribers):
            try:
                subscriber(event)
            except Exception:  # a broken display must not take the run down with it
                logger.exception("event subscriber %r failed on %s", subscriber, event.kind)
        return event

    def sync(self) -> None:
        """Make everything published so far durable (called before any tool runs)."""
        if self.log is not None:
            self.log.sync()
