"""What an MCP server may ask of the session it serves, as the engine's port: the other half
of `mcp_port.py` (there the engine asks the client for tools; here the client asks the engine).

A server may report progress on a call, list the session's roots (the workspace), ask the
user something (elicitation) and ask the session's model something (sampling). The client
(`openhands_tui.mcp`) turns the protocol's requests into these plain types and calls the host
(`sdk/run/mcp_host.py`, built on the run's bus, confirmer and model); it never reaches a front
end itself. A front end that can put a form in front of a user implements `Elicitor` on its
confirmer (the "decisions in" seam); one that cannot (headless, a test double) is never asked,
and the server is told the user declined.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Literal, Protocol, runtime_checkable

#: Kinds of field a server's form may ask for (MCP allows primitive fields only).
FieldKind = Literal["string", "number", "integer", "boolean", "enum"]
ElicitAction = Literal["accept", "decline", "cancel"]


@dataclass(frozen=True)
class FormField:
    """One field of a server's form, its text already stripped of escape sequences."""

    name: str
    kind: FieldKind
    title: str = ""
    description: str = ""
    required: bool = False
    default: str | int | float | bool | None = None
    choices: tuple[str, ...] = ()


@dataclass(frozen=True)
class ElicitationRequest:
    """A server asks the user to fill in a form (or to say no)."""

    server: str
    message: str
    fields: tuple[FormField, ...]
    agent_id: str = "root"


@dataclass(frozen=True)
class ElicitationAnswer:
    action: ElicitAction
    content: dict[str, str | int | float | bool] = field(default_factory=dict)


@runtime_checkable
class Elicitor(Protocol):
    """A confirmer that can put a server's form in front of the user (the app)."""

    async def elicit(self, request: ElicitationRequest) -> ElicitationAnswer: ...


@dataclass(frozen=True)
class SamplingRequest:
    """A server asks the session's model for an answer (`sampling/createMessage`)."""

    server: str
    messages: tuple[tuple[str, str], ...]  # (role, text)
    max_tokens: int
    system_prompt: str = ""
    temperature: float | None = None
    stop: tuple[str, ...] = ()
    agent_id: str = "root"
    tool_call_id: str = ""
    tool_name: str = ""


@dataclass(frozen=True)
class SamplingAnswer:
    text: str
    model: str
    stop_reason: str = "endTurn"


class SamplingRefused(Exception):
    """The request was not sent to the model; the message says why (one line, for the server)."""


@dataclass(frozen=True)
class ToolProgress:
    """A server's progress on one running call."""

    server: str
    agent_id: str
    tool_call_id: str
    progress: float
    total: float | None = None
    message: str = ""


class MCPHost(Protocol):
    """The session as an MCP server's client sees it."""

    def roots(self) -> list[Path]:
        """The folders servers may work in (the workspace)."""
        ...

    def progress(self, update: ToolProgress) -> None:
        """Show a running call's progress (the host throttles)."""
        ...

    async def elicit(self, request: ElicitationRequest) -> ElicitationAnswer:
        """Ask the user; declined (with a notice) where no user can be asked."""
        ...

    async def sample(self, request: SamplingRequest, policy: str) -> SamplingAnswer:
        """Ask the session's model, after the user's approval (`policy`: the server entry's
        `sampling`: ask, allow or refuse); raises SamplingRefused."""
        ...
