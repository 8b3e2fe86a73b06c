"""A protected MCP server with its own authorization server, for the sign-in tests: the `mcp`
SDK's server-side auth (metadata, dynamic registration, `/authorize`, `/token` with PKCE
checked, bearer checks on `/mcp`) over an in-memory authority of ours, in a uvicorn thread on a
free loopback port. `/authorize` approves at once (the person's "yes"), so a test "browser"
that follows the authorization URL with httpx ends at our redirect listener.

Run as a program (`python -m tests.mcp.oauth_server`), it serves until killed and prints its
URL, for trying `tui mcp login` by hand.
"""

from __future__ import annotations

import secrets
import socket
import threading
import time
from typing import Any

import uvicorn
from mcp.server.auth.provider import (
    AccessToken,
    AuthorizationCode,
    AuthorizationParams,
    RefreshToken,
    construct_redirect_uri,
)
from mcp.server.auth.settings import AuthSettings, ClientRegistrationOptions
from mcp.server.mcpserver import MCPServer
from mcp.shared.auth import OAuthClientInformationFull, OAuthToken
from mcp.types import ToolAnnotations

SCOPE = "notes"


class Authority:
    """The authorization server's memory; counts what clients did, for the tests to check."""

    def __init__(self, access_seconds: int = 3600) -> None:
        self.access_seconds = access_seconds
        self.clients: dict[str, OAuthClientInformationFull] = {}
        self.codes: dict[str, AuthorizationCode] = {}
        self.access: dict[str, AccessToken] = {}
        self.refresh: dict[str, RefreshToken] = {}
        self.authorizations = 0
        self.refreshes = 0

    async def get_client(self, client_id: str) -> OAuthClientInformationFull | None:
        return self.clients.get(client_id)

    async def register_client(self, client_info: OAuthClientInformationFull) -> None:
        assert client_info.client_id is not None
        self.clients[client_info.client_id] = client_info

    async def authorize(self, client: OAuthClientInformationFull, params: AuthorizationParams) -> str:
        code = secrets.token_urlsafe(32)
        assert client.client_id is not None
        self.codes[code] = AuthorizationCode(
            code=code,
            scopes=params.scopes or [SCOPE],
            expires_at=time.time() + 300,
            client_id=client.client_id,
            code_challenge=params.code_challenge,
            redirect_uri=params.redirect_uri,
            redirect_uri_provided_explicitly=params.redirect_uri_provided_explicitly,
            resource=params.resource,
        )
        self.authorizations += 1
        return construct_redirect_uri(str(params.redirect_uri), code=code, state=params.state)

    async def load_authorization_code(self, client: OAuthClientInformationFull, code: str) -> AuthorizationCode | None:
        return self.codes.get(code)

    async def exchange_authorization_code(
        self, client: OAuthClientInformationFull, code: AuthorizationCode
    ) -> OAuthToken:
        del self.codes[code.code]
        return self._issue(code.client_id, code.scopes, code.resource)

    async def load_refresh_token(self, client: OAuthClientInformationFull, refresh_token: str) -> RefreshToken | None:
        return self.refresh.get(refresh_token)

    async def exchange_refresh_token(
        self, client: OAuthClientInformationFull, refresh_token: RefreshToken, scopes: list[str]
    ) -> OAuthToken:
        del self.refresh[refresh_token.token]
        self.refreshes += 1
        return self._issue(refresh_token.client_id, scopes or refresh_token.scopes, refresh_token.resource)

    async def load_access_token(self, token: str) -> AccessToken | None:
        return self.access.get(token)

    async def revoke_token(self, token: Any) -> None:
        self.access.pop(token.token, None)
        self.refresh.pop(token.token, None)

    def _issue(self, client_id: str, scopes: list[str], resource: str | None) -> OAuthToken:
        access, refresh = secrets.token_urlsafe(32), secrets.token_urlsafe(32)
        expires = int(time.time()) + self.access_seconds
        self.access[access] = AccessToken(
            token=access, client_id=client_id, scopes=scopes, expires_at=expires, resource=resource
        )
        self.refresh[refresh] = RefreshToken(token=refresh, client_id=client_id, scopes=scopes, resource=resource)
        return OAuthToken(
            access_token=access, expires_in=self.access_seconds, refresh_token=refresh, scope=" ".join(scopes)
        )

    def expire_access_tokens(self) -> None:
        """Every access token given so far stops working (their refresh tokens still do)."""
        for token in self.access.values():
            token.expires_at = int(time.time()) - 1


