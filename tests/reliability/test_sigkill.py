"""Power-cut safety, approximated by SIGKILL: a headless run is killed at 20 random points and
resumed each time. Every resume starts; every event the process had written (it printed it
only after writing it) is still in the log; no torn line is read as data; no step runs twice;
and the last resume, a fresh `python -m openhands_tui`, finishes the task.

The killed runs are forked from a pre-warmed process (forker.py) so that twenty rounds do not
spend a minute importing litellm; each is a real process running the real CLI."""

from __future__ import annotations

import json
import os
import random
import signal
import subprocess
import sys
import time
from pathlib import Path

from openhands_tui.sdk.store import SessionStore
from openhands_tui.testing import Script, ScriptedToolCall, Turn

KILLS = 20
STEPS = 100


def _step(n: int) -> Turn:
    command = f"echo {n} >> steps.txt"
    return Turn(tool_calls=[ScriptedToolCall(name="terminal", arguments={"command": command})], delay=0.02)


class Forker:
    def __init__(self) -> None:
        env = {**os.environ, "LLM_NUM_RETRIES": "0", "LLM_TIMEOUT": "20"}
        self.process = subprocess.Popen(
            [sys.executable, str(Path(__file__).with_name("forker.py"))],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            text=True,
            env=env,
        )
        assert self._read() == "ready"

    def _read(self) -> str:
        assert self.process.stdout is not None
        return self.process.stdout.readline().strip()

    def start(self, args: list[str], out: Path) -> int:
        assert self.process.stdin is not None
        self.process.stdin.write(json.dumps({"args": args, "out": str(out)}) + "\n")
        self.process.stdin.flush()
        return int(self._read())

    def ended(self) -> str:
        return self._read()

    def close(self) -> None:
        self.process.kill()
        self.process.wait()


def _printed_ids(out: Path) -> list[str]:
    """Ids of the events the process printed on complete lines (each printed after it was written)."""
    if not out.exists():
        return []  # the child has not opened it yet
    lines = out.read_bytes().split(b"\n")[:-1]
    return [json.loads(line)["id"] for line in lines]


def test_twenty_sigkills_twenty_resumes(serve, workspace: Path, isolated_home: Path, tmp_path: Path) -> None:
    server = serve([Script(turns=[*(_step(n) for n in range(STEPS)), Turn.finish("counted")])])
    model = ["--model", "openai/scripted", "--base-url", server.base_url, "--api-key", "k"]
    common = ["--headless", "--json", *model, "--workspace", str(workspace)]
    store = SessionStore(isolated_home / "state" / "openhands-tui")
    rng = random.Random(20261122)
    written: set[str] = set()
    torn = 0
    forker = Forker()
    try:
        for kill in range(KILLS):
            out = tmp_path / f"run{kill}.jsonl"
            task = ["--task", "echo the numbers into steps.txt"] if kill == 0 else ["--resume", "last"]
            pid = forker.start([*common, *task], out)
            deadline = time.monotonic() + 60
            while len(_printed_ids(out)) < 2:  # the run is under way
                assert time.monotonic() < deadline, f"run {kill} made no progress"
                time.sleep(0.005)
            time.sleep(rng.uniform(0, 0.25))
            os.kill(pid, signal.SIGKILL)
            assert forker.ended() == f"signal {signal.SIGKILL}", f"run {kill} ended before the kill"
            written |= set(_printed_ids(out))
            loaded = store.open("last").load()  # what the next resume reads (it truncates a torn line)
            torn += len(loaded.warnings)
            ids = [e.id for e in loaded.events]
            assert len(ids) == len(set(ids)), "an event was read twice"
            assert written <= set(ids), f"kill {kill}: {len(written - set(ids))} written events were lost"
    finally:
        forker.close()
    final = subprocess.run(
        [sys.executable, "-m", "openhands_tui", *common, "--resume", "last"],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert final.returncode == 0, final.stderr
    events = store.open("last").load().events
    assert events[-1].kind == "status" and events[-1].status == "finished"
    steps = (workspace / "steps.txt").read_text().split()
    assert len(steps) == len(set(steps)), "a step ran twice"
    interrupted = [e for e in events if e.kind == "observation" and e.outcome == "interrupted"]
    print(f"{KILLS} kills: {len(steps)} steps ran, {len(interrupted)} actions interrupted, {torn} torn lines dropped")
