"""The one bound on text that enters a session from outside, whatever the door.

A task on the command line, a prompt from an editor (ACP) or an MCP client, a tool call's
arguments from the model: each was bounded differently or not at all (a 60 MB ACP prompt went
to the model whole, twice; a 2.4 MB tool call was written to the log seven times before it
was refused). About 250,000 tokens, more than any model's context window: nothing legitimate
is larger, and anything larger is refused at the door with a line that says so.
"""

from __future__ import annotations

MAX_INPUT_BYTES = 1_000_000


def over_the_limit(text: str) -> bool:
    """Whether `text` is more than MAX_INPUT_BYTES of UTF-8 (counted without building it
    when the characters alone settle it)."""
    if len(text) > MAX_INPUT_BYTES:
        return True
    if len(text) * 4 <= MAX_INPUT_BYTES:
        return False
    return len(text.encode("utf-8", "surrogatepass")) > MAX_INPUT_BYTES
