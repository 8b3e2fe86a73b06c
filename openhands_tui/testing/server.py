"""A scripted OpenAI-compatible chat server on 127.0.0.1, for tests, demos and benchmarks.

Real HTTP: `POST /v1/chat/completions` answers as JSON or as server-sent events with
tool-call argument deltas and usage in the last chunk, exactly as OpenAI-compatible
providers do, so the real litellm client is exercised end to end. Faults (429 with
Retry-After, 500, 401, context-window overflow, hangs, garbage) are scripted per turn.

Run standalone: `python -m openhands_tui.testing --script s.json --port-file p.txt`.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import secrets
import socket
import sys
import threading
import time
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

from pydantic import BaseModel

from openhands_tui.testing.script import Script, ScriptBook, Turn, load_scripts

MODEL_NAME = "scripted"


class RecordedRequest(BaseModel):
    script: str | None
    body: dict[str, Any]
    #: When the request arrived (time.monotonic()), for benchmarks that time steps from outside.
    received: float = 0.0

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


class ScriptedLLMServer:
    """Start with `with ScriptedLLMServer(scripts) as server:`; point litellm at `server.base_url`."""

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
        self._lock = threading.Lock()
        self._httpd = _Server(("127.0.0.1", port), _handler_for(self))
        self._thread: threading.Thread | None = None

    @property
    def port(self) -> int:
        return int(self._httpd.server_address[1])

    @property
    def base_url(self) -> str:
        return f"http://127.0.0.1:{self.port}/v1"

    def start(self) -> ScriptedLLMServer:
        self._thread = threading.Thread(target=self._httpd.serve_forever, name="scripted-llm", daemon=True)
        self._thread.start()
        return self

    def stop(self) -> None:
        self._httpd.shutdown()
        self._httpd.server_close()

    def __enter__(self) -> ScriptedLLMServer:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.stop()

    def requests_for(self, script_name: str) -> list[RecordedRequest]:
        with self._lock:
            return [r for r in self.requests if r.script == script_name]

    def _enter(self) -> None:
        with self._lock:
            self.in_flight += 1
            self.max_in_flight = max(self.max_in_flight, self.in_flight)

    def _leave(self) -> None:
        with self._lock:
            self.in_flight -= 1

    def _remember(self, script: Script | None, body: dict[str, Any]) -> None:
        if self.record:
            with self._lock:
                self.requests.append(
                    RecordedRequest(script=script.name if script else None, body=body, received=time.monotonic())
                )


def _handler_for(server: ScriptedLLMServer) -> type[BaseHTTPRequestHandler]:
    class Handler(BaseHTTPRequestHandler):
        protocol_version = "HTTP/1.1"
        disable_nagle_algorithm = True

        def log_message(self, format: str, *args: Any) -> None:
            pass

        def do_GET(self) -> None:
            if self.path.rstrip("/").endswith("/models"):
                self._json(200, {"object": "list", "data": [{"id": MODEL_NAME, "object": "model"}]})
            else:
                self._json(404, _error("not found", "not_found"))

        def do_POST(self) -> None:
            server._enter()
            try:
                self._answer()
            finally:
                server._leave()

        def _answer(self) -> None:
            # Acknowledge at once: a client whose last body segment waits on our delayed ACK
            # (Nagle on its side) would otherwise stall ~40 ms on large requests.
            with contextlib.suppress(OSError):
                self.connection.setsockopt(socket.IPPROTO_TCP, socket.TCP_QUICKACK, 1)
            length = int(self.headers.get("Content-Length") or 0)
            try:
                body = json.loads(self.rfile.read(length) or b"{}")
            except json.JSONDecodeError:
                self._json(400, _error("request body is not JSON", "invalid_request_error"))
                return
            if not self.path.rstrip("/").endswith("/chat/completions"):
                self._json(404, _error(f"no route {self.path}", "not_found"))
                return
            prompt_tokens = _prompt_tokens(length)
            with server._lock:
                server.max_prompt_tokens = max(server.max_prompt_tokens, prompt_tokens)
            if server.context_window is not None and prompt_tokens > server.context_window:
                with server._lock:
                    server.overflows += 1
                self._json(
                    400, _error(_overflow_message(server.context_window, prompt_tokens), "context_length_exceeded")
                )
                return
            script, turn = server.book.next_turn(body.get("messages", []))
            server._remember(script, body)
            if turn is None:
                name = script.name if script else "none matched"
                turn = Turn(text=f"(scripted model: no turns left for script {name!r})")
            if turn.delay:
                time.sleep(turn.delay)
            if turn.fault is not None:
                self._fault(turn)
            elif body.get("stream"):
                self._stream(turn, body, length)
            else:
                self._json(200, _completion(turn, body, length))

        def _fault(self, turn: Turn) -> None:
            if turn.fault == "hang":
                time.sleep(3600)
            elif turn.fault == "429":
                headers = {"Retry-After": f"{turn.retry_after if turn.retry_after is not None else 0:g}"}
                self._json(429, _error("Rate limit reached for requests", "rate_limit_exceeded"), headers)
            elif turn.fault == "500":
                self._json(500, _error("The server had an error while processing your request", "server_error"))
            elif turn.fault == "401":
                self._json(401, _error("Incorrect API key provided", "invalid_api_key"))
            elif turn.fault == "context_window":
                self._json(400, _error(_overflow_message(8192, 9000), "context_length_exceeded"))
            else:  # garbage
                self._send(200, b"<html>definitely not JSON</html>", "text/html")

        def _stream(self, turn: Turn, body: dict[str, Any], request_bytes: int) -> None:
            self.send_response(200)
            self.send_header("Content-Type", "text/event-stream")
            self.send_header("Cache-Control", "no-cache")
            self.send_header("Transfer-Encoding", "chunked")
            self.end_headers()
            include_usage = bool((body.get("stream_options") or {}).get("include_usage"))
            frames = [
                b"data: " + json.dumps(chunk).encode() + b"\n\n"
                for chunk in _chunks(turn, body, include_usage, request_bytes)
            ] + [b"data: [DONE]\n\n"]
            encoded = [b"%x\r\n%s\r\n" % (len(frame), frame) for frame in frames] + [b"0\r\n\r\n"]
            if turn.chunk_delay:
                for piece in encoded:
                    self.wfile.write(piece)
                    self.wfile.flush()
                    time.sleep(turn.chunk_delay)
            else:
                self.wfile.write(b"".join(encoded))  # one write: no Nagle/delayed-ACK stalls
            self.wfile.flush()

        def _json(self, status: int, payload: Any, headers: dict[str, str] | None = None) -> None:
            self._send(status, json.dumps(payload).encode(), "application/json", headers)

        def _send(self, status: int, data: bytes, content_type: str, headers: dict[str, str] | None = None) -> None:
            self.send_response(status)
            self.send_header("Content-Type", content_type)
            self.send_header("Content-Length", str(len(data)))
            for key, value in (headers or {}).items():
                self.send_header(key, value)
            self.end_headers()
            self.wfile.write(data)
            self.wfile.flush()

    return Handler


def _error(message: str, code: str) -> dict[str, Any]:
    kind = "invalid_request_error" if code in ("context_length_exceeded", "invalid_request_error") else code
    return {"error": {"message": message, "type": kind, "code": code, "param": None}}


def _overflow_message(window: int, tokens: int) -> str:
    return (
        f"This model's maximum context length is {window} tokens. However, your messages resulted in "
        f"{tokens} tokens. Please reduce the length of the messages."
    )


def _prompt_tokens(request_bytes: int) -> int:
    return max(1, request_bytes // 4)  # about 4 bytes a token, like real tokenizers


def _usage(turn: Turn, request_bytes: int) -> dict[str, int]:
    prompt = _prompt_tokens(request_bytes)
    output = sum(len(c.arguments_text()) + len(c.name) for c in turn.tool_calls) + len(turn.text)
    completion = max(1, output // 4)
    return {"prompt_tokens": prompt, "completion_tokens": completion, "total_tokens": prompt + completion}


def _call_ids(turn: Turn) -> list[str]:
    return [call.id or f"call_{secrets.token_hex(6)}" for call in turn.tool_calls]


def _completion(turn: Turn, body: dict[str, Any], request_bytes: int) -> dict[str, Any]:
    message: dict[str, Any] = {"role": "assistant", "content": turn.text or None}
    if turn.tool_calls:
        message["tool_calls"] = [
            {"id": call_id, "type": "function", "function": {"name": c.name, "arguments": c.arguments_text()}}
            for call_id, c in zip(_call_ids(turn), turn.tool_calls, strict=True)
        ]
    return {
        "id": f"chatcmpl-{secrets.token_hex(6)}",
        "object": "chat.completion",
        "created": int(time.time()),
        "model": body.get("model", MODEL_NAME),
        "choices": [{"index": 0, "message": message, "finish_reason": "tool_calls" if turn.tool_calls else "stop"}],
        "usage": _usage(turn, request_bytes),
    }


def _pieces(text: str, size: int) -> Iterator[str]:
    for start in range(0, len(text), size):
        yield text[start : start + size]


def _chunks(turn: Turn, body: dict[str, Any], include_usage: bool, request_bytes: int) -> Iterator[dict[str, Any]]:
    base = {
        "id": f"chatcmpl-{secrets.token_hex(6)}",
        "object": "chat.completion.chunk",
        "created": int(time.time()),
        "model": body.get("model", MODEL_NAME),
    }

    def chunk(delta: dict[str, Any], finish: str | None = None) -> dict[str, Any]:
        return {**base, "choices": [{"index": 0, "delta": delta, "finish_reason": finish}]}

    yield chunk({"role": "assistant", "content": ""})
    for piece in _pieces(turn.text, 12):
        yield chunk({"content": piece})
    for index, (call_id, call) in enumerate(zip(_call_ids(turn), turn.tool_calls, strict=True)):
        opening = {
            "index": index,
            "id": call_id,
            "type": "function",
            "function": {"name": call.name, "arguments": ""},
        }
        yield chunk({"tool_calls": [opening]})
        for piece in _pieces(call.arguments_text(), 24):
            yield chunk({"tool_calls": [{"index": index, "function": {"arguments": piece}}]})
    yield chunk({}, "tool_calls" if turn.tool_calls else "stop")
    if include_usage:
        yield {**base, "choices": [], "usage": _usage(turn, request_bytes)}


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description="Run the scripted OpenAI-compatible model server.")
    parser.add_argument("--script", type=Path, required=True, help="JSON file with the scripts")
    parser.add_argument("--port", type=int, default=0, help="port to listen on (0: any free port)")
    parser.add_argument("--port-file", type=Path, help="write the chosen port here once listening")
    args = parser.parse_args(argv)
    server = ScriptedLLMServer(load_scripts(args.script), record=False, port=args.port)
    if args.port_file:
        tmp = args.port_file.with_suffix(".tmp")
        tmp.write_text(str(server.port))
        tmp.replace(args.port_file)
    print(server.base_url, flush=True)
    with contextlib.suppress(KeyboardInterrupt):
        server._httpd.serve_forever()


if __name__ == "__main__":
    main()
