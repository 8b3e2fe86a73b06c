"""What every scripted model server shares: a threaded HTTP server on 127.0.0.1, the scripts,
the record of requests, and the ways to answer (JSON, or server-sent events sent chunked).

Each API (OpenAI-compatible chat completions, Anthropic Messages) is a subclass that says how
to answer one POST; tests pick one by class and point litellm at its `base_url`.
"""

from __future__ import annotations

import contextlib
import functools
import json
import re
import socket
import sys
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any, Self

from pydantic import BaseModel

from openhands_tui.testing.script import Script, ScriptBook

#: How often the serving thread looks for `stop` (seconds): at most this long to stop.
STOP_POLL = 0.05


class RecordedRequest(BaseModel):
    script: str | None
    body: dict[str, Any]
    #: When the request arrived (time.monotonic()), for benchmarks that time steps from outside.
    received: float = 0.0
    #: What the server reported as usage (the Anthropic server fills it in, cache figures included).
    usage: dict[str, int] = {}
    #: The HTTP status the request was answered with.
    status: int = 200

    @property
    def messages(self) -> list[dict[str, Any]]:
        return list(self.body.get("messages", []))


class _Server(ThreadingHTTPServer):
    daemon_threads = True
    allow_reuse_address = True

    def handle_error(self, request: Any, client_address: Any) -> None:
        if isinstance(sys.exc_info()[1], ConnectionError):
            return  # a client closing a kept-alive connection is normal
        super().handle_error(request, client_address)


class ScriptedServer:
    """Start with `with Server(scripts) as server:`; point litellm at `server.base_url` and use
    `server.model` as the model name."""

    #: The litellm model name that reaches this server's API.
    model = ""

    def __init__(
        self, scripts: list[Script], *, record: bool = True, port: int = 0, context_window: int | None = None
    ) -> None:
        self.book = ScriptBook(scripts)
        self.record = record
        #: Like a real provider: a request over this many prompt tokens is refused (400).
        self.context_window = context_window
        #: The largest request seen, in prompt tokens (the same count the usage reports).
        self.max_prompt_tokens = 0
        self.overflows = 0
        self.requests: list[RecordedRequest] = []
        #: Requests being answered right now, and the most there ever were at once.
        self.in_flight = 0
        self.max_in_flight = 0
        #: TCP connections clients opened (a client that reuses its connection opens one).
        self.connections = 0
        self._lock = threading.Lock()
        self.bodies = RequestBodies()
        self._httpd = _Server(("127.0.0.1", port), _handler_for(self))
        self._thread: threading.Thread | None = None

    @property
    def port(self) -> int:
        return int(self._httpd.server_address[1])

    @property
    def base_url(self) -> str:
        return f"http://127.0.0.1:{self.port}/v1"

    def start(self) -> Self:
        # `stop` waits for the loop to see the request: with socketserver's default poll of
        # 0.5 s that was 0.25 s on average at the end of every test with a server (~500 of them)
        serve = functools.partial(self._httpd.serve_forever, poll_interval=STOP_POLL)
        self._thread = threading.Thread(target=serve, name="scripted-llm", daemon=True)
        self._thread.start()
        return self

    def serve_forever(self) -> None:
        with contextlib.suppress(KeyboardInterrupt):
            self._httpd.serve_forever()

    def stop(self) -> None:
        self._httpd.shutdown()
        self._httpd.server_close()

    def __enter__(self) -> Self:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.stop()

    def requests_for(self, script_name: str) -> list[RecordedRequest]:
        with self._lock:
            return [r for r in self.requests if r.script == script_name]

    def respond(self, handler: Handler, body: dict[str, Any], request_bytes: int) -> None:
        """Answer one POST whose JSON body is `body`."""
        raise NotImplementedError

    def do_get(self, handler: Handler) -> None:
        handler.send_json(404, {"error": {"message": "not found"}})

    def _enter(self) -> None:
        with self._lock:
            self.in_flight += 1
            self.max_in_flight = max(self.max_in_flight, self.in_flight)

    def _leave(self) -> None:
        with self._lock:
            self.in_flight -= 1

    def _measure(self, prompt_tokens: int) -> bool:
        """Note a request's size; False (and counted) if it overflows the context window."""
        with self._lock:
            self.max_prompt_tokens = max(self.max_prompt_tokens, prompt_tokens)
            if self.context_window is not None and prompt_tokens > self.context_window:
                self.overflows += 1
                return False
        return True

    def _remember(self, script: Script | None, body: dict[str, Any], **fields: Any) -> RecordedRequest:
        name = script.name if script else None
        recorded = RecordedRequest(script=name, body=body, received=time.monotonic(), **fields)
        if self.record:
            with self._lock:
                self.requests.append(recorded)
        return recorded


