"""MCP servers: what they cost the command line and the app, and read-only calls side by side.

1. `tui mcp list` with three servers configured (target <= 1 s): it reads the files only.
2. Launch -> first interactive frame in tmux with three real servers configured (two
   mcp-server-time, one mcp-server-git) vs none (target: within 50 ms): servers start in the
   background on the engine's loop and the `mcp` SDK is imported in a worker thread.
3. One model response with 8 read-only calls to a streamable-HTTP server whose tool takes
   0.5 s (target <= 1.0 s from the first call to the last result), and a response mixing reads
   and a write: when each started and ended on the server (the write after the reads before it).

Usage: python tests/bench/bench_mcp.py [list|frame|parallel|all] [runs]
"""

from __future__ import annotations

import asyncio
import json
import os
import shlex
import shutil
import subprocess
import sys
import tempfile
import time
from datetime import datetime
from pathlib import Path

from _common import describe

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))  # the repository: tests.mcp.servers

from tests.mcp.servers import HTTPServer, git_repo, git_server, time_server

TUI = shutil.which("tui") or os.path.join(os.path.dirname(sys.executable), "tui")


TAG = "bench-mcp-server"


def _config_home(servers: int) -> str:
    home = tempfile.mkdtemp()
    config = Path(home) / "c" / "openhands-tui"
    config.mkdir(parents=True)
    if servers:
        repo = git_repo(Path(home) / "repo")
        entries = {"time": time_server(TAG), "clock": time_server(TAG), "git": git_server(repo, TAG)}
        (config / "mcp.json").write_text(json.dumps({"mcpServers": dict(list(entries.items())[:servers])}))
    return home


def bench_list(runs: int) -> None:
    home = _config_home(3)
    env = {**os.environ, "HOME": home, "XDG_CONFIG_HOME": f"{home}/c", "XDG_STATE_HOME": f"{home}/s"}
    times = []
    for _ in range(runs + 1):
        started = time.perf_counter()
        out = subprocess.run([TUI, "mcp", "list"], env=env, capture_output=True, text=True, check=True, cwd=home)
        times.append(time.perf_counter() - started)
    assert out.stdout.count("enabled") == 3, out.stdout
    print(f"tui mcp list, 3 servers: {describe(times[1:])}")


def bench_frame(runs: int) -> None:
    """Launches with and without servers alternate, so a load spike on the shared machine
    hits both; each pair is compared, and the median of the paired differences reported."""
    if shutil.which("tmux") is None:
        print("frame: tmux is not installed")
        return
    commands = {}
    for servers in (0, 3):
        home = _config_home(servers)
        env = (
            f"env -u COLUMNS -u LINES HOME={home} XDG_STATE_HOME={home}/s XDG_CONFIG_HOME={home}/c TERM=xterm-256color"
        )
        args = shlex.join([TUI, "--model", "openai/x", "--base-url", "http://127.0.0.1:9/v1", "--workspace", home])
        commands[servers] = f"{env} {args}"
    results: dict[int, list[float]] = {0: [], 3: []}
    for _ in range(runs + 1):  # one at a time: the last run's servers gone before the next starts
        for servers in (0, 3):
            results[servers] += _one_frame(commands[servers])
            _wait_for_servers_to_exit()
    import statistics

    for servers in (0, 3):
        results[servers] = results[servers][1:]  # the first pair only warms file caches
        print(f"launch -> interactive frame, {servers} MCP servers: {describe(results[servers])}")
    pairs = [(with_ - without) * 1000 for without, with_ in zip(results[0], results[3], strict=True)]
    print(f"paired difference (3 servers - none): median {statistics.median(pairs):+.0f} ms (target: within 50 ms)")


def _one_frame(command: str) -> list[float]:
    import uuid

    session = f"bench-{uuid.uuid4().hex[:6]}"
    started = time.perf_counter()
    subprocess.run(["tmux", "new-session", "-d", "-s", session, "-x", "140", "-y", "40", command], check=True)
    try:
        while (
            "Type a task"
            not in subprocess.run(["tmux", "capture-pane", "-t", session, "-p"], capture_output=True, text=True).stdout
        ):
            if time.perf_counter() - started > 60:
                raise RuntimeError("the app never showed its prompt")
            time.sleep(0.005)
        return [time.perf_counter() - started]
    finally:
        subprocess.run(["tmux", "kill-session", "-t", session], capture_output=True)


def _wait_for_servers_to_exit() -> None:
    from tests.conftest import live_processes

    deadline = time.monotonic() + 15
    while live_processes(TAG) and time.monotonic() < deadline:
        time.sleep(0.1)
    time.sleep(0.5)  # and the machine settles


async def _parallel() -> None:
    from _common import server_process

    import openhands_tui.tools  # noqa: F401 - registers the tools and the MCP client
    from openhands_tui.sdk import LLM, Agent, Conversation, ConversationParts
    from openhands_tui.testing import Script, ScriptedToolCall, Turn

    def lookup(key: str) -> ScriptedToolCall:
        return ScriptedToolCall(name="web__lookup", arguments={"key": key})

    mixed = [lookup("a"), lookup("b"), ScriptedToolCall(name="web__record", arguments={"note": "w"}), lookup("c")]
    scripts = [
        Script(
            name="eight",
            match_user="eight",
            turns=[Turn(tool_calls=[lookup(f"k{n}") for n in range(8)]), Turn.finish()],
        ),
        Script(name="mixed", match_user="mixed", turns=[Turn(tool_calls=mixed), Turn.finish()]),
    ]
    web = HTTPServer(delay=0.5).start()
    try:
        with server_process(scripts) as base_url, tempfile.TemporaryDirectory() as workspace:
            for task in ("eight", "mixed"):
                web.calls.clear()
                events: list = []
                llm = LLM(model="openai/scripted", api_key="k", base_url=base_url)
                agent = Agent(llm=llm, tools=[], mcp_config={"mcpServers": {"web": web.config()}})
                parts = ConversationParts(subscribers=[events.append])
                conversation = Conversation(agent, workspace=Path(workspace), parts=parts)
                try:
                    await conversation.run(task)
                finally:
                    await conversation.close()
                stamps = [datetime.fromisoformat(e.timestamp) for e in events if e.kind in ("action", "observation")]
                stamps = stamps[:-2]  # not `finish`
                took = (max(stamps) - min(stamps)).total_seconds()
                if task == "eight":
                    print(f"8 read-only MCP calls of 0.5 s in one response: {took:.3f} s (target <= 1.0 s)")
                else:
                    origin = min(start for _, _, start, _ in web.calls)
                    order = "  ".join(
                        f"{tool}({arg}) {start - origin:.2f}-{end - origin:.2f}s" for tool, arg, start, end in web.calls
                    )
                    print(f"reads a, b, write w, read c: {order}")
    finally:
        web.stop()


def main() -> None:
    what = sys.argv[1] if len(sys.argv) > 1 else "all"
    runs = int(sys.argv[2]) if len(sys.argv) > 2 else 5
    if what in ("list", "all"):
        bench_list(runs)
    if what in ("frame", "all"):
        bench_frame(runs)
    if what in ("parallel", "all"):
        asyncio.run(_parallel())


if __name__ == "__main__":
    main()
