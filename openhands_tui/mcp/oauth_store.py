"""Where a remote MCP server's OAuth sign-in is kept: one file per server URL in the user's
state folder, implementing the `mcp` SDK's `TokenStorage` protocol.

The file holds the access and refresh tokens and the client registration the authorization
server gave us (its id, and the loopback redirect URI registered with it, whose port the next
sign-in listens on again, since servers match redirect URIs exactly). It is readable by the
user only (0600, in a 0700 folder) from its first byte and replaced whole (`files/private.py`),
so two sessions refreshing at once leave one complete file, never a torn one. A token is also
given an absolute expiry here: the SDK only knows `expires_in`, relative to when it was issued,
which means nothing to the next process that reads the file.

A file that cannot be read or parsed counts as no sign-in (the user signs in again); every
token it holds is registered with `oauth_redaction`, so none reaches a log.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import os
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from openhands_tui.sdk.facts.store import state_home
from openhands_tui.sdk.files.private import one_writer, replace_privately
from openhands_tui.sdk.files.read import read_regular


def oauth_folder() -> Path:
    return state_home() / "mcp-oauth"


def token_file(url: str) -> Path:
    """The file of the server at `url` (named by a digest: a URL is not a file name)."""
    return oauth_folder() / f"{hashlib.sha256(url.encode()).hexdigest()[:32]}.json"


class TokenFile:
    """The SDK's `TokenStorage` for one server URL, in the user's state folder."""

    def __init__(self, url: str, secret: Callable[[str], None] = lambda value: None) -> None:
        self.url = url
        self.path = token_file(url)
        #: Told every token value read or written (the redactor of what is logged).
        self._secret = secret

    # -- the file ------------------------------------------------------------------------------

    def read(self) -> dict[str, Any]:
        try:
            data = json.loads(read_regular(self.path).decode("utf-8"))
        except (OSError, ValueError):
            return {}
        if not isinstance(data, dict) or data.get("url") != self.url:
            return {}
        for key in ("access_token", "refresh_token"):
            value = (data.get("tokens") or {}).get(key)
            if isinstance(value, str):
                self._secret(value)
        return data

    def _update(self, **changes: Any) -> None:
        folder = self.path.parent
        folder.mkdir(parents=True, exist_ok=True, mode=0o700)
        os.chmod(folder, 0o700)  # made before by an older version, or with a wide umask
        with one_writer(self.path):
            data = self.read() | changes | {"url": self.url}
            replace_privately(self.path, json.dumps(data, indent=2) + "\n")

    def forget(self) -> bool:
        """Remove the sign-in; whether there was one."""
        with contextlib.suppress(FileNotFoundError):
            self.path.unlink()
            with contextlib.suppress(FileNotFoundError):
                self.path.with_name(f".{self.path.name}.lock").unlink()
            return True
        return False

    @property
    def signed_in(self) -> bool:
        return bool((self.read().get("tokens") or {}).get("access_token"))

    def expires_at(self) -> float | None:
        value = self.read().get("expires_at")
        return float(value) if isinstance(value, int | float) else None

    def redirect_port(self) -> int | None:
        """The port of the loopback redirect URI registered with the server, if any."""
        from urllib.parse import urlparse

        uris = (self.read().get("client_info") or {}).get("redirect_uris") or []
        try:
            return urlparse(str(uris[0])).port if uris else None
        except ValueError:
            return None

    # -- the SDK's TokenStorage ----------------------------------------------------------------

    async def get_tokens(self) -> Any:  # mcp.shared.auth.OAuthToken | None
        from mcp.shared.auth import OAuthToken
        from pydantic import ValidationError

        tokens = self.read().get("tokens")
        try:
            return OAuthToken.model_validate(tokens) if tokens else None
        except ValidationError:
            return None

    async def set_tokens(self, tokens: Any) -> None:
        self._secret(tokens.access_token)
        if tokens.refresh_token:
            self._secret(tokens.refresh_token)
        expires_at = time.time() + int(tokens.expires_in) if tokens.expires_in is not None else None
        self._update(tokens=tokens.model_dump(mode="json", exclude_none=True), expires_at=expires_at)

    async def get_client_info(self) -> Any:  # mcp.shared.auth.OAuthClientInformationFull | None
        from mcp.shared.auth import OAuthClientInformationFull
        from pydantic import ValidationError

        info = self.read().get("client_info")
        try:
            return OAuthClientInformationFull.model_validate(info) if info else None
        except ValidationError:
            return None

    async def set_client_info(self, client_info: Any) -> None:
        if client_info.client_secret:
            self._secret(client_info.client_secret)
        self._update(client_info=client_info.model_dump(mode="json", exclude_none=True))

    def drop_client_info(self) -> None:
        """Forget the registration (and its tokens): the next sign-in registers again."""
        if self.path.exists():
            self._update(client_info=None, tokens=None, expires_at=None)
