"""A tool of an MCP server as the model sees it: `server__tool`, with the server's own schema.

Its subject is an `MCPCall` carrying the server's annotations, so the analyzer rates it
(`readOnlyHint` LOW, `destructiveHint` HIGH, else MEDIUM), rules can name it
(`mcp = "server/tool"`), confirmations show server, tool and arguments, and read-only calls
of one response run side by side. The server's answer is text the model reads, and its images,
which the engine checks, caps and stores before a model that takes images sees them after the
text (`sdk/run/result_images.py`); audio becomes a note. A server error is an error result, and
every text is stripped of escape sequences and capped like terminal output, because a server
is as untrusted as a command.
"""

from __future__ import annotations

import json
from functools import cached_property
from typing import Any

from pydantic import ConfigDict

from openhands_tui.mcp.connection import MCPUnavailable, ServerConnection
from openhands_tui.sdk.facts.subject import MCPAnnotations, MCPCall
from openhands_tui.sdk.llm.message import ImageContent, TextContent
from openhands_tui.sdk.mcp_config import tool_name_part
from openhands_tui.sdk.run.messages import shorten
from openhands_tui.sdk.terminal_text import safe_for_terminal
from openhands_tui.sdk.tool import Action, Observation, ToolDefinition

#: Longest result the model is sent, as for a terminal command's output.
MAX_RESULT_CHARS = 30_000
#: Longest tool description sent to the model (some servers ship manuals).
MAX_DESCRIPTION_CHARS = 2_000


class MCPArguments(Action):
    """Whatever the server's schema asks for: the server validates its own arguments."""

    model_config = ConfigDict(extra="allow")


class MCPTool(ToolDefinition[MCPArguments]):
    action_type = MCPArguments

    def __init__(self, connection: ServerConnection, tool: Any) -> None:  # tool: mcp.types.Tool
        self.connection = connection
        self.server = connection.name
        self.tool = tool.name
        self.name = f"{tool_name_part(self.server)}__{tool_name_part(tool.name)}"[:64]
        text = safe_for_terminal(tool.description or tool.title or tool.name)
        self.description = f"{shorten(text, MAX_DESCRIPTION_CHARS)}\n(MCP server {self.server})"
        self.input_schema = tool.input_schema if isinstance(tool.input_schema, dict) else {}
        hints = tool.annotations
        self.hints = MCPAnnotations(
            title=getattr(hints, "title", None) or tool.title,
            read_only=getattr(hints, "read_only_hint", None),
            destructive=getattr(hints, "destructive_hint", None),
            idempotent=getattr(hints, "idempotent_hint", None),
            open_world=getattr(hints, "open_world_hint", None),
        )

    @cached_property
    def schema(self) -> dict[str, Any]:
        parameters = dict(self.input_schema) or {"type": "object", "properties": {}}
        parameters.setdefault("type", "object")
        parameters.setdefault("properties", {})
        return {
            "type": "function",
            "function": {"name": self.name, "description": self.description, "parameters": parameters},
        }

    def plan_schema(self) -> dict[str, Any] | None:
        """Offered in plan mode only if the server says the tool only reads."""
        return self.schema if self.hints.read_only is True and self.hints.destructive is not True else None

    def subject(self, action: MCPArguments) -> MCPCall:
        return MCPCall(server=self.server, tool=self.tool, arguments=_arguments(action), annotations=self.hints)

    def summarize(self, action: MCPArguments) -> str:
        arguments = json.dumps(_arguments(action), ensure_ascii=False)
        return f"{self.server}/{self.tool} {shorten(arguments, 200)}"

    async def run(self, action: MCPArguments) -> Observation:
        try:
            result = await self.connection.call(self.tool, _arguments(action))
        except (MCPUnavailable, TimeoutError) as exc:
            return Observation(text=f"{exc}. Its tools cannot be used now; continue without them.", is_error=True)
        text = shorten(safe_for_terminal(result_text(result)), MAX_RESULT_CHARS)
        images = result_images(result)
        if not text and not images:
            text = "(the tool returned nothing)"
        content: list[TextContent | ImageContent] = [TextContent(text=text)]
        if images:
            content.append(ImageContent(image_urls=images))
        return Observation(text=text, content=content, is_error=bool(result.is_error))


def _arguments(action: MCPArguments) -> dict[str, Any]:
    return dict(action.model_extra or {})


#: Images one result may hand the engine (it keeps fewer: `MAX_RESULT_IMAGES`).
MAX_IMAGES_TAKEN = 8


def result_images(result: Any) -> list[str]:
    """A CallToolResult's images as `data:` URLs, as the server declared them (the engine reads
    the real format from the bytes; a wrong or missing declaration is refused there)."""
    images: list[str] = []
    for item in result.content or []:
        if getattr(item, "type", "") == "image" and len(images) < MAX_IMAGES_TAKEN:
            mime = "".join(c for c in str(item.mime_type or "") if c.isalnum() or c in "/.+-")[:60]
            images.append(f"data:{mime};base64,{item.data}")
    return images


def result_text(result: Any) -> str:
    """A CallToolResult as text: text parts verbatim, audio and resources as a short note
    (images travel apart: `result_images`)."""
    parts: list[str] = []
    for item in result.content or []:
        kind = getattr(item, "type", "")
        if kind == "text":
            parts.append(item.text)
        elif kind == "audio":
            size = len(item.data) * 3 // 4
            parts.append(f"[{kind} ({item.mime_type}, about {size:,} bytes) returned by the tool; not shown]")
        elif kind == "resource":
            resource = item.resource
            text = getattr(resource, "text", None)
            parts.append(text if text is not None else f"[binary resource {resource.uri} ({resource.mime_type})]")
        elif kind == "resource_link":
            parts.append(f"[resource {item.uri}{': ' + item.description if item.description else ''}]")
    if not parts and result.structured_content is not None:
        parts.append(json.dumps(result.structured_content, ensure_ascii=False, indent=2))
    return "\n".join(parts)
