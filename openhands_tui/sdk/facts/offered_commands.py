"""The `/name` commands a session answers to beyond a front end's own, in one list every front
end offers (the app's `/` menu, an editor's available commands over ACP): each microagent's
commands in the order they were loaded — tasks (`.claude/commands/review.md`), Agent Skills
(`/name`), slash triggers (`/codereview`) — then each MCP server's prompts (`/server:prompt`).

Built from what the events say (`MicroagentsLoadedEvent`'s dicts, `MCPServersEvent`'s
servers), so a front end needs nothing but the event stream. The first of a name wins; a name a
front end already takes (its `taken`) is the front end's, as its own dispatch decides. The
words are a repository's or a server's: each is cut to one line, escape sequences gone.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from openhands_tui.sdk.facts.event import MCPServerStatus
from openhands_tui.sdk.terminal_text import one_line


@dataclass(frozen=True)
class OfferedCommand:
    """`name` without its slash, and what it does in one line."""

    name: str
    description: str


def commands_of(info: dict[str, Any]) -> list[str]:
    """A loaded microagent's `/name` commands; a session stored before they were reported gives
    its slash triggers, which were all there was."""
    if "commands" in info:
        return [str(c) for c in info["commands"] or []]
    if info.get("type") not in ("task", "knowledge"):
        return []
    return [str(t) for t in info.get("triggers") or [] if str(t).startswith("/")]


def offered_commands(
    microagents: Iterable[dict[str, Any]], servers: Iterable[MCPServerStatus], taken: Iterable[str] = ()
) -> list[OfferedCommand]:
    seen = set(taken)
    offered: list[OfferedCommand] = []
    for info in microagents:
        for command in commands_of(info):
            name = command.removeprefix("/")
            if name in seen:
                continue
            seen.add(name)
            kind = "task" if info.get("type") == "task" else "skill"
            described = one_line(str(info.get("description") or "")) or f"{kind} {one_line(str(info.get('name')))}"
            offered.append(OfferedCommand(name, described))
    for server in servers:  # `/server:prompt`: the engine runs it (sdk/run/mcp_turn.py)
        for prompt, description in server.prompts.items():
            name = one_line(f"{server.name}:{prompt}")
            if name in seen:
                continue
            seen.add(name)
            offered.append(OfferedCommand(name, one_line(description) or f"MCP prompt of {server.name}"))
    return offered
