"""MCP resources as one tool the model reads them with: `mcp_resources` (list, or read one).

A session's servers may offer resources (files, records, pages) beside their tools. Rather than
one tool per server, the model gets a single tool that lists every running server's resources
and templates, and reads one by server and uri. Its subject is an `MCPCall` whose annotations
say it only reads, so the analyzer rates it LOW the way it rates any read-only MCP tool, without
knowing this tool by name; rules can still name it (`mcp = "server/resources/read"`).

What a server returns is untrusted: text is stripped of escape sequences and capped like a
command's output, binary contents become a note with their type and size, and names, uris and
descriptions in the listing are stripped and cut short. A uri is only ever passed back to the
server that listed it; nothing here opens a local file from it.
"""

from __future__ import annotations

from typing import Any, Literal

from pydantic import Field

from openhands_tui.mcp.connection import MCPUnavailable, ServerConnection
from openhands_tui.sdk.facts.subject import MCPAnnotations, MCPCall
from openhands_tui.sdk.run.messages import shorten
from openhands_tui.sdk.terminal_text import safe_for_terminal
from openhands_tui.sdk.tool import Action, Observation, ToolDefinition

#: Longest resource text the model is sent, as for a tool's result.
MAX_RESOURCE_CHARS = 30_000
#: Most entries listed per server (a server may list thousands).
MAX_LISTED = 200
#: Longest name, uri or description shown in the listing.
MAX_FIELD_CHARS = 300

_READ_ONLY = MCPAnnotations(title="MCP resources", read_only=True, destructive=False, idempotent=True)


class ResourceAction(Action):
    operation: Literal["list", "read"] = Field(description="list the servers' resources, or read one")
    server: str = Field(default="", description="for read: the server that listed the resource")
    uri: str = Field(default="", description="for read: the resource's uri (or a template filled in)")


class MCPResourcesTool(ToolDefinition[ResourceAction]):
    """Lists and reads the resources of a session's running MCP servers."""

    name = "mcp_resources"
    action_type = ResourceAction

    def __init__(self, connections: list[ServerConnection]) -> None:
        self.connections = {connection.name: connection for connection in connections}
        names = ", ".join(sorted(self.connections))
        self.description = (
            "Read resources offered by MCP servers (" + names + "). operation=list shows every "
            "server's resources and uri templates; operation=read with server and uri returns one."
        )

    @property
    def schema(self) -> dict[str, Any]:
        return {
            "type": "function",
            "function": {
                "name": self.name,
                "description": self.description,
                "parameters": {
                    "type": "object",
                    "properties": {
                        "operation": {"type": "string", "enum": ["list", "read"]},
                        "server": {"type": "string", "description": "for read: the server's name"},
                        "uri": {"type": "string", "description": "for read: the resource's uri"},
                    },
                    "required": ["operation"],
                },
            },
        }

    def plan_schema(self) -> dict[str, Any] | None:
        return self.schema  # it only reads

    def subject(self, action: ResourceAction) -> MCPCall:
        tool = "resources/read" if action.operation == "read" else "resources/list"
        arguments = {"uri": action.uri} if action.operation == "read" else {}
        return MCPCall(server=action.server or "*", tool=tool, arguments=arguments, annotations=_READ_ONLY)

    def summarize(self, action: ResourceAction) -> str:
        if action.operation == "read":
            return f"read {action.server}:{shorten(action.uri, 200)}"
        return "list MCP resources"

    async def run(self, action: ResourceAction) -> Observation:
        if action.operation == "list":
            return Observation(text=await self._listing())
        connection = self.connections.get(action.server)
        if connection is None:
            known = ", ".join(sorted(self.connections)) or "none"
            return Observation(
                text=f"No MCP server {action.server!r} offers resources (known: {known}).", is_error=True
            )
        try:
            result = await connection.read_resource(action.uri)
        except (MCPUnavailable, TimeoutError) as exc:
            return Observation(text=str(exc), is_error=True)
        text = shorten(safe_for_terminal(contents_text(result)), MAX_RESOURCE_CHARS)
        return Observation(text=text or "(the resource is empty)")

    async def _listing(self) -> str:
        lines: list[str] = []
        for name, connection in sorted(self.connections.items()):
            try:
                resources, templates = await connection.list_resources()
            except (MCPUnavailable, TimeoutError) as exc:
                lines.append(f"{name}: cannot list ({exc})")
                continue
            lines.append(f"server {name}:")
            for resource in resources[:MAX_LISTED]:
                lines.append("  " + _entry(resource.uri, resource.name, resource.description, resource.mime_type))
            for template in templates[:MAX_LISTED]:
                lines.append(
                    "  template "
                    + _entry(template.uri_template, template.name, template.description, template.mime_type)
                )
            if not resources and not templates:
                lines.append("  (no resources)")
        return safe_for_terminal("\n".join(lines)) or "(no MCP server offers resources)"


def _entry(uri: Any, name: Any, description: Any, mime: Any) -> str:
    parts = [_cut(uri)]
    if name:
        parts.append(f"({_cut(name)})")
    if mime:
        parts.append(f"[{_cut(mime)}]")
    if description:
        parts.append("- " + _cut(description))
    return " ".join(parts)


def _cut(value: Any) -> str:
    return shorten(" ".join(safe_for_terminal(str(value)).split()), MAX_FIELD_CHARS)


def contents_text(result: Any) -> str:
    """A ReadResourceResult as text: text contents verbatim, binary ones as a note."""
    return "\n".join(content_text(item) for item in getattr(result, "contents", None) or [])


def content_text(item: Any) -> str:
    """One resource's contents: its text, or a note with its type and size when binary."""
    text = getattr(item, "text", None)
    if text is not None:
        return str(text)
    size = len(getattr(item, "blob", "") or "") * 3 // 4
    mime = getattr(item, "mime_type", None) or "unknown type"
    return f"[binary resource {_cut(item.uri)} ({_cut(mime)}, about {size:,} bytes); not shown]"
