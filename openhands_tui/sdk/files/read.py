"""Reading a file someone named — a flag, the config, a file in the workspace — without
hanging or filling memory.

`open()` on a FIFO blocks until a writer appears (forever, with SIGINT waiting behind it), and
`/dev/zero` or a symlink to it reads until memory runs out. Every file the program reads on
its own account goes through `read_regular`: the file is opened without blocking, refused
unless it is a regular file, and read only up to a limit. The refusals are `OSError`s whose
`strerror` says what is wrong, so callers' existing "cannot read (...)" messages name it.
"""

from __future__ import annotations

import contextlib
import errno
import io
import os
import stat
from pathlib import Path
from typing import TextIO, cast

#: What a settings or instructions file may be at most, unless the caller says otherwise.
DEFAULT_LIMIT = 4 * 1024 * 1024


def read_regular(path: str | Path, limit: int = DEFAULT_LIMIT) -> bytes:
    """The bytes of the regular file at `path` (symlinks followed), at most `limit` of them.

    Raises FileNotFoundError when it does not exist, and OSError (EINVAL) for a pipe, device,
    socket or directory, (EFBIG) for a file over `limit`, or whatever opening it raised."""
    fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK | os.O_CLOEXEC)
    try:
        info = os.fstat(fd)
        if stat.S_ISDIR(info.st_mode):
            raise OSError(errno.EISDIR, "is a directory", str(path))
        if not stat.S_ISREG(info.st_mode):
            raise OSError(errno.EINVAL, "not a regular file (a pipe, device or socket)", str(path))
        if info.st_size > limit:
            raise OSError(errno.EFBIG, f"{info.st_size:,} bytes is more than the {limit:,}-byte limit", str(path))
        chunks: list[bytes] = []
        size = 0
        while size <= limit:
            chunk = os.read(fd, min(1 << 20, limit + 1 - size))
            if not chunk:
                break
            chunks.append(chunk)
            size += len(chunk)
        if size > limit:  # it grew while being read
            raise OSError(errno.EFBIG, f"more than the {limit:,}-byte limit", str(path))
        return b"".join(chunks)
    finally:
        os.close(fd)


def read_head(path: str | Path, limit: int) -> bytes:
    """The first `limit` bytes of the regular file at `path`: what the risk rules read of a
    script about to run. A FIFO named `x.sh` would block the rules (and the session) forever,
    so anything but a regular file is an OSError (EINVAL), as in `read_regular`."""
    fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK | os.O_CLOEXEC)
    try:
        if not stat.S_ISREG(os.fstat(fd).st_mode):
            raise OSError(errno.EINVAL, "not a regular file (a pipe, device or socket)", str(path))
        chunks: list[bytes] = []
        size = 0
        while size < limit and (chunk := os.read(fd, min(1 << 20, limit - size))):
            chunks.append(chunk)
            size += len(chunk)
        return b"".join(chunks)
    finally:
        os.close(fd)


def read_stream(stream: object, limit: int, what: str) -> bytes:
    """At most `limit` bytes of a binary stream (standard input), or OSError (EFBIG) naming `what`."""
    read = stream.read  # type: ignore[attr-defined]
    data: bytes = read(limit + 1)
    if len(data) > limit:
        raise OSError(errno.EFBIG, f"{what} is more than the {limit:,}-byte limit")
    return data


def open_regular_for_append(path: str | Path) -> TextIO:
    """`path` opened to append text, created if missing — refused (OSError) unless it is a
    regular file: opening a FIFO someone left in its place would block until a reader came."""
    try:
        fd = os.open(path, os.O_WRONLY | os.O_APPEND | os.O_CREAT | os.O_NONBLOCK | os.O_CLOEXEC, 0o600)
    except OSError as exc:
        if exc.errno == errno.ENXIO:  # a FIFO with no reader
            raise OSError(errno.EINVAL, "not a regular file (a pipe, device or socket)", str(path)) from None
        raise
    if not stat.S_ISREG(os.fstat(fd).st_mode):
        os.close(fd)
        raise OSError(errno.EINVAL, "not a regular file (a pipe, device or socket)", str(path))
    os.set_blocking(fd, True)
    return cast(TextIO, _LossyAppend(fd))


class _LossyAppend(io.TextIOBase):
    """Text appended with one unbuffered write each, and a failed write (a full disk, a log
    that became read-only) dropped: this is a diagnostic log, and `logging` answers a handler's
    OSError by printing a traceback on the user's terminal — on a full disk, for every record."""

    def __init__(self, fd: int) -> None:
        super().__init__()
        self._fd = fd

    def writable(self) -> bool:
        return True

    def fileno(self) -> int:
        return self._fd

    def write(self, text: str) -> int:
        with contextlib.suppress(OSError):
            os.write(self._fd, text.encode("utf-8", errors="replace"))
        return len(text)

    def close(self) -> None:
        if not self.closed:
            with contextlib.suppress(OSError):
                os.close(self._fd)
        super().close()
