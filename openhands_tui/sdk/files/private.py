"""Files of the user's own settings that several tui processes may rewrite at once (the config
with its API key, the trusted-projects store): replaced whole, readable by the user only from
the first byte, one writer at a time.

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
def one_writer(path: Path) -> Iterator[None]:
    """Hold an exclusive lock beside `path` while reading, changing and replacing it, so a
    second process's change is made to the first one's result, not lost."""
    path.parent.mkdir(parents=True, exist_ok=True)
    descriptor = os.open(path.with_name(f".{path.name}.lock"), os.O_RDWR | os.O_CREAT, 0o600)
    try:
        fcntl.flock(descriptor, fcntl.LOCK_EX)
        yield
    finally:
        os.close(descriptor)  # closing releases the lock


def replace_privately(path: Path, text: str) -> None:
    """Write `text` to a new file only the user can read (mode 0600 from creation), then rename
    it over `path`: a reader sees the old file or the new one, never a part of either."""
    path.parent.mkdir(parents=True, exist_ok=True)
    descriptor, temporary = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".tmp")
    try:
        with os.fdopen(descriptor, "w", encoding="utf-8") as handle:
            handle.write(text)
            handle.flush()
            os.fsync(handle.fileno())
        os.replace(temporary, path)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(temporary)
        raise
