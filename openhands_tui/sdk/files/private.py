"""The one way to write a file several tui processes may rewrite at once (the config with its
API key, the MCP server lists, the trusted-projects store, installed plugins, a session's
metadata): one writer at a time (`one_writer` around the read, the change and the write),
replaced whole, fsynced with its folder, readable by the user only from the first byte.

A fixed `config.tmp` beside the file let two processes truncate and rename each other's
half-written copy: one failed with FileNotFoundError, and the config left behind could be torn
TOML, which every later start refused. Written with the default umask first and chmod-ed
after, the API key was also readable by others for a moment.
"""

from __future__ import annotations

import contextlib
import fcntl
import os
import tempfile
from collections.abc import Iterator
from pathlib import Path


@contextlib.contextmanager
def one_writer(path: Path, lock: Path | None = None) -> Iterator[None]:
    """Hold an exclusive lock beside `path` (or at `lock`: for a file in a project, whose folder
    should not collect ours) while reading, changing and replacing it, so a second process's
    change is made to the first one's result, not lost."""
    lock = lock if lock is not None else path.with_name(f".{path.name}.lock")
    lock.parent.mkdir(parents=True, exist_ok=True)
    descriptor = os.open(lock, os.O_RDWR | os.O_CREAT, 0o600)
    try:
        fcntl.flock(descriptor, fcntl.LOCK_EX)
        yield
    finally:
        os.close(descriptor)  # closing releases the lock


def replace_privately(path: Path, content: str | bytes) -> None:
    """Write `content` to a new file only the user can read (mode 0600 from creation), then
    rename it over `path`: a reader sees the old file or the new one, never a part of either.
    The file is fsynced before the rename and the folder after it, so a power cut leaves one of
    the two whole too (a rename can otherwise reach the disk before the data it names)."""
    path.parent.mkdir(parents=True, exist_ok=True)
    descriptor, temporary = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".tmp")
    try:
        with os.fdopen(descriptor, "wb") as handle:
            handle.write(content.encode("utf-8") if isinstance(content, str) else content)
            handle.flush()
            os.fsync(handle.fileno())
        os.replace(temporary, path)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(temporary)
        raise
    sync_folder(path.parent)


def sync_folder(folder: Path) -> None:
    """fsync `folder`, so the names last made or replaced in it are on disk; where a folder
    cannot be opened for that (some filesystems), the data's own fsync is what there is."""
    with contextlib.suppress(OSError):
        descriptor = os.open(folder, os.O_RDONLY | os.O_DIRECTORY)
        try:
            os.fsync(descriptor)
        finally:
            os.close(descriptor)
