"""Standard streams a launcher left closed or unable to show text: make them safe first.

A process started with fd 0, 1 or 2 closed (`tui <&-`, a service manager, a cron job) gets
`sys.stdin`/`sys.stdout`/`sys.stderr` set to None, so the first `isatty()` or `write()` is a
traceback; worse, the next file the run opens (its session log) takes the free descriptor, and
whatever then writes to "standard output" writes into that file. Each missing descriptor is
put back as /dev/null before anything else is opened.

A standard output whose encoding cannot show the model's text (`PYTHONIOENCODING=ascii`, a
Latin-1 locale) would end the run with a UnicodeEncodeError on the first non-ASCII answer:
such characters are shown as `?` instead.
"""

from __future__ import annotations

import contextlib
import io
import os
import sys

_STREAMS = ((0, os.O_RDONLY, "stdin", "r"), (1, os.O_WRONLY, "stdout", "w"), (2, os.O_WRONLY, "stderr", "w"))


def make_standard_streams_safe() -> None:
    """Give every closed standard descriptor /dev/null, and every text stream a way to show
    what its encoding cannot."""
    for fd, flags, name, mode in _STREAMS:
        try:
            os.fstat(fd)
        except OSError:  # closed: the lowest free descriptor is this one, so it lands in place
            spare = os.open(os.devnull, flags)
            if spare != fd:
                os.dup2(spare, fd)
                os.close(spare)
        if getattr(sys, name) is None:
            stream = open(fd, mode, encoding="utf-8", errors="replace", closefd=False)  # noqa: SIM115 - lives as long as the process
            setattr(sys, name, stream)
            setattr(sys, f"__{name}__", stream)
    for stream in (sys.stdout, sys.stderr):
        if isinstance(stream, io.TextIOWrapper) and stream.errors == "strict":
            with contextlib.suppress(ValueError, OSError):  # detached or closed: leave it alone
                stream.reconfigure(errors="replace")
