"""One language server, inside the jail, spoken to with pygls's client (no protocol by hand).

It is started on the first edit of a file it reads, with the workspace read-only, no network
and a private /tmp (the jail an MCP server gets, `mcp/wall.py`), and `--die-with-parent`, so it
ends with `tui`. Each edit sends the whole new text (open, then full changes with a rising
version) and waits for the server to publish diagnostics for that version, within a bound.
"""

from __future__ import annotations

import asyncio
import contextlib
from pathlib import Path
from typing import Any

from openhands_tui.lsp.servers import ServerSpec

#: The first answer pays the server's start (basedpyright: ~1-2 s); later ones its analysis.
FIRST_WAIT_SECONDS = 20.0
WAIT_SECONDS = 8.0
#: After a publish for the version, how long a second, fuller one may still come.
SETTLE_SECONDS = 0.15


class ServerGone(Exception):
    """The server is not running (it failed to start, or died): one line, why."""


class LanguageServer:
    def __init__(self, spec: ServerSpec, argv: list[str], env: dict[str, str], cwd: str, workspace: Path) -> None:
        self.spec, self.argv, self.env, self.cwd, self.workspace = spec, argv, env, cwd, workspace
        self._client: Any = None
        self._versions: dict[str, int] = {}
        self._published: dict[str, tuple[int | None, list[Any]]] = {}
        self._arrived = asyncio.Condition()
        self._answered_once = False

    async def start(self) -> None:
        from lsprotocol import types as lsp
        from pygls.lsp.client import LanguageClient

        client = LanguageClient("openhands-tui", "0.1")

        @client.feature(lsp.TEXT_DOCUMENT_PUBLISH_DIAGNOSTICS)
        async def published(params: lsp.PublishDiagnosticsParams) -> None:
            async with self._arrived:
                self._published[params.uri] = (params.version, list(params.diagnostics))
                self._arrived.notify_all()

        @client.feature(lsp.WINDOW_LOG_MESSAGE)
        def logged(params: lsp.LogMessageParams) -> None:
            pass  # a server's chatter (its start, its settings) is nobody's to read

        try:
            await client.start_io(self.argv[0], *self.argv[1:], env=self.env, cwd=self.cwd)
        except OSError as exc:
            raise ServerGone(f"{self.spec.command[0]} could not start ({exc.strerror or exc})") from None
        self._client = client
        root = self.workspace.as_uri()
        capabilities = lsp.ClientCapabilities(
            text_document=lsp.TextDocumentClientCapabilities(
                publish_diagnostics=lsp.PublishDiagnosticsClientCapabilities(version_support=True)
            )
        )
        params = lsp.InitializeParams(
            # none: in the jail's PID namespace our pid names nobody, and a server that watches
            # it (vscode-languageserver does, every few seconds) exits; it dies with us anyway
            process_id=None,
            root_uri=root,
            capabilities=capabilities,
            workspace_folders=[lsp.WorkspaceFolder(uri=root, name=self.workspace.name or "workspace")],
        )
        try:
            await asyncio.wait_for(client.initialize_async(params), FIRST_WAIT_SECONDS)
        except (TimeoutError, Exception) as exc:
            await self.aclose()
            raise ServerGone(f"{self.spec.command[0]} did not start ({type(exc).__name__}: {exc})"[:300]) from None
        client.initialized(lsp.InitializedParams())

    async def diagnostics(self, path: Path, text: str) -> list[Any]:
        """The diagnostics the server publishes for `path` holding `text` (sent now)."""
        from lsprotocol import types as lsp

        client = self._client
        if client is None or client.stopped:
            raise ServerGone(f"{self.spec.command[0]} is not running")
        uri = path.as_uri()
        version = self._versions.get(uri, 0) + 1
        self._versions[uri] = version
        self._published.pop(uri, None)
        if version == 1:
            item = lsp.TextDocumentItem(uri=uri, language_id=self.spec.language_id, version=version, text=text)
            client.text_document_did_open(lsp.DidOpenTextDocumentParams(text_document=item))
        else:
            document = lsp.VersionedTextDocumentIdentifier(uri=uri, version=version)
            change = lsp.TextDocumentContentChangeWholeDocument(text=text)
            client.text_document_did_change(
                lsp.DidChangeTextDocumentParams(text_document=document, content_changes=[change])
            )
        limit = WAIT_SECONDS if self._answered_once else FIRST_WAIT_SECONDS
        try:
            await asyncio.wait_for(self._wait_for(uri, version), limit)
        except TimeoutError:
            raise ServerGone(f"{self.spec.command[0]} did not answer within {limit:g} s") from None
        self._answered_once = True
        await asyncio.sleep(SETTLE_SECONDS)  # a checker may publish syntax first, then types
        return self._published.get(uri, (None, []))[1]

    async def _wait_for(self, uri: str, version: int) -> None:
        async with self._arrived:
            while True:
                seen = self._published.get(uri)
                if seen is not None and (seen[0] is None or seen[0] >= version):
                    return
                if self._client is None or self._client.stopped:
                    raise ServerGone(f"{self.spec.command[0]} stopped")
                await self._arrived.wait()

    async def aclose(self) -> None:
        client, self._client = self._client, None
        if client is None:
            return
        with contextlib.suppress(Exception):
            await asyncio.wait_for(client.shutdown_async(None), 2)
            client.exit(None)
        with contextlib.suppress(Exception):
            await asyncio.wait_for(client.stop(), 2)
        server = getattr(client, "_server", None)
        if server is not None and server.returncode is None:
            with contextlib.suppress(ProcessLookupError):
                server.kill()
            with contextlib.suppress(Exception):
                await asyncio.wait_for(server.wait(), 2)
