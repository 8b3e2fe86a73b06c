"""The MCP servers an editor hands us in `session/new` and `session/load`, as our settings.

ACP gives each server as `{name, command, args, env: [{name, value}]}` (stdio) or
`{type: "http" | "sse", name, url, headers: [{name, value}]}`. The editor chose them, so
they start like the user's own servers (no project trust is asked); one that cannot be used
(an "acp" transport we do not speak, a missing field) is a line in the session's log and a
message to the editor, and the others still start.
"""

from __future__ import annotations

from typing import Any

from openhands_tui.sdk.mcp_config import MCPServerConfig, parse_servers


def client_servers(raw: Any) -> tuple[dict[str, MCPServerConfig], list[str]]:
    entries: dict[str, Any] = {}
    problems: list[str] = []
    for index, server in enumerate(raw or []):
        data = server.model_dump(by_alias=False) if hasattr(server, "model_dump") else dict(server)
        name = str(data.get("name") or f"server {index + 1}")
        kind = data.get("type")
        if data.get("command"):
            entries[name] = {"command": data["command"], "args": list(data.get("args") or [])} | {
                "env": _pairs(data.get("env"))
            }
        elif data.get("url") and kind in (None, "http", "sse"):
            entries[name] = {"url": data["url"], "type": kind or "http", "headers": _pairs(data.get("headers"))}
        else:
            problems.append(f"MCP server {name!r} from the editor: transport {kind!r} is not supported here")
    servers, invalid = parse_servers({"mcpServers": entries}, "the editor's MCP servers")
    return servers, problems + invalid


def _pairs(items: Any) -> dict[str, str]:
    pairs: dict[str, str] = {}
    for item in items or []:
        data = item.model_dump() if hasattr(item, "model_dump") else dict(item)
        pairs[str(data["name"])] = str(data["value"])
    return pairs
