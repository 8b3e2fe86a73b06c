"""Signing in to a remote MCP server, as the MCP authorization spec describes, on the `mcp` SDK.

The SDK's `OAuthClientProvider` does the protocol: on a 401 it discovers the protected resource
and authorization server metadata, registers a client dynamically, builds the PKCE
authorization URL, exchanges the code, and refreshes an expired token. This module supplies
what the SDK leaves to its user:

- where the sign-in is kept (`oauth_store.TokenFile`, one 0600 file per server URL);
- how the person is reached: the authorization URL is always told (an app notice, a terminal
  line) so a user on SSH or without a desktop can open it elsewhere, and the browser is opened
  when there is a desktop to open it on (or `$BROWSER` says how), by `webbrowser`;
- the loopback listener the browser comes back to (`oauth_listener.py`, checks `state`);
- no person, no wait: a session without a terminal (ACP, a piped headless run) fails the
  server at once with one line saying to run `tui mcp login NAME`, and goes on without it.

The SDK keeps a token's expiry in memory only; a restarted process would send an expired token
and, on the 401, start a whole new sign-in instead of refreshing. `_Provider` restores the
expiry the store keeps, so a stored, expired token is refreshed first.
Tokens never reach a log or the model: the session's redactor is told each one (as it is a
configured header's token), and the SDK's and httpx2's loggers redact every token this process
holds.
"""

from __future__ import annotations

import logging
import os
import subprocess
import sys
import threading
from collections.abc import AsyncGenerator, Callable
from typing import Any
from urllib.parse import parse_qs, urlparse

import httpx2
from mcp.client.auth import OAuthClientProvider, OAuthFlowError
from mcp.shared.auth import AuthorizationCodeResult, OAuthClientMetadata

from openhands_tui.mcp.oauth_listener import RedirectListener, SignInRefused, free_port, redirect_uri
from openhands_tui.mcp.oauth_store import TokenFile
from openhands_tui.sdk.security.secrets import RedactingFilter, Redactor
from openhands_tui.sdk.terminal_text import strip_controls

#: Seconds a person gets to finish signing in once told where.
SIGN_IN_TIMEOUT = 300.0

#: Loggers that see OAuth requests and responses; each redacts the tokens this process holds.
_LOGGERS = ("mcp.client.auth.oauth2", "mcp.client.streamable_http", "mcp.client.sse", "httpx2")
_tokens = Redactor()
for _name in _LOGGERS:
    logging.getLogger(_name).addFilter(RedactingFilter(_tokens))


class SignInNeeded(Exception):
    """The server needs a sign-in that cannot happen here and now (nobody at a terminal), or
    the sign-in did not work; the message says what to do."""

    written_for_people = True  # shown as it is, without the class's name


def person_at_terminal() -> bool:
    """Whether someone can be asked to sign in now: the session has a terminal."""
    return sys.stdin is not None and sys.stdin.isatty()


def can_open_browser() -> bool:
    """Whether `webbrowser` would open a graphical browser rather than a text one in our own
    terminal (under the app, a text browser would draw over it): a desktop, or `$BROWSER`."""
    if os.environ.get("BROWSER"):
        return True
    return sys.platform in ("darwin", "win32") or bool(os.environ.get("DISPLAY") or os.environ.get("WAYLAND_DISPLAY"))


def remember_token(value: str) -> None:
    _tokens.add(value, "MCP OAuth token")


def wants_oauth(headers: dict[str, str]) -> bool:
    """A server given its own `Authorization` header (a static token) is not signed in to."""
    return not any(name.lower() == "authorization" for name in headers)


class _Provider(OAuthClientProvider):
    """The SDK's provider, with the token's expiry restored from the store on first use, and
    its failures said as what they mean to the person."""

    name = ""

    async def _initialize(self) -> None:
        await super()._initialize()
        storage = self.context.storage
        if isinstance(storage, TokenFile) and self.context.current_tokens is not None:
            self.context.token_expiry_time = storage.expires_at()

    async def async_auth_flow(self, request: httpx2.Request) -> AsyncGenerator[httpx2.Request, httpx2.Response]:
        flow = super().async_auth_flow(request)
        try:
            outgoing = await flow.__anext__()
            while True:
                outgoing = await flow.asend((yield outgoing))
        except StopAsyncIteration:
            return
        except OAuthFlowError as exc:  # a 401 with no sign-in offered ends here too (registration fails)
            why = strip_controls(str(exc)).strip().splitlines()
            raise SignInNeeded(
                f"it answered 401 and signing in (OAuth) failed: {why[0][:200] if why else type(exc).__name__}; "
                f"if it wants a key instead: tui mcp add {self.name} URL -H 'Authorization: Bearer KEY'"
            ) from None
        finally:
            await flow.aclose()


