"""What the sandbox costs a command: the same commands through the terminal tool with the
sandbox on (bubblewrap, workspace-write) and off, interleaved, plus starting the shell.

    python tests/bench/bench_sandbox.py [--commands 200]

Target (issue 13): at most 10 ms more per command than without the sandbox.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import statistics
import tempfile
import time
from pathlib import Path

from openhands_tui.sdk.sandbox import SandboxPolicy
from openhands_tui.sdk.tool import ToolContext
from openhands_tui.tools.terminal import TerminalAction, TerminalTool

COMMANDS = ["true", "echo hello", "ls -la", "cd . && pwd", "git --version"]


async def measure(mode: str, workspace: Path, count: int) -> tuple[float, list[float]]:
    started = time.perf_counter()
    tool = TerminalTool(ToolContext(workspace, "root", sandbox=SandboxPolicy(mode=mode)))  # type: ignore[arg-type]
    await tool.run(TerminalAction(command="true"))  # the shell (and jail) starts here
    startup = time.perf_counter() - started
    times = []
    for n in range(count):
        begin = time.perf_counter()
        await tool.run(TerminalAction(command=COMMANDS[n % len(COMMANDS)]))
        times.append((time.perf_counter() - begin) * 1000)
    await tool.close()
    return startup * 1000, times


async def main(count: int, rounds: int) -> None:
    workspace = Path(tempfile.mkdtemp(prefix="bench-sandbox-"))
    (workspace / "AGENTS.md").write_text("x\n")  # a protected file, so the guard has work to do
    results: dict[str, tuple[list[float], list[float]]] = {"off": ([], []), "workspace-write": ([], [])}
    for _ in range(rounds):  # interleaved, so load changes hit both alike
        for mode in results:
            startup, times = await measure(mode, workspace, count)
            results[mode][0].append(startup)
            results[mode][1].extend(times)
    print(f"load: {os.getloadavg()[0]:.2f} (1-min average)  commands per mode: {count * rounds}")
    for mode, (startups, times) in results.items():
        p95 = statistics.quantiles(times, n=20)[-1]
        print(
            f"  sandbox {mode:<16} per command median {statistics.median(times):6.2f} ms  p95 {p95:6.2f} ms"
            f"   shell start median {statistics.median(startups):6.1f} ms"
        )
    off, on = (statistics.median(results[m][1]) for m in ("off", "workspace-write"))
    print(f"  overhead per command: {on - off:+.2f} ms (target <= +10 ms)")


if __name__ == "__main__":
    parser = argparse.ArgumentParser()
    parser.add_argument("--commands", type=int, default=200)
    parser.add_argument("--rounds", type=int, default=3)
    args = parser.parse_args()
    asyncio.run(main(args.commands, args.rounds))
