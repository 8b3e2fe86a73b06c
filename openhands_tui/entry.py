"""The `tui` command's entry point: hand the run to a warm server if one fits (`warm/`),
before anything else is imported; otherwise start the command line as usual."""

from __future__ import annotations

import signal
import sys


def _interrupted_while_starting(signum: int, frame: object) -> None:
    raise SystemExit(130)


def main() -> None:
    # Ctrl-C before the command line takes over (finding a warm server, importing the CLI) is
    # a quiet exit 130, not a KeyboardInterrupt traceback; cli.main() installs the usual handler.
    signal.signal(signal.SIGINT, _interrupted_while_starting)
    # Before the warm client opens its socket: a closed fd 0-2 would otherwise be given to it.
    from openhands_tui.standard_streams import make_standard_streams_safe

    make_standard_streams_safe()
    from openhands_tui.warm.client import hand_over

    code = hand_over(sys.argv[1:])
    if code is not None:
        sys.exit(code)
    from openhands_tui.startup import collector_paused

    with collector_paused():
        from openhands_tui.cli import main as run_cold

    code = run_cold()
    from openhands_tui.process_exit import exit_without_waiting_on_strays

    exit_without_waiting_on_strays(code)
