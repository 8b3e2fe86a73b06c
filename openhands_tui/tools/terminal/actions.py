"""What the `terminal` takes and gives back, wherever its commands run: the local shell (`tool.py`)
and an agent-server's (`remote.py`) share these, so a command is rated and shown the same way."""

from __future__ import annotations

from pydantic import Field

from openhands_tui.sdk.tool import Observation, RiskyAction

DEFAULT_TIMEOUT = 120.0
MAX_TIMEOUT = 1800.0


class TerminalAction(RiskyAction):
    command: str = Field(
        description=(
            "The bash command to run. The session persists between calls (cd, exported variables). "
            "Stdin is closed, so use non-interactive flags (e.g. `-y`, `--no-pager`). Chain steps "
            "with && when a later step needs an earlier one to succeed."
        )
    )
    timeout: float | None = Field(
        default=None,
        description=(
            f"Seconds before the command and everything it started are killed "
            f"(default {DEFAULT_TIMEOUT:g}, at most {MAX_TIMEOUT:g}). Raise it for long builds or test runs."
        ),
    )
    background: bool = Field(
        default=False,
        description=(
            "Start the command as a background job and return at once with its job id and first "
            "output (a dev server, a watcher). It runs in the same sandbox and sees the same network "
            "(a server it starts answers later commands on localhost); it has no timeout. Use the "
            "`jobs` tool to list jobs, read their new output and stop them. Jobs end with the session."
        ),
    )


class TerminalObservation(Observation):
    #: What the command printed, without the exit-code line (the SDK's `output`).
    output: str = ""
    command: str
    exit_code: int | None
    cwd: str
    timed_out: bool = False
    omitted_bytes: int = 0
