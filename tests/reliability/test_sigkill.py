"""Power-cut safety, approximated by SIGKILL: a headless run is killed at 20 random points and
resumed each time. Every resume starts; every event the process had written (it printed it
only after writing it) is still in the log; no torn line is read as data; no step runs twice;
and the last resume, a fresh `python -m openhands_tui`, finishes the task.

The killed runs are forked from a pre-warmed process (tests/warm_tui.py) so that twenty rounds do not
spend a minute importing litellm; each is a real process running the real CLI."""

from __future__ import annotations

import json
import os
import random
import signal
import time
from pathlib import Path

from openhands_tui.sdk.facts.store import SessionStore
from openhands_tui.testing import Script, ScriptedToolCall, Turn
from tests.conftest import model_args
from tests.launcher import WarmLauncher

KILLS = 20
STEPS = 100


def _step(n: int) -> Turn:
    command = f"echo {n} >> steps.txt"
    return Turn(tool_calls=[ScriptedToolCall(name="terminal", arguments={"command": command})], delay=0.02)


def _printed_ids(out: Path) -> list[str]:
    """Ids of the events the process printed on complete lines (each printed after it was written)."""
    if not out.exists():
        return []  # the child has not opened it yet
    lines = out.read_bytes().split(b"\n")[:-1]
    return [json.loads(line)["id"] for line in lines]


def test_twenty_sigkills_twenty_resumes(
    serve, workspace: Path, isolated_home: Path, tmp_path: Path, forker: WarmLauncher
) -> None:
    server = serve([Script(turns=[*(_step(n) for n in range(STEPS)), Turn.finish("counted")])])
    common = ["--headless", "--json", *model_args(server), "--workspace", str(workspace)]
    store = SessionStore(isolated_home / "state" / "openhands-tui")
    rng = random.Random(20261122)
    written: set[str] = set()
    torn = 0
    env = {"LLM_NUM_RETRIES": "0", "LLM_TIMEOUT": "20"}
    before: list = []
    for kill in range(KILLS):
        out = tmp_path / f"run{kill}.jsonl"
        task = ["--task", "echo the numbers into steps.txt"] if kill == 0 else ["--resume", "last"]
        pid = forker.start([*common, *task], out, env=env)
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
        assert loaded.events[: len(before)] == before, "a stored event was rewritten"
        before = loaded.events
    final = forker.run([*common, "--resume", "last"], tmp_path)
    assert final.returncode == 0, final.stderr
    events = store.open("last").load().events
    assert events[: len(before)] == before
    assert events[-1].kind == "status" and events[-1].status == "finished"
    answered = {e.tool_call_id for e in events if e.kind in ("observation", "agent_error")}
    assert all(e.tool_call_id in answered for e in events if e.kind == "action")
    steps = (workspace / "steps.txt").read_text().split()
    assert len(steps) == len(set(steps)), "a step ran twice"
    interrupted = [e for e in events if e.kind == "observation" and e.outcome == "interrupted"]
    print(f"{KILLS} kills: {len(steps)} steps ran, {len(interrupted)} actions interrupted, {torn} torn lines dropped")