class SignIn:
    """The sign-in to one server: its stored tokens, how its person is told, its listener.

    `tell` says one line to the person (the session's notice, or the terminal); `waiting` is
    told True while a person is being waited on (the server's start-up clock stops) and False
    after. `interactive` None: someone is there when the session has a terminal. `secret` is
    told every token read or received (the session redacts them, as header tokens)."""

    def __init__(
        self,
        name: str,
        url: str,
        tell: Callable[[str], None],
        waiting: Callable[[bool], None] = lambda waiting: None,
        interactive: bool | None = None,
        secret: Callable[[str], None] = lambda value: None,
    ) -> None:
        self.name = name
        self.url = url
        self.tell = tell
        self.waiting = waiting
        self.interactive = interactive
        self._secret = secret
        self.store = TokenFile(url, self._keep_secret)
        self.store.read()  # its tokens join the redacted ones before any request is logged
        self.port = self.store.redirect_port() or free_port()
        self.listener = RedirectListener(self.port)

    def _keep_secret(self, value: str) -> None:
        remember_token(value)
        self._secret(value)

    def provider(self) -> OAuthClientProvider:
        metadata = OAuthClientMetadata(
            client_name="openhands-tui",
            redirect_uris=[redirect_uri(self.port)],  # pydantic parses the text as a URL
            grant_types=["authorization_code", "refresh_token"],
            response_types=["code"],
            token_endpoint_auth_method="none",  # a program on the user's machine keeps no secret
        )
        provider = _Provider(
            server_url=self.url,
            client_metadata=metadata,
            storage=self.store,
            redirect_handler=self._redirect,
            callback_handler=self._callback,
        )
        provider.name = self.name
        return provider

    async def _redirect(self, authorization_url: str) -> None:
        present = self.interactive if self.interactive is not None else person_at_terminal()
        if not present:
            raise SignInNeeded(f"it needs you to sign in: run `tui mcp login {self.name}`")
        state = parse_qs(urlparse(authorization_url).query).get("state", [""])[0]
        try:
            self.listener.start(state)
        except OSError as exc:
            self.store.drop_client_info()  # registered for that port: the next try registers another
            raise SignInNeeded(
                f"cannot listen on 127.0.0.1:{self.port} for the sign-in's answer "
                f"({exc.strerror or exc}); try again: run `tui mcp login {self.name}`"
            ) from None
        self.waiting(True)
        browser = can_open_browser()
        shown = strip_controls(authorization_url)
        self.tell(
            f"MCP server {self.name!r} asks you to sign in"
            f"{' (opening your browser)' if browser else ''}: open {shown}  "
            f"(the browser must reach 127.0.0.1:{self.port} on this machine; over SSH: "
            f"ssh -L {self.port}:127.0.0.1:{self.port} ...)"
        )
        if browser:
            _open(authorization_url)

    async def _callback(self) -> AuthorizationCodeResult:
        try:
            answer = await self.listener.answer(SIGN_IN_TIMEOUT)
        except TimeoutError:
            raise SignInNeeded(
                f"nobody signed in within {SIGN_IN_TIMEOUT / 60:g} minutes; run `tui mcp login {self.name}`"
            ) from None
        except SignInRefused as exc:
            raise SignInNeeded(f"the sign-in was refused ({strip_controls(str(exc))[:200]})") from None
        finally:
            self.waiting(False)
        return AuthorizationCodeResult(code=answer["code"], state=answer.get("state"), iss=answer.get("iss"))


def _open(url: str) -> None:
    """`webbrowser.open(url)` in a child of its own: what a browser launcher prints goes nowhere
    (under the app, fd 2 is the screen), and a `$BROWSER` that waits until closed waits there."""
    try:
        browser = subprocess.Popen(
            [sys.executable, "-m", "webbrowser", url],
            stdin=subprocess.DEVNULL,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
            start_new_session=True,
        )
    except OSError as exc:  # the address was told already
        logging.getLogger(__name__).debug("could not open a browser: %s", exc.strerror)
        return
    threading.Thread(target=browser.wait, name="browser", daemon=True).start()  # reaped when it ends


def sign_in_for(name: str, config: Any, url: str, connection: Any) -> SignIn | None:
    """The sign-in for a connection's HTTP server, or None when its config brings its own
    `Authorization` header. `connection` gives `say`, `sign_in_waiting`, `interactive` and
    `keep_secret` (its tokens join the session's redacted secrets)."""
    headers = {key: os.path.expandvars(value) for key, value in config.headers.items()}
    if not wants_oauth(headers):
        return None
    return SignIn(name, url, connection.say, connection.sign_in_waiting, connection.interactive, connection.keep_secret)
