"""The event bus: the engine's one output port.

Every agent in a run (root and delegated children) publishes here. The session log is the
first subscriber, so an event is on disk before any UI sees it; UIs and printers follow.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Callable

from openhands_tui.sdk.facts.event import Event, parse_event
from openhands_tui.sdk.facts.store import SessionLog
from openhands_tui.sdk.security.secrets import Redactor
from openhands_tui.sdk.terminal_text import valid_unicode

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
        if self.redactor.active or (self.log is not None and not event.transient):
            event, line = _serialized(event)
        if self.redactor.active and line is not None:
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

    def from_any_thread(self) -> Callable[[Event], None]:
        """`publish` on the running loop, callable from a tool's own threads (a background
        job's reader); silent once the loop is closed (the session has ended)."""
        loop = asyncio.get_running_loop()

        def report(event: Event) -> None:
            with contextlib.suppress(RuntimeError):
                loop.call_soon_threadsafe(self.publish, event)

        return report

    def sync(self) -> None:
        """Make everything published so far durable (called before any tool runs)."""
        if self.log is not None:
            self.log.sync()


def _serialized(event: Event) -> tuple[Event, str]:
    """The event and its JSON, with any text that cannot be written as UTF-8 (lone surrogates
    from a tool or a provider) repaired: one bad character must not end a run as an error."""
    try:
        return event, event.model_dump_json()
    except ValueError:  # pydantic's serialization error is a ValueError
        repaired = type(event).model_validate(_repair(event.model_dump(mode="python")))
        return repaired, repaired.model_dump_json()


def _repair(value: object) -> object:
    if isinstance(value, str):
        return valid_unicode(value)
    if isinstance(value, dict):
        return {_repair(key): _repair(item) for key, item in value.items()}
    if isinstance(value, list):
        return [_repair(item) for item in value]
    return value
