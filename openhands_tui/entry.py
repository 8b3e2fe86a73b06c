"""The `tui` command's entry point: hand the run to a warm server if one fits (`warm/`),
before anything else is imported; otherwise start the command line as usual."""

from __future__ import annotations

import sys


def main() -> None:
    from openhands_tui.warm.client import hand_over

    code = hand_over(sys.argv[1:])
    if code is not None:
        sys.exit(code)
    from openhands_tui.cli import main as run_cold

    sys.exit(run_cold())
