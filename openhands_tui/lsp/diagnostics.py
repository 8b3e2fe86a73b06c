"""After the file editor changes a file, what the project's language server says about it.

One server per language per session (a `SessionServices` entry), started on the first edit of a
file it reads. Its errors for the edited file go back with the edit's result (only errors: a
strict checker warns on nearly every line), deduplicated and capped, control characters
stripped (a server's text is shown to the model and the user). A server that is missing, fails
or dies is said once, as a notice; the edit itself always stands.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

from openhands_tui.lsp.client import LanguageServer, ServerGone
from openhands_tui.lsp.servers import ServerSpec, find_program, server_table, spec_for
from openhands_tui.sdk.sandbox import SandboxPolicy
from openhands_tui.sdk.security.trusted import TrustedFiles
from openhands_tui.sdk.terminal_text import strip_controls

MAX_SHOWN = 20
MAX_MESSAGE_CHARS = 300
#: Errors only: a strict checker's warnings ("return type is unknown") are noise on every edit.
_SEVERITY = {1: "error"}


class EditDiagnostics:
    """The session's language servers, as the file editor uses them."""

    def __init__(
        self,
        workspace: Path,
        sandbox: SandboxPolicy,
        trusted: TrustedFiles,
        config: dict[str, Any],
        notice: Callable[[str], None],
    ) -> None:
        self.workspace, self.sandbox, self.trusted, self.notice = workspace, sandbox, trusted, notice
        self.table, self.enabled = server_table(config)
        self._servers: dict[str, LanguageServer | None] = {}

    async def after_edit(self, path: Path, text: str) -> str:
        """What to add to the edit's result: the file's problems now, or "" (none, or no server)."""
        spec = spec_for(path, self.table) if self.enabled else None
        if spec is None:
            return ""
        server = await self._server(spec)
        if server is None:
            return ""
        try:
            found = await server.diagnostics(path, text)
        except ServerGone as exc:
            self._servers[spec.language] = None
            await server.aclose()
            self.notice(f"diagnostics for {spec.language} files are off for this session: {exc}")
            return ""
        return describe(found, path, self.workspace, spec.command[0])

    async def _server(self, spec: ServerSpec) -> LanguageServer | None:
        if spec.language in self._servers:
            return self._servers[spec.language]
        self._servers[spec.language] = None  # said once, whatever happens below
        program = find_program(spec.command[0])
        if program is None:
            self.notice(
                f"no diagnostics for {spec.language} files: {spec.command[0]} is not installed "
                f"(see `tui help configuration`, [lsp.{spec.language}])"
            )
            return None
        from openhands_tui.mcp.wall import WallError, launch
        from openhands_tui.sdk.mcp_config import MCPServerConfig

        config = MCPServerConfig(command=program, args=list(spec.command[1:]))
        try:
            started = launch(f"lsp-{spec.language}", config, self.workspace, self.sandbox, self.trusted)
        except WallError as exc:
            self.notice(f"no diagnostics for {spec.language} files: {exc}")
            return None
        server = LanguageServer(spec, started.argv, started.env, started.cwd, self.workspace)
        try:
            await server.start()
        except ServerGone as exc:
            self.notice(f"no diagnostics for {spec.language} files: {exc}")
            return None
        self._servers[spec.language] = server
        return server

    async def aclose(self) -> None:
        servers, self._servers = self._servers, {}
        for server in servers.values():
            if server is not None:
                await server.aclose()


def describe(diagnostics: list[Any], path: Path, workspace: Path, source: str) -> str:
    """The errors, one line each (`line:col error: message [code]`), deduplicated, at most
    MAX_SHOWN; "" when there are none."""
    lines: list[tuple[int, str]] = []
    seen: set[str] = set()
    for item in diagnostics:
        severity = int(item.severity or 1)
        if severity not in _SEVERITY:
            continue
        start = item.range.start
        message = strip_controls(" ".join(str(item.message).split()))[:MAX_MESSAGE_CHARS]
        code = f" [{item.code}]" if item.code not in (None, "") else ""
        line = f"{start.line + 1}:{start.character + 1} {_SEVERITY[severity]}: {message}{code}"
        if line not in seen:
            seen.add(line)
            lines.append((severity, line))
    if not lines:
        return ""
    try:
        shown_path = path.relative_to(workspace)
    except ValueError:
        shown_path = path
    head = f"{source} reports {len(lines)} error(s) in {shown_path} now:"
    more = f"\n… and {len(lines) - MAX_SHOWN} more" if len(lines) > MAX_SHOWN else ""
    return head + "\n" + "\n".join(line for _, line in lines[:MAX_SHOWN]) + more
