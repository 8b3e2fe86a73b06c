"""The narrow view of an agent that carrying out its actions needs: record one of its events,
set its status. `AgentRun` is one; tests can supply their own."""

from __future__ import annotations

from pathlib import Path
from typing import Any, Protocol, TypeVar

from openhands_tui.sdk.facts.event import EventBase, Status

E = TypeVar("E", bound=EventBase)


class Actor(Protocol):
    """The narrow view of an agent that carrying out its calls needs."""

    agent_id: str
    #: Where this agent works: the session's workspace, or a child's own copy of it.
    workspace: Path

    @property
    def read_only(self) -> bool:
        """Whether the agent is held read-only now (plan mode: `sdk/run/plan_mode.py`)."""
        ...

    def record(self, cls: type[E], **fields: Any) -> E: ...

    def set_status(self, status: Status, detail: str = "") -> None: ...
