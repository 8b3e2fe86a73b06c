"""An OpenHands agent-server as an agent's executor: its REST API (`client.py`) for files and
commands, and a persistent shell emulated over its per-command one (`shell.py`).

The workspace is a folder on the server. Files are read and written through the file API
(an upload replaces the file whole and makes its folders); what the API has no call for —
what is at a path, a folder's listing, removing a file, the workspace's diff — is one command
each, its arguments quoted, run with no shell state of the agent's.
"""

from __future__ import annotations

import posixpath
import shlex

from openhands_tui.executors.agent_server.client import RemoteError, server_client
from openhands_tui.executors.agent_server.shell import RemoteShell
from openhands_tui.executors.base import Executor, FileInfo
from openhands_tui.sdk.tool import ToolContext

#: New files whose content the workspace's patch shows (as the local one does).
MAX_NEW_FILES = 200
#: Seconds a helper command (stat, list, remove, diff) may take on the server.
HELPER_TIMEOUT_S = 60
#: git as the executor runs it on the server: no program the repository's config names runs.
_GIT = "git -c core.fsmonitor=false -c core.hooksPath=/dev/null -c core.pager=cat -c diff.external="

__all__ = ["AgentServerExecutor", "RemoteError"]


class AgentServerExecutor(Executor):
    def __init__(self, ctx: ToolContext) -> None:
        self.client = server_client(ctx)
        self.url = ctx.executor.url
        self.workspace = str(ctx.workspace)

    def describe(self) -> str:
        return f"agent-server at {self.url}, in {self.workspace}"

    def open_shell(self, max_output_bytes: int = 30_000) -> RemoteShell:
        return RemoteShell(self.client, self.workspace, max_output_bytes)

    def resolve(self, path: str) -> str:
        return posixpath.normpath(posixpath.join(self.workspace, path))

    async def read(self, path: str) -> bytes | None:
        return await self.client.read(self.resolve(path))

    async def write(self, path: str, data: bytes) -> None:
        await self.client.write(self.resolve(path), data)

    async def _command(self, command: str) -> tuple[int, str]:
        ran = await self.client.run(command, self.workspace, HELPER_TIMEOUT_S)
        return ran.exit_code, ran.stdout

    async def stat(self, path: str) -> FileInfo | None:
        code, out = await self._command(f"stat -c '%F|%s' -- {shlex.quote(self.resolve(path))} 2>/dev/null")
        if code != 0 or "|" not in out:
            return None
        kind, size = out.strip().rsplit("|", 1)
        named = {"regular file": "file", "regular empty file": "file", "directory": "folder", "symbolic link": "link"}
        return FileInfo(named.get(kind, "other"), int(size) if size.isdigit() else 0)

    async def list(self, path: str, depth: int = 2) -> list[str]:
        folder = shlex.quote(self.resolve(path))
        code, out = await self._command(
            f"find {folder} -mindepth 1 -maxdepth {int(depth)} -not -path '*/.*' 2>/dev/null | sort | head -5000"
        )
        if code != 0:
            raise RemoteError(f"{self.resolve(path)}: no such folder on the agent-server")
        return [line for line in out.splitlines() if line]

    async def remove(self, path: str) -> None:
        target = self.resolve(path)
        code, _ = await self._command(f"[ ! -d {shlex.quote(target)} ] && rm -f -- {shlex.quote(target)}")
        if code != 0:
            raise RemoteError(f"{target}: could not remove it on the agent-server")

    async def make_folders(self, path: str) -> None:
        code, _ = await self._command(f"mkdir -p -- {shlex.quote(self.resolve(path))}")
        if code != 0:
            raise RemoteError(f"{self.resolve(path)}: could not make it on the agent-server")

    async def changes(self) -> str | None:
        # one request: the tracked changes, then each new file (up to MAX_NEW_FILES) as a patch
        # of its own; on the server, where the agent's commands run anyway, its filters may run
        git = f"{_GIT} -C {shlex.quote(self.workspace)}"
        script = (
            f"{git} rev-parse --git-dir >/dev/null 2>&1 || exit 90\n"  # not a repository
            # before the first commit, against the empty tree
            f"base=$({git} rev-parse --verify -q HEAD || {git} hash-object -t tree /dev/null)\n"
            f'{git} diff "$base" --no-ext-diff --no-textconv --no-color --relative -- . || exit 91\n'
            f"{git} ls-files --others --exclude-standard -z -- . | head -z -n {MAX_NEW_FILES}"
            f" | xargs -0 -r -n1 {git} diff --no-index --no-ext-diff --no-textconv --no-color -- /dev/null\n"
            "exit 0\n"
        )
        code, patch = await self._command(script)
        return patch if code == 0 else None
