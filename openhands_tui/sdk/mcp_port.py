"""The engine's port for MCP servers: it asks for their tools, it never speaks the protocol.

The client (`openhands_tui.mcp`, built on the official `mcp` SDK) implements `MCPToolSource`
and registers itself with `use_mcp_client` when imported, as concrete tools register
themselves; the engine never imports it. An agent wants servers from three places — the
session's (root agent only), its own `Agent(mcp_config=...)`, and the `mcp_tools` of a
microagent that fired — and `MCPTools` gathers them: servers start in the background as soon
as they are wanted, and the agent waits for them only before its next model call, so no
screen or session start waits for a server. A server that fails is a warning; the run goes on.
How the servers are doing reaches front ends as `MCPServersEvent`s, published by the engine
whenever the client says a server changed (`MCPToolSource.watch`).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any, Protocol

from openhands_tui.sdk.errors import OpenHandsTUIError, ToolResolutionError
from openhands_tui.sdk.facts.event import MCPServerStatus
from openhands_tui.sdk.mcp_config import MCPServerConfig
from openhands_tui.sdk.mcp_host import MCPHost
from openhands_tui.sdk.sandbox import SandboxPolicy
from openhands_tui.sdk.security.trusted import TrustedFiles

if TYPE_CHECKING:
    from openhands_tui.sdk.tool import ToolDefinition


class MCPRequestFailed(OpenHandsTUIError):
    """A resource or prompt the user asked for could not be had (one line: which, and why)."""


@dataclass(frozen=True)
class MCPPromptTurn:
    """A server's prompt as the user's turn: its text, and the resources it embeds (name, text)."""

    text: str
    resources: tuple[tuple[str, str], ...] = ()


class MCPToolSource(Protocol):
    """The MCP client as the engine sees it; one per session, shared by its agents."""

    def start(self, servers: Mapping[str, MCPServerConfig]) -> None:
        """Begin starting these servers in the background (servers already started are kept)."""

    async def tools(
        self,
        servers: Mapping[str, MCPServerConfig],
        warn: Callable[[str], None],
        secret: Callable[[str, str], None] = lambda value, label: None,
    ) -> list[ToolDefinition[Any]]:
        """Wait (each within its timeout) for these servers; their tools, named `server__tool`.
        A server that failed is reported once through `warn` and contributes no tools. The
        credentials a server is given while it runs (its sign-in's tokens) go to `secret`."""

    def status(self) -> list[MCPServerStatus]:
        """Every server this session has started, and how it is doing."""

    def watch(self, changed: Callable[[], None]) -> None:
        """Call `changed` whenever a server of this session changes (started, running with its
        tools, failed, stopped), on the loop the servers run on; `status()` then says how. Not
        for the servers `aclose` stops: the session is over."""

    async def read_resource(self, servers: Mapping[str, MCPServerConfig], server: str, uri: str) -> str:
        """The text of `server`'s resource `uri` (capped, escapes stripped; binary as a note), the
        server started from `servers` if it was not. Raises MCPRequestFailed."""

    async def get_prompt(
        self, servers: Mapping[str, MCPServerConfig], server: str, prompt: str, words: Sequence[str]
    ) -> MCPPromptTurn:
        """`server`'s prompt filled in from `words` (`name=value`, or positional in the declared
        order). Raises MCPRequestFailed (an unknown prompt, missing required arguments)."""

    def serve(self, host: MCPHost) -> None:
        """What the servers ask of the session (progress, roots, the user, the model) goes to
        `host` from now on; before, they are told the client cannot."""

    async def aclose(self) -> None:
        """Stop every server (and its processes); the source may be started again after."""


#: Makes a session's client, given the workspace (where stdio servers run by default), the
#: session's sandbox (servers run unconfined only when it is off) and its trusted files (where
#: what a server runs from the workspace is recorded, and what each server's jail keeps read-only).
MCPClientFactory = Callable[[Path, SandboxPolicy, TrustedFiles], MCPToolSource]
_client_factory: MCPClientFactory | None = None


def use_mcp_client(factory: MCPClientFactory) -> None:
    """Register how sessions make their MCP client (`openhands_tui.mcp` does on import)."""
    global _client_factory
    _client_factory = factory


def new_mcp_client(workspace: Path, sandbox: SandboxPolicy, trusted: TrustedFiles) -> MCPToolSource | None:
    return _client_factory(workspace, sandbox, trusted) if _client_factory is not None else None


class MCPTools:
    """One agent's MCP servers: wanted (and started) now, attached before its next model call."""

    def __init__(
        self,
        source: MCPToolSource | None,
        warn: Callable[[str], None],
        secret: Callable[[str, str], None] = lambda value, label: None,
    ) -> None:
        self._source = source
        self._warn = warn
        self._secret = secret
        self._pending: dict[str, MCPServerConfig] = {}
        self._attached: set[str] = set()

    def want(self, servers: Mapping[str, MCPServerConfig], why: str) -> None:
        """Start `servers` in the background; `why` names who asked (for the error without a client)."""
        new = {name: config for name, config in servers.items() if name not in self._attached}
        if not new:
            return
        if self._source is None:
            raise ToolResolutionError(
                f"{why} declares MCP servers ({', '.join(new)}) but no MCP client is loaded; import openhands_tui.mcp"
            )
        for name, config in new.items():  # a server's tokens never reach the log or the model
            for value, label in config.secrets().items():
                self._secret(value.strip(), f"MCP server {name} {label}")
        self._pending.update(new)
        self._source.start(new)

    @property
    def pending(self) -> bool:
        return bool(self._pending)

    async def attach(self) -> list[ToolDefinition[Any]]:
        """The tools of the servers wanted since the last call (waiting for them to start)."""
        if not self._pending or self._source is None:
            return []
        pending, self._pending = self._pending, {}
        self._attached.update(pending)
        return await self._source.tools(pending, self._warn, self._secret)
