"""This machine as an agent's executor: the session's jail around a persistent bash (`shell.py`)
and the hardened file operations (`files.py`), or the same shell unconfined with `--sandbox off`.

The jail is built here, once per shell, from the session's policy: what it keeps read-only
(the files the session trusts, the workspace itself while planning) and what it spares (what
the file editor wrote) are the session's own records, read whenever the jail checks.
"""

from __future__ import annotations

import contextlib
import os
from pathlib import Path

from openhands_tui.executors.base import Executor, FileInfo
from openhands_tui.executors.local.files import MAX_EDIT_BYTES, EditorError, write_atomically
from openhands_tui.executors.local.shell import BashSession
from openhands_tui.jail.bubblewrap import find_bubblewrap
from openhands_tui.jail.jail import Jail
from openhands_tui.sdk.detached import run_detached
from openhands_tui.sdk.files.workspace_diff import workspace_patch
from openhands_tui.sdk.security.secrets import shell_environment
from openhands_tui.sdk.tool import ToolContext


class LocalExecutor(Executor):
    def __init__(self, ctx: ToolContext) -> None:
        self.ctx = ctx
        self.workspace = str(ctx.workspace)

    def describe(self) -> str:
        return "local, in the sandbox" if self.ctx.sandbox.enabled else "local, without the sandbox"

    def open_shell(self, max_output_bytes: int = 30_000) -> BashSession:
        ctx = self.ctx
        environment = shell_environment(os.environ, keep=ctx.sandbox.keep_env)
        environment.pop("LLM_API_KEY", None)  # the agent's shell has no business with our model's key
        return BashSession(
            ctx.workspace, max_output_bytes=max_output_bytes, jail=self._jail(environment), environment=environment
        )

    def _jail(self, environment: dict[str, str]) -> Jail | None:
        ctx = self.ctx
        if not ctx.sandbox.enabled:
            return None
        bwrap = find_bubblewrap()
        if bwrap.path is None:
            raise RuntimeError(f"the sandbox cannot run here: {bwrap.problem}; use --sandbox off to run without it")
        jail = Jail(
            ctx.sandbox,
            ctx.workspace,
            bwrap.path,
            environ=environment,
            trusted=ctx.trusted,
            editor_writes=ctx.editor_writes,
        )
        jail.held_read_only = ctx.read_only  # plan mode: the workspace is read-only too
        return jail

    def resolve(self, path: str) -> str:
        return os.path.realpath(os.path.join(self.workspace, os.path.expanduser(path)))

    async def read(self, path: str) -> bytes | None:
        return await run_detached(_read, self.resolve(path))

    async def write(self, path: str, data: bytes) -> None:
        target = Path(self.resolve(path))
        await run_detached(_write, target, data)

    async def stat(self, path: str) -> FileInfo | None:
        return await run_detached(_stat, os.path.join(self.workspace, os.path.expanduser(path)))

    async def list(self, path: str, depth: int = 2) -> list[str]:
        return await run_detached(_list, self.resolve(path), depth)

    async def remove(self, path: str) -> None:
        with contextlib.suppress(FileNotFoundError):
            await run_detached(os.unlink, os.path.join(self.workspace, os.path.expanduser(path)))

    async def make_folders(self, path: str) -> None:
        await run_detached(lambda: os.makedirs(self.resolve(path), exist_ok=True))

    async def changes(self) -> str | None:
        return await run_detached(_changes, Path(self.workspace))


def _read(path: str) -> bytes | None:
    try:
        with open(path, "rb") as handle:
            data = handle.read(MAX_EDIT_BYTES + 1)
    except (FileNotFoundError, NotADirectoryError):
        return None
    if len(data) > MAX_EDIT_BYTES:
        raise EditorError(f"{path}: over {MAX_EDIT_BYTES // (1024 * 1024)} MB")
    return data


def _write(target: Path, data: bytes) -> None:
    target.parent.mkdir(parents=True, exist_ok=True)
    write_atomically(target, data)


def _stat(path: str) -> FileInfo | None:
    try:
        found = os.lstat(path)
    except (FileNotFoundError, NotADirectoryError):
        return None
    kind = "link" if os.path.islink(path) else "folder" if os.path.isdir(path) else "file"
    return FileInfo(kind if kind != "file" or os.path.isfile(path) else "other", found.st_size)


def _list(folder: str, depth: int) -> list[str]:
    found: list[str] = []
    base = folder.rstrip("/").count("/")
    for root, folders, files in os.walk(folder):
        folders[:] = sorted(name for name in folders if not name.startswith("."))
        level = root.rstrip("/").count("/") - base
        found += [os.path.join(root, name) for name in (*folders, *files) if not name.startswith(".")]
        if level + 1 >= depth:
            folders[:] = []
    return sorted(found)


def _changes(workspace: Path) -> str | None:
    patch = workspace_patch(workspace)  # no program the repository's config names runs here, unconfined
    return patch.text if patch.available else None
