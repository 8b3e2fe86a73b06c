"""What the user asks of a server directly: a resource attached with `@server:uri`, a prompt run
as `/server:prompt`. The hub finds the connection; this turns the server's answer into text.

A server is untrusted: its text is stripped of escape sequences and capped; binary contents
are a note; a uri goes back to the server only. A prompt's arguments are `name=value` words
or positional ones in the order the server declared; a required one missing is one line naming
it. A prompt's messages become the user's turn: text parts in order (an assistant message
marked as such), embedded resources as attachments, images and audio as a note.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from openhands_tui.mcp.connection import MCPUnavailable, ServerConnection
from openhands_tui.mcp.resources import MAX_RESOURCE_CHARS, content_text, contents_text
from openhands_tui.sdk.mcp_port import MCPPromptTurn, MCPRequestFailed
from openhands_tui.sdk.run.messages import shorten
from openhands_tui.sdk.terminal_text import safe_for_terminal

#: Longest prompt text a server may make the user's turn.
MAX_PROMPT_CHARS = 30_000


async def read_for_user(connection: ServerConnection, uri: str) -> str:
    try:
        result = await connection.read_resource(uri)
    except (MCPUnavailable, TimeoutError) as exc:
        raise MCPRequestFailed(str(exc)) from None
    return shorten(safe_for_terminal(contents_text(result)), MAX_RESOURCE_CHARS)


async def prompt_for_user(connection: ServerConnection, prompt: str, words: Sequence[str]) -> MCPPromptTurn:
    command = f"/{connection.name}:{prompt}"
    try:
        declared = {listed.name: listed for listed in await connection.list_prompts()}
    except (MCPUnavailable, TimeoutError) as exc:
        raise MCPRequestFailed(str(exc)) from None
    if prompt not in declared:
        known = ", ".join(sorted(declared)) or "none"
        raise MCPRequestFailed(f"{command}: server {connection.name!r} has no such prompt (it has: {known})")
    arguments = fill_arguments(command, declared[prompt].arguments or [], words)
    try:
        result = await connection.get_prompt(prompt, arguments)
    except (MCPUnavailable, TimeoutError) as exc:
        raise MCPRequestFailed(str(exc)) from None
    return prompt_turn(result)


def fill_arguments(command: str, declared: Sequence[Any], words: Sequence[str]) -> dict[str, str]:
    """`name=value` words by name, the others in the declared order; one line when a required
    argument is missing or a word has no place."""
    names = [argument.name for argument in declared]
    filled: dict[str, str] = {}
    positional: list[str] = []
    for word in words:
        name, equals, value = word.partition("=")
        if equals and name in names:
            filled[name] = value
        else:
            positional.append(word)
    free = [name for name in names if name not in filled]
    if len(positional) > len(free):
        raise MCPRequestFailed(f"{command}: too many arguments (it takes {', '.join(names) or 'none'})")
    filled.update(zip(free, positional, strict=False))
    missing = [argument.name for argument in declared if argument.required and argument.name not in filled]
    if missing:
        raise MCPRequestFailed(f"{command}: missing required argument(s): {', '.join(missing)}")
    return filled


def prompt_turn(result: Any) -> MCPPromptTurn:
    texts: list[str] = []
    resources: list[tuple[str, str]] = []
    for message in result.messages or []:
        content = message.content
        kind = getattr(content, "type", "")
        if kind == "text":
            text = content.text
        elif kind == "resource":
            resource = content.resource
            uri = safe_for_terminal(str(resource.uri))[:300]
            resources.append((uri, shorten(safe_for_terminal(content_text(resource)), MAX_RESOURCE_CHARS)))
            continue
        elif kind == "resource_link":
            text = f"[resource {content.uri}]"
        else:
            text = f"[{kind} from the prompt; not shown]"
        texts.append(text if message.role == "user" else f"[{message.role}] {text}")
    return MCPPromptTurn(
        text=shorten(safe_for_terminal("\n\n".join(texts)), MAX_PROMPT_CHARS), resources=tuple(resources)
    )
