"""What an editor sends, checked before the ACP SDK reads it.

The SDK hands every line that parses as JSON to its dispatcher, which expects an object: a
JSON-RPC batch (an array) or a bare number was a traceback and exit 1, `null` ended the agent
silently with exit 0, and a line had no size limit (a 60 MB prompt went to the model whole,
twice). Here each line is read with a bound, and anything that is not one JSON object is
answered as JSON-RPC says (a parse error, an invalid request, with a null id) and dropped; the
SDK sees only objects. The agent goes on serving after each.
"""

from __future__ import annotations

import asyncio
import json
from typing import Any

#: The longest line (one message) read from an editor: room for a prompt with a few images.
MAX_MESSAGE_BYTES = 32 * 1024 * 1024

PARSE_ERROR = -32700
INVALID_REQUEST = -32600


def guarded(
    raw: asyncio.StreamReader, writer: asyncio.StreamWriter, limit: int = MAX_MESSAGE_BYTES
) -> asyncio.StreamReader:
    """A reader that yields only the lines of `raw` that are single JSON objects within `limit`
    bytes; the rest are answered on `writer`. It is fed by a task that lives as long as `raw`."""
    checked = asyncio.StreamReader(limit=limit + 1)
    task = asyncio.get_running_loop().create_task(_pump(raw, checked, writer, limit), name="acp input guard")
    checked._guard_task = task  # type: ignore[attr-defined]  # kept alive with the reader
    return checked


async def _pump(
    raw: asyncio.StreamReader, checked: asyncio.StreamReader, writer: asyncio.StreamWriter, limit: int
) -> None:
    try:
        while True:
            line, too_long = await _read_line(raw, limit)
            if too_long:
                _answer(writer, INVALID_REQUEST, f"message over the {limit:,}-byte limit; it was not read")
                continue
            if not line:
                break
            if not line.strip():
                continue
            problem = _problem(line)
            if problem is None:
                checked.feed_data(line if line.endswith(b"\n") else line + b"\n")
            else:
                _answer(writer, *problem)
    finally:
        checked.feed_eof()


_JSON_TYPES = {int: "a number", float: "a number", str: "a string", bool: "true or false", type(None): "null"}


def _problem(line: bytes) -> tuple[int, str] | None:
    """None for one JSON object (passed on), else the error to answer."""
    try:
        message: Any = json.loads(line)
    except (ValueError, RecursionError):
        return PARSE_ERROR, "parse error: not JSON"
    if isinstance(message, list):
        return INVALID_REQUEST, "invalid request: batches are not supported; send one message per line"
    if not isinstance(message, dict):
        return INVALID_REQUEST, f"invalid request: expected a JSON object, got {_JSON_TYPES[type(message)]}"
    return None


async def _read_line(reader: asyncio.StreamReader, limit: int) -> tuple[bytes, bool]:
    """The next line (b"" at the end), or (b"", True) for one over `limit`, read to its end
    and dropped without holding more than `limit` bytes of it."""
    size = 0
    parts: list[bytes] = []
    while True:
        try:
            chunk = await reader.readuntil(b"\n")
        except asyncio.IncompleteReadError as exc:
            chunk = exc.partial
            if size + len(chunk) > limit:
                return b"", True
            return b"".join([*parts, chunk]), False
        except asyncio.LimitOverrunError as exc:
            chunk = await reader.readexactly(exc.consumed)
            size += len(chunk)
            if size <= limit:
                parts.append(chunk)
            else:
                parts.clear()
            continue
        size += len(chunk)
        if size > limit:
            return b"", True
        return b"".join([*parts, chunk]), False


def _answer(writer: asyncio.StreamWriter, code: int, message: str) -> None:
    error = {"jsonrpc": "2.0", "id": None, "error": {"code": code, "message": message}}
    writer.write(json.dumps(error).encode() + b"\n")
