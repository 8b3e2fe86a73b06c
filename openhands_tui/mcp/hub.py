"""A session's MCP client: every server its agents want, started once, stopped at the end.

Servers start concurrently in the background the moment an agent wants them, each stdio server
in a jail of its own (`wall.py`), and what it runs from the workspace registered among the
session's trusted files (`sdk/security/mcp_programs.py`), so the agent cannot change it unasked; an agent waits
for them (each within its own timeout) only before its next model call. A server wanted by
two agents, or by the session and a microagent, is one connection. A server that fails is
reported once, naming it, and the run goes on without its tools. Whoever watches the hub (the
engine, which publishes it as an event) is told each time a server starts, runs, fails or stops.
Servers that offer resources share one `mcp_resources` tool (`resources.py`).
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import Any

from openhands_tui.mcp.connection import ServerConnection
from openhands_tui.mcp.for_user import prompt_for_user, read_for_user
from openhands_tui.mcp.resources import MCPResourcesTool
from openhands_tui.mcp.tool import MCPTool
from openhands_tui.sdk.facts.event import MCPServerStatus
from openhands_tui.sdk.mcp_config import MCPServerConfig
from openhands_tui.sdk.mcp_host import MCPHost
from openhands_tui.sdk.mcp_port import MCPPromptTurn, MCPRequestFailed
from openhands_tui.sdk.run.messages import shorten
from openhands_tui.sdk.sandbox import SandboxPolicy
from openhands_tui.sdk.security.mcp_programs import note_server_programs
from openhands_tui.sdk.security.trusted import TrustedFiles
from openhands_tui.sdk.terminal_text import one_line
from openhands_tui.sdk.tool import ToolDefinition


class MCPHub:
    """Implements the engine's `MCPToolSource` port on the `mcp` SDK."""

    def __init__(
        self,
        workspace: Path,
        sandbox: SandboxPolicy | None = None,
        trusted: TrustedFiles | None = None,
        interactive: bool | None = None,
    ) -> None:
        self.workspace = workspace
        #: Whether a server may ask a person to sign in (None: when the session has a terminal).
        self.interactive = interactive
        #: The session's sandbox (None: the default one). Off: servers run unconfined.
        self.sandbox = sandbox
        #: The session's trusted files (None: a record of this client's own): what each server
        #: runs from the workspace joins them; each server's jail keeps them read-only.
        self.trusted = trusted if trusted is not None else TrustedFiles()
        self._connections: dict[str, ServerConnection] = {}
        self._warned: set[str] = set()
        self._watchers: list[Callable[[], None]] = []
        #: The session's side of what servers ask (None until a session attaches it).
        self._host: MCPHost | None = None

    def watch(self, changed: Callable[[], None]) -> None:
        self._watchers.append(changed)

    def serve(self, host: MCPHost) -> None:
        self._host = host

    def _changed(self, connection: ServerConnection | None = None) -> None:
        """Tell the watchers; not about a server `aclose` took away (its session is over: a
        front end already showing the next session must not be told it has no servers)."""
        if connection is not None and self._connections.get(connection.name) is not connection:
            return
        for changed in tuple(self._watchers):
            changed()

    def start(self, servers: Mapping[str, MCPServerConfig]) -> None:
        started = False
        for name, config in servers.items():
            if name in self._connections:
                continue  # the first config of a name wins (the session's over a microagent's)
            if config.command is not None:  # what it runs from the workspace: not the agent's to change
                note_server_programs(config, self.workspace, self.trusted)
            connection = ServerConnection(
                name, config, self.workspace, self.sandbox, self.trusted, changed=self._changed, host=lambda: self._host
            )
            connection.interactive = self.interactive
            self._connections[name] = connection
            started = True
            connection.start()
        if started:
            self._changed()

    async def tools(
        self,
        servers: Mapping[str, MCPServerConfig],
        warn: Callable[[str], None],
        secret: Callable[[str, str], None] = lambda value, label: None,
    ) -> list[ToolDefinition[Any]]:
        self.start(servers)
        wanted = [self._connections[name] for name in servers]
        for connection in wanted:  # a server asking its person to sign in says so through `warn`
            connection.listen(warn, secret)
        await asyncio.gather(*(connection.wait_ready() for connection in wanted))
        tools: list[ToolDefinition[Any]] = []
        for connection in wanted:
            if connection.state != "running":
                if connection.name not in self._warned:
                    self._warned.add(connection.name)
                    warn(
                        f"MCP server {connection.name!r} ({connection.config.describe()}) is not available: "
                        f"{connection.error or connection.state}; continuing without its tools"
                    )
                continue
            tools += [MCPTool(connection, tool) for tool in connection.tools]
        readable = [connection for connection in wanted if connection.offers_resources]
        if readable:  # one tool reads every server's resources (resources.py)
            tools.append(MCPResourcesTool(readable))
        return tools

    async def read_resource(self, servers: Mapping[str, MCPServerConfig], server: str, uri: str) -> str:
        return await read_for_user(await self._running(servers, server), uri)

    async def get_prompt(
        self, servers: Mapping[str, MCPServerConfig], server: str, prompt: str, words: Sequence[str]
    ) -> MCPPromptTurn:
        return await prompt_for_user(await self._running(servers, server), prompt, words)

    async def _running(self, servers: Mapping[str, MCPServerConfig], server: str) -> ServerConnection:
        """The connection to `server` (started from `servers` if need be), once it runs."""
        if server in servers:
            self.start({server: servers[server]})
        connection = self._connections.get(server)
        if connection is None:
            known = ", ".join(sorted(set(servers) | set(self._connections))) or "none"
            raise MCPRequestFailed(f"no MCP server {server!r} (known: {known})")
        await connection.wait_ready()
        if connection.state != "running":
            raise MCPRequestFailed(f"MCP server {server!r} is not available: {connection.error or connection.state}")
        return connection

    def status(self) -> list[MCPServerStatus]:
        return [
            MCPServerStatus(
                name=name,
                state=connection.state,
                target=connection.config.describe(),
                tools=[tool.name for tool in connection.tools] if connection.state == "running" else [],
                error=connection.error,
                prompts=_prompts(connection) if connection.state == "running" else {},
            )
            for name, connection in list(self._connections.items())
        ]

    async def aclose(self) -> None:
        connections, self._connections = list(self._connections.values()), {}
        self._warned.clear()
        await asyncio.gather(*(connection.stop() for connection in connections), return_exceptions=True)


def _prompts(connection: ServerConnection) -> dict[str, str]:
    """Its prompts as the app lists them: names that make a command, descriptions on one line."""
    return {
        prompt.name: shorten(one_line(prompt.description or prompt.title or ""), 200)
        for prompt in connection.prompts[:100]
        if prompt.name and not any(c.isspace() or c == "/" for c in prompt.name) and len(prompt.name) <= 64
    }
