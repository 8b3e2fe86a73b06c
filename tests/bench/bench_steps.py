"""Framework overhead per step of a headless run against an instant scripted model.

Each step is one model call (streamed, through the real litellm) that asks for one terminal
command (`echo`), the command run in the persistent shell, and every event written to
events.jsonl (fsynced before the tool runs). The server runs in its own process and answers
at once, so the time per step is what the framework (ours plus litellm) costs. "cpu ms/step" is
this process's CPU time (all its threads; not the server's, not the shell's): on a busy machine
it moves far less than the wall-clock figure. "own ms/step" is each step less its model call:
the loop's own work (events, the log, the tool). The request carries the whole history; what
is made of each message (litellm's clean copy and checks, its JSON) is made once per message,
not once per request (`llm/history.py`, `llm/litellm_import.py`), and the server parses only
what a request adds to the one before (`testing/http.py`: the fixture's own cost). What still
grows is moving the bytes (~600 KB a request at 2,000 steps). 2026-11-29, load 3.5-5.6,
interleaved with the code before: cpu ms/step 24.6 -> 25.6 and 23.8 -> 25.0 from 20 to 2,000
steps (1.04-1.05x; 1.79-1.82x before), ms/step 1.25x and 1.60x (1.52-2.01x before; the
wall-clock figure moves with the load).
Targets: <= 15 ms per step; per-step cost at 2,000 steps <= 1.3x that at 20 (issue 36).

Usage: python tests/bench/bench_steps.py [steps ...]   (default: 20 100 1000; the issue's: 20 2000)
"""

from __future__ import annotations

import asyncio
import statistics
import sys
import tempfile
import time
from pathlib import Path

from _common import server_process

import openhands_tui.tools  # noqa: F401
from openhands_tui.sdk import LLM, Agent, Conversation, ConversationParts
from openhands_tui.sdk.facts.event import ActionEvent, LLMUsageEvent, ObservationEvent
from openhands_tui.sdk.facts.store import SessionMeta, SessionStore
from openhands_tui.sdk.run.confirmation import ConfirmationMode, ConfirmationPolicy
from openhands_tui.sdk.run.runtime import Limits
from openhands_tui.testing import Script, Turn
from openhands_tui.tools.preset.default import get_default_tools


def _script(name: str, steps: int) -> Script:
    # a different command each step: the same command and output four times in a row is "stuck"
    turns = [Turn.call("terminal", command=f"echo {n}") for n in range(steps)]
    return Script(name=name, match_user=f"[{name}]", turns=[*turns, Turn.finish("done")])


async def _run(url: str, name: str, steps: int, state: Path) -> dict[str, float]:
    agent = Agent(llm=LLM(model="openai/scripted", api_key="k", base_url=url), tools=get_default_tools())
    log = SessionStore(state).create(SessionMeta(id=name))
    events: list = []
    parts = ConversationParts(
        log=log,
        subscribers=[events.append],
        policy=ConfirmationPolicy(mode=ConfirmationMode.NEVER),
        limits=Limits(max_iterations=steps + 5),
    )
    conversation = Conversation(agent, workspace=Path(tempfile.mkdtemp()), parts=parts)
    started, cpu_started = time.perf_counter(), time.process_time()
    outcome = await conversation.run(f"[{name}] run {steps} steps")
    elapsed, cpu = time.perf_counter() - started, time.process_time() - cpu_started
    await conversation.close()
    assert outcome.exit_code == 0, outcome
    llm_ms = [e.latency_ms for e in events if isinstance(e, LLMUsageEvent)]
    actions = {e.tool_call_id: e for e in events if isinstance(e, ActionEvent)}
    return {
        "per_step_ms": elapsed / (steps + 1) * 1000,
        # the loop's own time: each step less its model call (the request's JSON and the server)
        "own_ms": (elapsed * 1000 - sum(llm_ms)) / (steps + 1),
        "cpu_per_step_ms": cpu / (steps + 1) * 1000,
        "llm_median_ms": statistics.median(llm_ms),
        "llm_last_decile_ms": statistics.mean(sorted(llm_ms)[-max(1, len(llm_ms) // 10) :]),
        "observations": sum(isinstance(e, ObservationEvent) for e in events),
        "actions": len(actions),
    }


def _repeats(steps: int) -> int:
    """Short runs are noisy: repeat them so that each size covers at least ~500 steps."""
    return max(1, min(25, 500 // steps))


async def main(sizes: list[int]) -> None:
    names = {n: [f"n{n}r{r}" for r in range(_repeats(n))] for n in sizes}
    scripts = [_script("warmup", 3)] + [_script(name, n) for n in sizes for name in names[n]]
    with server_process(scripts) as url, tempfile.TemporaryDirectory() as state:
        await _run(url, "warmup", 3, Path(state))  # imports litellm, opens the connection
        runs = {n: [await _run(url, name, n, Path(state)) for name in names[n]] for n in sizes}
    results = {n: {key: statistics.median(r[key] for r in rs) for key in rs[0]} for n, rs in runs.items()}
    header = ("steps", 6), ("runs", 5), ("ms/step", 8), ("own ms/step", 12), ("cpu ms/step", 12)
    print(" ".join(f"{name:>{width}}" for name, width in header), f"{'model call median':>18} {'slowest 10%':>12}")
    for n, r in results.items():
        print(
            f"{n:>6} {len(runs[n]):>5} {r['per_step_ms']:>8.2f} {r['own_ms']:>12.2f} {r['cpu_per_step_ms']:>12.2f} "
            f"{r['llm_median_ms']:>15.2f} ms {r['llm_last_decile_ms']:>9.2f} ms"
        )
    first, last = sizes[0], sizes[-1]
    ratio = results[last]["per_step_ms"] / results[first]["per_step_ms"]
    own = results[last]["own_ms"] / results[first]["own_ms"]
    print(f"per-step cost at {last} steps / at {first} steps: {ratio:.2f}x (the loop's own time: {own:.2f}x)")


if __name__ == "__main__":
    asyncio.run(main([int(a) for a in sys.argv[1:]] or [20, 100, 1000]))
