"""A running tool call's progress, as its MCP server reported it (`notifications/progress`).

Apart from `event.py` (which unions it with the rest) to keep that module's size in bounds.
Transient, like the servers' status: progress is of the moment, and a resumed session shows the
call's result instead.
"""

from __future__ import annotations

from typing import Literal

from pydantic import Field

from openhands_tui.sdk.facts.event_base import EventBase


class ToolProgressEvent(EventBase):
    """How far a running call has got: `progress` of `total` (None: unknown), and the
    server's words for it (stripped of escape sequences, one line)."""

    kind: Literal["tool_progress"] = "tool_progress"
    tool_call_id: str
    progress: float
    total: float | None = None
    message: str = ""
    transient: bool = Field(default=True, exclude=True)

    def line(self) -> str:
        """`42% step 3 of 7`, or `3 step 3` when the total is unknown."""
        if self.total:
            share = max(0.0, min(1.0, self.progress / self.total))
            amount = f"{share * 100:.0f}%"
        else:
            amount = f"{self.progress:g}"
        return f"{amount} {self.message}".strip()
