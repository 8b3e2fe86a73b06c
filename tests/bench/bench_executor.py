"""What running an agent's commands and edits on an OpenHands agent-server costs against running
them here: the same commands through the terminal tool in the local jail (workspace-write) and on
a real agent-server on the loopback address (`tests/agent_server_fixture.py` starts it: Python
3.12+), interleaved, and a file written then read through the file editor both ways.

    python tests/bench/bench_executor.py [--commands 40] [--rounds 3]

The remote terminal's persistent shell is emulated (`executors/agent_server/shell.py`): one HTTP
request a command, carrying the restore and save of `cd` and exported variables.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path

from openhands_tui.sdk.executor import ExecutorSpec
from openhands_tui.sdk.sandbox import SandboxPolicy
from openhands_tui.sdk.tool import ToolContext
from openhands_tui.tools.file_editor import FileEditorAction
from openhands_tui.tools.file_editor.tool import create_file_editor
from openhands_tui.tools.terminal import TerminalAction
from openhands_tui.tools.terminal.tool import create_terminal

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))  # the repository: tests.agent_server_fixture
from tests.agent_server_fixture import running_server

COMMANDS = ["true", "echo hello", "ls -la", "cd . && pwd"]


async def commands(ctx: ToolContext, count: int) -> list[float]:
    terminal = create_terminal({}, ctx)[0]
    await terminal.run(TerminalAction(command="true"))  # the shell (or the first request) starts here
    times = []
    for n in range(count):
        begin = time.perf_counter()
        await terminal.run(TerminalAction(command=COMMANDS[n % len(COMMANDS)]))
        times.append((time.perf_counter() - begin) * 1000)
    await terminal.close()
    return times


async def edits(ctx: ToolContext, count: int) -> list[float]:
    editor = create_file_editor({}, ctx)[0]
    times = []
    for n in range(count):
        begin = time.perf_counter()
        await editor.run(FileEditorAction(command="create", path=f"bench-{n}.txt", file_text="x\n" * 100))
        await editor.run(FileEditorAction(command="view", path=f"bench-{n}.txt"))
        times.append((time.perf_counter() - begin) * 1000)
    await editor.close()
    return times


async def main(count: int, rounds: int) -> None:
    scratch = Path(tempfile.mkdtemp(prefix="bench-executor-"))
    with running_server(scratch / "server-home") as server:
        if isinstance(server, str):
            print(f"no agent-server: {server}")
            return
        spec = ExecutorSpec(kind="agent-server", url=server.url, key=server.key)
        results: dict[str, dict[str, list[float]]] = {"local jail": {}, "agent-server": {}}
        for round_number in range(rounds):  # interleaved, so load changes hit both alike
            for where in results:
                workspace = scratch / f"{where.replace(' ', '-')}-{round_number}"
                workspace.mkdir()
                ctx = ToolContext(workspace, "root", sandbox=SandboxPolicy(mode="workspace-write"))
                if where == "agent-server":
                    ctx.executor = spec
                results[where].setdefault("command", []).extend(await commands(ctx, count))
                results[where].setdefault("create+view", []).extend(await edits(ctx, count // 4 or 1))
                await ctx.services.aclose()
    print(f"load: {os.getloadavg()[0]:.2f} (1-min average)  commands per executor: {count * rounds}")
    for what in ("command", "create+view"):
        local = statistics.median(results["local jail"][what])
        remote = statistics.median(results["agent-server"][what])
        print(
            f"{what:12} local jail {local:6.1f} ms   agent-server {remote:6.1f} ms   "
            f"overhead {remote - local:+6.1f} ms (medians)"
        )


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--commands", type=int, default=40)
    parser.add_argument("--rounds", type=int, default=3)
    arguments = parser.parse_args()
    asyncio.run(main(arguments.commands, arguments.rounds))
