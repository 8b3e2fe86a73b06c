"""Which warm server a run may use: one started by the same Python, from the same installed
files, in the same environment. The socket's name carries a fingerprint of all three, so a
server left over from before an upgrade or started with other settings is never found.

Computed on every run before anything heavy is imported, so it only stats files (~2 ms).
"""

from __future__ import annotations

import hashlib
import os
import sys
from collections.abc import Mapping

import openhands_tui

# Only cheap standard modules here (no pathlib, tempfile, sysconfig): every run imports this.

#: Variables that describe one terminal or shell rather than the user's settings. No module the
#: server imports reads them at import time; a forked run sees the client's values, as any run.
TERMINAL_VARIABLES = frozenset(
    {
        "_",
        "PWD",
        "OLDPWD",
        "SHLVL",
        "COLUMNS",
        "LINES",
        "TERM",
        "COLORTERM",
        "TERM_PROGRAM",
        "TERM_PROGRAM_VERSION",
        "TMUX",
        "TMUX_PANE",
        "WINDOWID",
        "SSH_TTY",
        "GPG_TTY",
        "STY",
        "VTE_VERSION",
        "KITTY_WINDOW_ID",
        "ITERM_SESSION_ID",
    }
)
#: Turns the warm start off for one run (any non-empty value).
COLD_VARIABLE = "OPENHANDS_TUI_COLD"


def _installed_files() -> list[str]:
    """This package's source files with their sizes and modification times, and the names of
    the installed distributions (names carry versions): an edit or upgrade changes the key."""
    entries = []
    package = os.path.dirname(openhands_tui.__file__)
    for directory, subdirectories, files in os.walk(package):
        subdirectories[:] = [d for d in subdirectories if d != "__pycache__"]
        for name in files:
            if name.endswith(".py"):
                stat = os.stat(os.path.join(directory, name))
                entries.append(f"{directory}/{name}:{stat.st_size}:{stat.st_mtime_ns}")
    for location in sorted({p for p in sys.path if p.endswith(("site-packages", "dist-packages"))}):
        try:
            entries.extend(sorted(n for n in os.listdir(location) if n.endswith((".dist-info", ".egg-info"))))
        except OSError:
            continue
    return sorted(entries)


def fingerprint(environ: Mapping[str, str]) -> str:
    """A digest of the interpreter, the installed files and the environment `environ` minus
    the terminal's own variables."""
    digest = hashlib.sha256()
    digest.update(f"{sys.executable}\0{sys.version}\0".encode())
    for entry in _installed_files():
        digest.update(entry.encode() + b"\0")
    for name in sorted(set(environ) - TERMINAL_VARIABLES - {COLD_VARIABLE}):
        digest.update(f"{name}={environ[name]}\0".encode(errors="surrogateescape"))
    return digest.hexdigest()[:24]


def socket_directory() -> str:
    """Private to this user: whoever can connect can run code as the user. And out of the
    agent's sight: a read-only mount does not stop `connect()`, so the socket lives only where
    the sandbox mounts something empty over the host's directory (its private /tmp, its empty
    /run), never under TMPDIR or the home directory, which commands can see."""
    runtime = os.environ.get("XDG_RUNTIME_DIR") or ""
    base = runtime if runtime.startswith("/run/") and os.path.isdir(runtime) else "/tmp"
    return os.path.join(base, f"openhands-tui-warm-{os.getuid()}")


def socket_path(environ: Mapping[str, str]) -> str:
    return os.path.join(socket_directory(), f"{fingerprint(environ)}.sock")
