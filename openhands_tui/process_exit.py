"""The end of a `tui` process: it exits when its run is over, whatever threads are left.

Python waits at exit for every non-daemon thread. A strategy (or a library it calls) that
started one and never stopped it made `tui` print "finished" and then hang for ever, holding
the terminal, a CI job or an editor's agent process. A run's own threads are joined by the
code that started them; anything still running once the command is done gets a short grace to
end by itself, then is named on stderr and left behind by exiting the process directly, after
what a normal exit would run (atexit handlers, logging's flush).
"""

from __future__ import annotations

import atexit
import contextlib
import logging
import os
import sys
import threading
import time

#: How long threads left at the end may take to finish by themselves.
GRACE_SECONDS = 2.0


def exit_without_waiting_on_strays(code: int) -> None:
    """Exit with `code`; a non-daemon thread still running after the grace does not hold the
    process (it is named on stderr)."""
    strays = _running_strays(GRACE_SECONDS)
    if not strays:
        sys.exit(code)
    names = ", ".join(sorted(thread.name for thread in strays))
    with contextlib.suppress(Exception):
        print(f"tui: not waiting for threads still running after the run ended ({names})", file=sys.stderr)
    logging.shutdown()
    atexit._run_exitfuncs()  # what the interpreter's exit would run; os._exit below skips it
    for stream in (sys.stdout, sys.stderr):
        with contextlib.suppress(Exception):
            stream.flush()
    os._exit(code)


def _running_strays(grace: float) -> list[threading.Thread]:
    deadline = time.monotonic() + grace
    strays = _strays()
    for thread in strays:
        thread.join(max(0.0, deadline - time.monotonic()))
    return [thread for thread in strays if thread.is_alive()]


def _strays() -> list[threading.Thread]:
    main = threading.main_thread()
    return [t for t in threading.enumerate() if t is not main and not t.daemon and t.is_alive()]
