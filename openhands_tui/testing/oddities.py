"""What odd providers and proxies send, for chaos tests: an HTML error page from a gateway, a
200 whose body is an error, a stream with comments, pings and garbage among its events, a
stream that stops without its `[DONE]`, a stream cut into pieces of a few bytes — in the
middle of UTF-8 characters — as a slow proxy delivers it, and a stream that never reports its
usage although it was asked to (`stream_options.include_usage`), as many local servers do.

Each is a `Turn.fault`; the OpenAI-compatible server answers with the turn's own content where
the oddity carries one (`frames` are the turn's SSE frames, `[DONE]` last).
"""

from __future__ import annotations

import json
from typing import Any, Literal

from openhands_tui.testing.http import Handler

Oddity = Literal["html_502", "error_200", "sse_noise", "sse_garbage", "no_done", "byte_split", "no_usage"]
ODDITIES: tuple[str, ...] = ("html_502", "error_200", "sse_noise", "sse_garbage", "no_done", "byte_split", "no_usage")

BAD_GATEWAY_PAGE = (
    b"<html>\r\n<head><title>502 Bad Gateway</title></head>\r\n<body>\r\n"
    b"<center><h1>502 Bad Gateway</h1></center>\r\n<hr><center>nginx</center>\r\n</body>\r\n</html>\r\n"
)


def answer_oddly(handler: Handler, oddity: str, frames: list[bytes]) -> None:
    """Answer one request the odd way `oddity` names."""
    if oddity == "html_502":
        handler.send_bytes(502, BAD_GATEWAY_PAGE, "text/html")
    elif oddity == "error_200":
        error = {"error": {"message": "upstream overloaded, try again", "type": "server_error", "code": 503}}
        handler.send_json(200, error)
    elif oddity == "sse_noise":  # all legal: comments, named events, blank data, retry hints
        noise = [b": keep-alive\n\n", b"event: ping\ndata: {}\n\n", b"retry: 3000\n\n"]
        handler.start_events()
        handler.send_events([*noise, *(f for frame in frames for f in (frame, b": keep-alive\n\n"))])
    elif oddity == "sse_garbage":  # not legal: a data line that is not JSON in the middle
        handler.start_events()
        middle = len(frames) // 2
        handler.send_events([*frames[:middle], b'data: {"choices": [{"delta\n\n', *frames[middle:]])
    elif oddity == "no_usage":
        handler.start_events()
        handler.send_events([f for f in frames if not _reports_usage(f)])
    elif oddity == "no_done":
        handler.start_events()
        handler.send_events(frames[:-1])
    else:  # byte_split: the same frames, a few bytes per HTTP chunk
        whole = b"".join(frames)
        handler.start_events()
        handler.send_events([whole[start : start + 3] for start in range(0, len(whole), 3)])


def _reports_usage(frame: bytes) -> bool:
    data = frame.removeprefix(b"data: ").strip()
    return data != b"[DONE]" and "usage" in json.loads(data)


def frame(chunk: dict[str, Any]) -> bytes:
    """One SSE frame, non-ASCII text as raw UTF-8 (as most providers send it)."""
    return b"data: " + json.dumps(chunk, ensure_ascii=False).encode() + b"\n\n"