class RequestBodies:
    """`json.loads` for request bodies that parses a body's `messages` only past the part an
    earlier body began with (thread-safe).

    A client re-sends its whole history with every request, so parsing each body whole made
    every request cost this fixture more the longer the conversation (~12 ms at 4,000 messages),
    in the time a benchmark takes to be the client's. The fixture answers from the first
    messages only; what it parses is what `json.loads` would give, element for element (the
    elements it already had are shared between the bodies, which nothing here changes). Any
    body it cannot follow (not an object, an odd `messages`, broken JSON) is `json.loads`'s.
    A real server parses every request whole; this one reads every byte and compares the
    known part before it parses the rest.
    """

    #: How many histories (agents, say) to remember the messages of.
    KEPT = 8

    def __init__(self) -> None:
        self._lock = threading.Lock()
        #: (the messages array's text from its "[" to the end of its last element, the elements)
        self._known: list[tuple[str, list[Any]]] = []
        self._decoder = json.JSONDecoder()

    def decode(self, raw: bytes) -> Any:
        try:
            text = raw.decode("utf-8")
            body = self._object(text)
        except (UnicodeDecodeError, ValueError, IndexError):
            body = None
        return body if body is not None else json.loads(raw)

    def _object(self, text: str) -> dict[str, Any] | None:
        """The top-level object in `text` (None: not one this parser follows)."""
        position = _space(text, 0)
        if text[position] != "{":
            return None
        body: dict[str, Any] = {}
        position = _space(text, position + 1)
        if text[position] == "}":
            return body if _space(text, position + 1) == len(text) else None
        while True:
            if text[position] != '"':
                return None
            key, position = self._decoder.raw_decode(text, position)
            position = _space(text, position)
            if text[position] != ":":
                return None
            position = _space(text, position + 1)
            if key == "messages" and text[position] == "[":
                parsed = self._messages(text, position)
                if parsed is None:
                    return None
                body[key], position = parsed
            else:
                body[key], position = self._decoder.raw_decode(text, position)
            position = _space(text, position)
            if text[position] == "}":
                return body if _space(text, position + 1) == len(text) else None
            if text[position] != ",":
                return None
            position = _space(text, position + 1)

    def _messages(self, text: str, start: int) -> tuple[list[Any], int] | None:
        """The array at `text[start]` and where it ends, from a known beginning if it has one."""
        with self._lock:
            matching = [entry for entry in self._known if text.startswith(entry[0], start)]
        known = max(matching, key=lambda entry: len(entry[0]), default=None)
        if known is not None:
            items, position = list(known[1]), start + len(known[0])
        else:
            items, position = [], _space(text, start + 1)
            if text[position] == "]":
                return items, position + 1
            item, position = self._decoder.raw_decode(text, position)
            items.append(item)
        while True:  # just after an element
            end_of_items = position
            position = _space(text, position)
            if text[position] == "]":
                break
            if text[position] != ",":
                return None
            item, position = self._decoder.raw_decode(text, _space(text, position + 1))
            items.append(item)
        with self._lock:
            others = [entry for entry in self._known if entry is not known]
            self._known = [(text[start:end_of_items], items[:]), *others[: self.KEPT - 1]]
        return items, position + 1


_SPACE = re.compile(r"[ \t\n\r]*")


def _space(text: str, position: int) -> int:
    """Where the JSON whitespace at `position` ends."""
    match = _SPACE.match(text, position)
    return match.end() if match is not None else position


class Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"
    disable_nagle_algorithm = True
    server_app: ScriptedServer

    def log_message(self, format: str, *args: Any) -> None:
        pass

    def setup(self) -> None:
        super().setup()  # once per connection, however many requests it carries
        with self.server_app._lock:
            self.server_app.connections += 1

    def do_GET(self) -> None:
        self.server_app.do_get(self)

    def do_POST(self) -> None:
        self.server_app._enter()
        try:
            self._answer()
        finally:
            self.server_app._leave()

    def _answer(self) -> None:
        # Acknowledge at once: a client whose last body segment waits on our delayed ACK
        # (Nagle on its side) would otherwise stall ~40 ms on large requests.
        with contextlib.suppress(OSError):
            self.connection.setsockopt(socket.IPPROTO_TCP, socket.TCP_QUICKACK, 1)
        length = int(self.headers.get("Content-Length") or 0)
        try:
            body = self.server_app.bodies.decode(self.rfile.read(length) or b"{}")
        except json.JSONDecodeError:
            self.send_json(400, {"error": {"message": "request body is not JSON", "type": "invalid_request_error"}})
            return
        self.server_app.respond(self, body, length)

    def send_json(self, status: int, payload: Any, headers: dict[str, str] | None = None) -> None:
        self.send_bytes(status, json.dumps(payload).encode(), "application/json", headers)

    def send_bytes(self, status: int, data: bytes, content_type: str, headers: dict[str, str] | None = None) -> None:
        self.send_response(status)
        self.send_header("Content-Type", content_type)
        self.send_header("Content-Length", str(len(data)))
        for key, value in (headers or {}).items():
            self.send_header(key, value)
        self.end_headers()
        self.wfile.write(data)
        self.wfile.flush()

    def start_events(self) -> None:
        """Send the headers of a 200 server-sent-events answer (the client sees it accepted)."""
        self.send_response(200)
        self.send_header("Content-Type", "text/event-stream")
        self.send_header("Cache-Control", "no-cache")
        self.send_header("Transfer-Encoding", "chunked")
        self.end_headers()
        self.wfile.flush()

    def send_events(self, frames: list[bytes], chunk_delay: float = 0.0) -> None:
        """Send SSE frames as HTTP chunks, then the last chunk. Without a delay they go in one
        write: no Nagle/delayed-ACK stalls."""
        encoded = [b"%x\r\n%s\r\n" % (len(frame), frame) for frame in frames] + [b"0\r\n\r\n"]
        if chunk_delay:
            for piece in encoded:
                self.wfile.write(piece)
                self.wfile.flush()
                time.sleep(chunk_delay)
        else:
            self.wfile.write(b"".join(encoded))
        self.wfile.flush()


def _handler_for(server: ScriptedServer) -> type[Handler]:
    return type("BoundHandler", (Handler,), {"server_app": server})
