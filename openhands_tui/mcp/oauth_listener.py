"""The loopback listener an OAuth sign-in's browser is sent back to (RFC 8252 §7.3).

It listens on 127.0.0.1 only, for the one sign-in under way, and answers only `GET /callback`
whose `state` is the one this sign-in sent: any other page the user has open can reach a
loopback port, so a request with a wrong or missing `state` is refused (400) and the listener
keeps waiting for the real answer rather than letting a stray request end the sign-in. The
authorization server's `error` (the user said no) ends it with that error. Served by the
standard library's `http.server` in a thread; the answer is handed to the event loop.
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import html
import secrets
import socket
import threading
from http.server import BaseHTTPRequestHandler, HTTPServer
from typing import Any
from urllib.parse import parse_qs, urlparse

CALLBACK_PATH = "/callback"


class SignInRefused(Exception):
    """The authorization server sent the browser back with an error (the user said no)."""


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def redirect_uri(port: int) -> str:
    return f"http://127.0.0.1:{port}{CALLBACK_PATH}"


class RedirectListener:
    """Listens on `port` until the browser brings back the answer for `state`."""

    def __init__(self, port: int) -> None:
        self.port = port
        self.expected_state = ""
        self._answer: asyncio.Future[dict[str, str]] | None = None
        self._loop: asyncio.AbstractEventLoop | None = None
        self._server: HTTPServer | None = None
        self._thread: threading.Thread | None = None

    def start(self, state: str) -> None:
        """Listen (raises OSError when the port is taken) for the answer carrying `state`."""
        self.expected_state = state
        self._loop = asyncio.get_running_loop()
        self._answer = self._loop.create_future()
        self._server = server = HTTPServer(("127.0.0.1", self.port), _handler(self))
        # polled every 50 ms, not 0.5 s: closing waits for the poll, and the sign-in waits for the close
        serve = functools.partial(server.serve_forever, poll_interval=0.05)
        self._thread = threading.Thread(target=serve, name="oauth redirect", daemon=True)
        self._thread.start()

    async def answer(self, timeout: float) -> dict[str, str]:
        """The query of the accepted request: `code`, `state` and perhaps `iss`."""
        assert self._answer is not None, "start() first"
        try:
            return await asyncio.wait_for(asyncio.shield(self._answer), timeout)
        finally:
            await asyncio.to_thread(self.close)

    def close(self) -> None:
        server, self._server = self._server, None
        if server is not None:
            server.shutdown()
            server.server_close()

    def _deliver(self, query: dict[str, str]) -> tuple[int, str]:
        """Judge one request to the callback (on the listener's thread)."""
        state = query.get("state", "")
        if not state or not secrets.compare_digest(state.encode(), self.expected_state.encode()):
            return 400, "This answer is not for the sign-in under way (its state does not match); ignored."
        loop, answer = self._loop, self._answer
        if loop is None or answer is None:
            return 410, "No sign-in is under way."
        if "error" in query:
            error = SignInRefused(f"{query['error']}: {query.get('error_description', '')}".rstrip(": "))
            loop.call_soon_threadsafe(_settle, answer, error)
            return 200, "The sign-in was refused. You can close this page."
        if not query.get("code"):
            return 400, "The answer carries no authorization code."
        loop.call_soon_threadsafe(_settle, answer, query)
        return 200, "Signed in. You can close this page and go back to the terminal."


def _settle(answer: asyncio.Future[dict[str, str]], result: dict[str, str] | Exception) -> None:
    if answer.done():
        return
    if isinstance(result, Exception):
        answer.set_exception(result)
    else:
        answer.set_result(result)


def _handler(listener: RedirectListener) -> type[BaseHTTPRequestHandler]:
    class Handler(BaseHTTPRequestHandler):
        def do_GET(self) -> None:  # http.server calls it by this name
            parsed = urlparse(self.path)
            if parsed.path != CALLBACK_PATH:
                self._reply(404, "Not found.")
                return
            query = {key: values[0] for key, values in parse_qs(parsed.query).items()}
            self._reply(*listener._deliver(query))

        def _reply(self, status: int, text: str) -> None:
            body = f"<!doctype html><title>openhands-tui</title><p>{html.escape(text)}</p>".encode()
            with contextlib.suppress(OSError):
                self.send_response(status)
                self.send_header("Content-Type", "text/html; charset=utf-8")
                self.send_header("Content-Length", str(len(body)))
                self.send_header("Cache-Control", "no-store")
                self.end_headers()
                self.wfile.write(body)

        def log_message(self, format: str, *args: Any) -> None:  # the code is in the URL: never logged
            return

    return Handler
