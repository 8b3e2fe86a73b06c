"""What `@` offers in the prompt: the workspace's files, matched fuzzily to what follows it.

The list is the project's as git sees it (tracked, and new files `.gitignore` does not hide),
from git run hardened (`own_git.run_git`: a workspace's own config names no program here), or,
outside a repository, a bounded walk that skips what is never worth mentioning. It is read on a
worker once per session and again when it is older than `STALE_AFTER` seconds, so typing `@`
never waits for a large tree: the previous list is shown meanwhile.
"""

from __future__ import annotations

import os
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

#: Files read at most (a monorepo lists hundreds of thousands; nobody scrolls them).
MAX_FILES = 50_000
#: Matches shown in the list at once.
SHOWN = 12
#: Seconds a list is used before it is read again (in the background) on the next `@`.
STALE_AFTER = 30.0
#: Folders a walk outside git never enters.
SKIPPED = {".git", ".hg", ".svn", "node_modules", ".venv", "venv", "__pycache__", ".mypy_cache", ".tox", ".cache"}


def workspace_files(workspace: Path) -> list[str]:
    """The workspace's files, relative, as git lists them (respecting `.gitignore`), else walked."""
    from openhands_tui.sdk.files.own_git import run_git

    done = run_git(workspace, ["ls-files", "--cached", "--others", "--exclude-standard", "-z"], timeout=10)
    if done is not None and done.returncode == 0:
        names = [name for name in done.stdout.decode("utf-8", "replace").split("\0") if name]
        return sorted(set(names))[:MAX_FILES]
    return walked(workspace)


def walked(workspace: Path) -> list[str]:
    """Outside git: every file under `workspace` but in `SKIPPED` folders, at most MAX_FILES."""
    found: list[str] = []
    for folder, folders, files in os.walk(workspace):
        folders[:] = sorted(f for f in folders if f not in SKIPPED)
        relative = os.path.relpath(folder, workspace)
        for name in sorted(files):
            found.append(name if relative == "." else f"{relative}/{name}")
            if len(found) >= MAX_FILES:
                return found
    return found


def score(query: str, path: str) -> int | None:
    """How well `path` matches `query` (higher is better), None if its letters are not all in it
    in order. A match in the file's name beats one across folders; a contiguous one beats a
    scattered one."""
    if not query:
        return 0
    wanted, lowered = query.lower(), path.lower()
    name = lowered.rsplit("/", 1)[-1]
    if name.startswith(wanted):
        return 400
    if wanted in name:
        return 300
    if wanted in lowered:
        return 200
    position, gaps = -1, 0
    for char in wanted:
        found = lowered.find(char, position + 1)
        if found < 0:
            return None
        gaps += found - position - 1 if position >= 0 else 0
        position = found
    return max(1, 100 - gaps)


def matches(query: str, files: list[str], limit: int = SHOWN) -> list[str]:
    """The best `limit` files for `query`: by score, then the shorter path, then by name."""
    scored = [(s, path) for path in files if (s := score(query, path)) is not None]
    scored.sort(key=lambda item: (-item[0], len(item[1]), item[1]))
    return [path for _, path in scored[:limit]]


def mention(path: str) -> str:
    """`@path` as the prompt takes it; quoted when the path has a space (`@"a b.txt"`)."""
    return f'@"{path}"' if any(c.isspace() for c in path) else f"@{path}"


def typed_mention(before_cursor: str) -> tuple[int, str] | None:
    """The `@` being typed at the end of `before_cursor` (where it starts, and the text after it,
    without an opening quote), or None: an `@` counts at the start or after a space, and only
    until a space ends it (inside an open quote a space is part of it)."""
    at = before_cursor.rfind("@")
    if at < 0 or (at > 0 and not before_cursor[at - 1].isspace()):
        return None
    typed = before_cursor[at + 1 :]
    if typed.startswith('"'):
        return None if '"' in typed[1:] else (at, typed[1:])
    return None if any(c.isspace() for c in typed) else (at, typed)


@dataclass
class _Read:
    workspace: Path
    files: list[str]
    at: float


class FileIndex:
    """The workspace's files as last read; `files` starts a read on `start` (a worker) when there
    is none for this workspace, or it is stale, and calls `loaded` (on the app's thread, through
    whatever `start` arranges) once it is done."""

    def __init__(self, start: Callable[[Callable[[], None]], None], loaded: Callable[[], None]) -> None:
        self._start = start
        self._loaded = loaded
        self._read: _Read | None = None
        self._reading: Path | None = None
        self.read_files: Callable[[Path], list[str]] = workspace_files

    def files(self, workspace: Path, now: float | None = None) -> list[str] | None:
        """The files known for `workspace` (None: not read yet, being read)."""
        now = time.monotonic() if now is None else now
        known = self._read if self._read is not None and self._read.workspace == workspace else None
        if (known is None or now - known.at > STALE_AFTER) and self._reading != workspace:
            self._reading = workspace
            self._start(lambda: self._read_now(workspace))
        return known.files if known is not None else None

    def _read_now(self, workspace: Path) -> None:
        """On the worker."""
        try:
            files = self.read_files(workspace)
        except OSError:
            files = []
        self._read = _Read(workspace, files, time.monotonic())
        self._reading = None
        self._loaded()
