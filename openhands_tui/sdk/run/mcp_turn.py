"""A user's message that asks MCP servers directly: `@server:uri` attaches a resource, and a
message starting `/server:prompt args` is that server's prompt, run and sent as the user's turn.

Both go through the session's MCP client (the engine's port, `mcp_port.py`), which starts the
named server of the session if it has not started yet. A resource mention is best effort, like
an `@file` mention: an unknown server or a failed read is a one-line note, and the message still
goes. `/server:prompt` is a prompt only when `server` is one of the agent's MCP servers (else
it is a task microagent's command, such as Gemini CLI's `/git:commit`). A prompt is what the
user asked for exactly, so one that cannot be had (unknown prompt, missing required arguments,
the server down) refuses the message in one line (exit 2).
A mention is `@name:scheme:...` (`@docs:file:///a.md`, `@library:library://books/dune`): a
server name, a colon, then a uri with a scheme, so `@user:pass` or `a@b:c` in prose is none.
"""

from __future__ import annotations

import re
import shlex
from collections.abc import Mapping
from dataclasses import dataclass, field

from openhands_tui.sdk.context.attachments import MAX_FILES, Attached
from openhands_tui.sdk.facts.attachment import AttachedFile
from openhands_tui.sdk.mcp_config import MCPServerConfig
from openhands_tui.sdk.mcp_port import MCPRequestFailed, MCPToolSource
from openhands_tui.sdk.terminal_text import safe_for_terminal

_MENTION = re.compile(r"(?<![\w.@\\/])@([A-Za-z0-9_-]+):([A-Za-z][A-Za-z0-9+.-]*:[^\s\"'`<>]+)")
_PROMPT = re.compile(r"^/([A-Za-z0-9_-]+):([^\s/]+)(?:\s+(.*))?$", re.DOTALL)
_TRAILING = ".,;:!?)]}'\""


@dataclass
class MCPTurn:
    """The text to send as the user's (a prompt's text, or the message as typed), and what the
    resources it names attach."""

    text: str
    attached: Attached = field(default_factory=Attached)


def resource_mentions(text: str) -> list[tuple[str, str]]:
    """The `@server:uri` mentions in `text`, in order, each once."""
    found: list[tuple[str, str]] = []
    for match in _MENTION.finditer(text):
        mention = (match.group(1), match.group(2).rstrip(_TRAILING))
        if mention not in found:
            found.append(mention)
    return found


def prompt_command(text: str) -> tuple[str, str, list[str]] | None:
    """(server, prompt, words) when `text` is `/server:prompt args`."""
    match = _PROMPT.match(text.strip())
    if match is None:
        return None
    rest = match.group(3) or ""
    try:
        words = shlex.split(rest)
    except ValueError:
        words = rest.split()
    return match.group(1), match.group(2), words


async def mcp_turn(text: str, source: MCPToolSource | None, servers: Mapping[str, MCPServerConfig]) -> MCPTurn:
    """What `text` asks of the MCP servers `servers` (the root agent's), done through `source`;
    `text` unchanged when it asks nothing of them."""
    command = prompt_command(text)
    if command is not None and command[0] not in servers:
        command = None  # `/git:commit`: a task microagent's command, not a server's prompt
    mentions = resource_mentions(text)
    if command is None and not mentions:
        return MCPTurn(text)
    if command is not None and source is None:
        raise MCPRequestFailed(f"/{command[0]}:{command[1]}: no MCP server {command[0]!r} in this session")
    turn = MCPTurn(text)
    if command is not None and source is not None:
        server, prompt, words = command
        prompt_turn = await source.get_prompt(servers, server, prompt, words)
        turn.text = prompt_turn.text or f"/{server}:{prompt}"
        for uri, body in prompt_turn.resources:
            _add(turn.attached, server, uri, body)
    for server, uri in mentions:
        shown = safe_for_terminal(f"@{server}:{uri}")[:300]
        if len(turn.attached.files) >= MAX_FILES:
            turn.attached.notes.append(f"{shown} was not attached: at most {MAX_FILES} files go with one message")
            continue
        if source is None:
            turn.attached.notes.append(f"{shown} was not attached: no MCP client in this session")
            continue
        try:
            body = await source.read_resource(servers, server, uri)
        except MCPRequestFailed as exc:
            turn.attached.notes.append(f"{shown} was not attached: {exc}")
            continue
        _add(turn.attached, server, uri, body)
    return turn


def _add(attached: Attached, server: str, uri: str, body: str) -> None:
    name = safe_for_terminal(f"{server}:{uri}")[:300].replace('"', "%22")
    attached.context.append(f'<RESOURCE name="{name}">\n{body}\n</RESOURCE>')
    attached.files.append(AttachedFile(path=name, size=len(body.encode())))
