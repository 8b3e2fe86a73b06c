"""What hooks and critics cost a run: per-step time of a headless run with no hooks, with a shell
hook before and after every call (`true`, run as a process each time), and with a Python
callback hook; and the time to make the workspace patch a critic judges, on a given folder.

Each run is the engine against the scripted server in its own process (real litellm, real
HTTP), 20 steps of one `echo` each, interleaved (no hooks, shell, callback, no hooks...) so load
changes hit all alike. "ms/step" is the median over the rounds.

Usage: python tests/bench/bench_hooks.py [rounds] [patch-folder]   (default: 3, this repository)
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
from openhands_tui.sdk.files.workspace_diff import workspace_patch
from openhands_tui.sdk.hooks import HookConfig, HookDefinition, HookMatcher
from openhands_tui.sdk.run.confirmation import ConfirmationMode, ConfirmationPolicy
from openhands_tui.sdk.run.runtime import Limits
from openhands_tui.testing import Script, Turn
from openhands_tui.tools.preset.default import get_default_tools

STEPS = 20


def _config(kind: str) -> HookConfig | None:
    if kind == "none":
        return None
    hook = HookDefinition(command="true") if kind == "shell" else HookDefinition(callback=lambda event: None)
    matcher = HookMatcher(matcher="terminal", hooks=[hook])
    return HookConfig(pre_tool_use=[matcher], post_tool_use=[matcher])


async def _run(url: str, name: str, kind: str) -> float:
    agent = Agent(
        llm=LLM(model="openai/scripted", api_key="k", base_url=url),
        tools=get_default_tools(),
        hook_config=_config(kind),
    )
    parts = ConversationParts(policy=ConfirmationPolicy(mode=ConfirmationMode.NEVER), limits=Limits(max_iterations=50))
    conversation = Conversation(agent, workspace=Path(tempfile.mkdtemp()), parts=parts)
    started = time.perf_counter()
    outcome = await conversation.run(f"[{name}] go")
    elapsed = time.perf_counter() - started
    await conversation.close()
    assert outcome.exit_code == 0, outcome
    return elapsed / (STEPS + 1) * 1000


def _echo(step: int) -> Turn:
    return Turn.call("terminal", command=f"echo {step}")


def main() -> None:
    rounds = int(sys.argv[1]) if len(sys.argv) > 1 else 3
    folder = Path(sys.argv[2]) if len(sys.argv) > 2 else Path(__file__).resolve().parents[2]
    kinds = ["none", "shell", "callback"]
    names = [f"{kind}-{n}" for n in range(rounds) for kind in kinds]
    scripts = [
        Script(
            name=name,
            match_user=f"[{name}]",
            turns=[*(Turn.call("terminal", command=f"echo {i}") for i in range(STEPS)), Turn.finish()],
        )
        for name in names
    ]
    figures: dict[str, list[float]] = {kind: [] for kind in kinds}
    with server_process(scripts) as url:
        for name in names:
            figures[name.split("-")[0]].append(asyncio.run(_run(url, name, name.split("-")[0])))
    for kind in kinds:
        rounds_text = ", ".join(f"{v:.1f}" for v in figures[kind])
        print(f"{kind:>9} hooks: {statistics.median(figures[kind]):6.1f} ms/step  (rounds: {rounds_text})")
    times = []
    for _ in range(5):
        started = time.perf_counter()
        patch = workspace_patch(folder)
        times.append((time.perf_counter() - started) * 1000)
    note = f", {patch.problem}" if patch.problem else ""
    print(f"workspace patch of {folder}: {statistics.median(times):.1f} ms ({len(patch.text):,} characters{note})")


if __name__ == "__main__":
    main()
