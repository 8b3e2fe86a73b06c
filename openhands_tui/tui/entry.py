"""One block of an agent's transcript as the app keeps it: what `state.py` folds events into and
the widgets draw. Apart so the fold's parts (`state.py`, `notice_lines.py`) and the widgets share
it without importing one another. `shown` is an event as the screen may show it, cleaned before
it is folded into entries."""

from __future__ import annotations

import itertools
from dataclasses import dataclass, field
from typing import Any, Literal

from openhands_tui.sdk.facts.event import Event, TextDeltaEvent
from openhands_tui.sdk.terminal_text import safe_copy, strip_controls

EntryKind = Literal["user", "assistant", "thinking", "tool", "delegation", "microagent", "condensation", "notice"]
_ids = itertools.count(1)


@dataclass
class Entry:
    """One block of an agent's transcript. `version` goes up whenever it changes."""

    kind: EntryKind
    agent_id: str
    text: str = ""
    data: dict[str, Any] = field(default_factory=dict)
    level: Literal["info", "warning", "error"] = "info"
    streaming: bool = False
    version: int = 0
    key: int = field(default_factory=lambda: next(_ids))

    def touch(self) -> None:
        self.version += 1


def shown(event: Event) -> Event:
    """The event as the screen may show it: escape sequences and control characters removed
    (an OSC 52 sequence in a command's output would otherwise write the user's clipboard)."""
    if isinstance(event, TextDeltaEvent):
        clean = strip_controls(event.delta)
        return event if clean == event.delta else event.model_copy(update={"delta": clean})
    data = event.model_dump(mode="python")
    clean_data = safe_copy(data)
    if clean_data == data:
        return event
    return type(event).model_validate(clean_data)