class ProtectedServer:
    """`/mcp` (streamable HTTP) or `/sse`, behind sign-in; `note` says who called it,
    `credentials` echoes the caller's token."""

    def __init__(self, transport: str = "http", access_seconds: int = 3600) -> None:
        self.transport = transport
        self.authority = Authority(access_seconds)
        self._sock = socket.socket()
        self._sock.bind(("127.0.0.1", 0))
        self.port = self._sock.getsockname()[1]
        base = f"http://127.0.0.1:{self.port}"
        resource = f"{base}/mcp" if transport == "http" else f"{base}/sse"
        settings = AuthSettings(
            issuer_url=base,  # type: ignore[arg-type]  # pydantic parses it
            resource_server_url=resource,  # type: ignore[arg-type]
            client_registration_options=ClientRegistrationOptions(
                enabled=True, valid_scopes=[SCOPE], default_scopes=[SCOPE]
            ),
            required_scopes=[SCOPE],
            validate_token_resource=False,
        )
        app = MCPServer("notes", log_level="ERROR", auth_server_provider=self.authority, auth=settings)

        @app.tool(annotations=ToolAnnotations(read_only_hint=True, destructive_hint=False))
        def note() -> str:
            """The signed-in user's note."""
            from mcp.server.auth.middleware.auth_context import get_access_token

            token = get_access_token()
            return f"note for {token.client_id if token else 'nobody'}"

        @app.tool(annotations=ToolAnnotations(read_only_hint=True, destructive_hint=False))
        def credentials() -> str:
            """What a careless server might answer: the token it was called with."""
            from mcp.server.auth.middleware.auth_context import get_access_token

            token = get_access_token()
            return f"called with {token.token if token else 'nothing'}"

        asgi = app.streamable_http_app() if transport == "http" else app.sse_app()
        config = uvicorn.Config(asgi, log_level="error", lifespan="on")
        self._server = uvicorn.Server(config)
        self._thread = threading.Thread(target=self._server.run, kwargs={"sockets": [self._sock]}, daemon=True)

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}/{'mcp' if self.transport == 'http' else 'sse'}"

    def config(self) -> dict[str, Any]:
        return {"type": self.transport, "url": self.url}

    def start(self) -> ProtectedServer:
        self._thread.start()
        deadline = time.monotonic() + 10
        while not self._server.started and time.monotonic() < deadline:
            time.sleep(0.02)
        return self

    def stop(self) -> None:
        self._server.should_exit = True
        self._thread.join(5)
        self._sock.close()


class KeyOnlyServer(ProtectedServer):
    """A server that answers 401 to everything and offers no sign-in: it wants a key."""

    def __init__(self) -> None:
        from starlette.applications import Starlette
        from starlette.responses import PlainTextResponse
        from starlette.routing import Route

        async def refuse(request: Any) -> PlainTextResponse:
            return PlainTextResponse("an API key is needed", status_code=401)

        self.transport = "http"
        self._sock = socket.socket()
        self._sock.bind(("127.0.0.1", 0))
        self.port = self._sock.getsockname()[1]
        asgi = Starlette(routes=[Route("/{path:path}", refuse, methods=["GET", "POST", "DELETE"])])
        self._server = uvicorn.Server(uvicorn.Config(asgi, log_level="error", lifespan="off"))
        self._thread = threading.Thread(target=self._server.run, kwargs={"sockets": [self._sock]}, daemon=True)


if __name__ == "__main__":
    server = ProtectedServer().start()
    print(server.url, flush=True)
    threading.Event().wait()
