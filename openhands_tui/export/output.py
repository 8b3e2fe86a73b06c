"""Writing an export to the file the user named: all of it or none of it.

The text is written to a temporary file beside the target and renamed over it once it is
complete and on disk, so a full disk, a quota or an interrupt never leaves half an export
where a whole one is expected, and never spoils an earlier export at that path.
"""

from __future__ import annotations

import contextlib
import errno
import os
import stat
import tempfile
from pathlib import Path


class OutputError(Exception):
    """One line naming `--output` and the cause; exit 2 if nothing could be started, 1 if the
    write failed part way."""

    def __init__(self, message: str, exit_code: int) -> None:
        super().__init__(message)
        self.exit_code = exit_code


def write_whole(path: Path, text: str) -> None:
    data = text.encode("utf-8")
    if _is_dir(path):
        raise OutputError(f"--output {path}: is a directory", 2)
    mode = _mode_for(path)
    try:
        handle, temporary = tempfile.mkstemp(dir=path.parent, prefix=".tui-export-", suffix=".tmp")
    except OSError as exc:
        raise OutputError(f"--output {path}: cannot write there ({_why(exc)})", 2) from None
    try:
        with os.fdopen(handle, "wb") as out:
            os.fchmod(out.fileno(), mode)
            out.write(data)
            out.flush()
            os.fsync(out.fileno())
        os.replace(temporary, path)
    except OSError as exc:
        _remove(temporary)
        raise OutputError(f"--output {path}: {_why(exc)}; nothing was written", 1) from None
    except BaseException:
        _remove(temporary)
        raise


def _is_dir(path: Path) -> bool:
    try:
        return stat.S_ISDIR(path.stat().st_mode)
    except OSError:  # not there, or not ours to look at: creating the file will say
        return False


def _mode_for(path: Path) -> int:
    """The permissions the file keeps if it exists, else those a new file gets (the umask's)."""
    with contextlib.suppress(OSError):
        return stat.S_IMODE(path.stat().st_mode)
    umask = os.umask(0o022)
    os.umask(umask)
    return 0o666 & ~umask


def _why(exc: OSError) -> str:
    if exc.errno in (errno.ENOSPC, errno.EDQUOT):
        return "disk full"
    return exc.strerror or str(exc)


def _remove(temporary: str) -> None:
    with contextlib.suppress(OSError):
        os.unlink(temporary)
