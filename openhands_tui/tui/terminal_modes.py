"""Giving the terminal back when the app cannot leave the usual way.

On SIGHUP the app stops writing to its terminal (a dead one could block Textual's last writes
for ever) and leaves. But SIGHUP is also what `kill -HUP`, a supervisor or a multiplexer sends
while the terminal is still open: it was left on the alternate screen, the cursor hidden, mouse
reporting and raw input on. So before letting go, the modes the app set are reset with one
write that cannot block, and the line settings saved before the app started are put back;
on a terminal that is really gone both fail at once and are ignored.
"""

from __future__ import annotations

import contextlib
import fcntl
import os
import termios
from typing import Any

#: Leave the alternate screen, show the cursor, wrap lines again, and turn off mouse reporting,
#: focus events, bracketed paste and the kitty keyboard protocol.
RESET = (
    b"\x1b[?1049l\x1b[?25h\x1b[?7h\x1b[?1000l\x1b[?1002l\x1b[?1003l\x1b[?1006l\x1b[?1015l\x1b[?1004l\x1b[?2004l\x1b[<u"
)


def saved_line_settings(fd: int = 0) -> list[Any] | None:
    """The terminal's line settings before the app changes them (None: not a terminal)."""
    try:
        return termios.tcgetattr(fd)
    except (OSError, termios.error):
        return None


def give_back(settings: list[Any] | None, out: int = 1, fd: int = 0) -> None:
    """Reset what the app set on the terminal, never waiting on it."""
    with contextlib.suppress(OSError):
        flags = fcntl.fcntl(out, fcntl.F_GETFL)
        fcntl.fcntl(out, fcntl.F_SETFL, flags | os.O_NONBLOCK)
        try:
            os.write(out, RESET)
        finally:
            fcntl.fcntl(out, fcntl.F_SETFL, flags)
    if settings is not None:
        with contextlib.suppress(OSError, termios.error):
            termios.tcsetattr(fd, termios.TCSANOW, settings)  # TCSANOW: no waiting for output to drain
