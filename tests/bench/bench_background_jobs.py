"""What a background job costs: the time from the terminal's `background: true` call to its
answer for a job that prints at once (`echo`; the answer waits a moment after the first output),
for a job that prints nothing (`sleep`; it waits the whole first-output second), and the time to
stop a running job — sandboxed (when bubblewrap runs) and with `--sandbox off`. Medians over
the rounds, in ms.

Usage: python tests/bench/bench_background_jobs.py [rounds]   (default: 5)
"""

from __future__ import annotations

import asyncio
import statistics
import sys
import tempfile
import time
from pathlib import Path

from openhands_tui.jail.bubblewrap import find_bubblewrap
from openhands_tui.sdk.sandbox import SandboxPolicy
from openhands_tui.sdk.tool import ToolContext
from openhands_tui.tools.terminal import TerminalAction, create_terminal
from openhands_tui.tools.terminal.jobs_tool import JobsAction


async def _round(workspace: Path, mode: str) -> tuple[float, float, float]:
    terminal, jobs = create_terminal({}, ToolContext(workspace, "root", sandbox=SandboxPolicy(mode=mode)))
    await terminal.run(TerminalAction(command="true"))  # the shell (and its jail) started
    started = time.perf_counter()
    await terminal.run(TerminalAction(command="echo up; sleep 30", background=True))
    printing = time.perf_counter() - started
    started = time.perf_counter()
    await terminal.run(TerminalAction(command="sleep 30", background=True))
    silent = time.perf_counter() - started
    started = time.perf_counter()
    await jobs.run(JobsAction(action="stop", job_id="job1"))
    stop = time.perf_counter() - started
    await terminal.close()
    return printing, silent, stop


def main() -> None:
    rounds = int(sys.argv[1]) if len(sys.argv) > 1 else 5
    modes = ["workspace-write", "off"] if find_bubblewrap().path else ["off"]
    with tempfile.TemporaryDirectory() as tmp:
        for mode in modes:
            results = [asyncio.run(_round(Path(tmp), mode)) for _ in range(rounds)]
            printing, silent, stop = (statistics.median(column) * 1000 for column in zip(*results, strict=True))
            print(
                f"sandbox {mode:15} start (prints) {printing:6.0f} ms  "
                f"start (silent) {silent:6.0f} ms  stop {stop:6.0f} ms"
            )


if __name__ == "__main__":
    main()
