"""Parallel delegation: wall time of four children whose model answers take 1 s each.

The root makes one `delegate_parallel` call with four tasks; each child's single model call
takes `latency` seconds at the scripted server (running in its own process). Sequential
delegation would take about 4 s; the target is <= 1.5 s for the whole run, root calls included.

`--anthropic TTFT` runs the same on the Anthropic path (`anthropic/claude-sonnet-4-5`, the
scripted Messages server, prompt caching as the API documents it) with each answer's latency
split into TTFT seconds before the first byte and the rest streamed, and compares two runs:
siblings that let the first of them write their shared prompt prefix (the others start once its
answer has begun), and siblings that all start at once (as without `run/prefix_share.py`). It prints
the cache-write tokens of the children's first requests against one child's (target <= 1.25x)
and the wall time of both (target: within 0.3 s).

Usage: python tests/bench/bench_parallel.py [children] [latency_seconds] [--anthropic TTFT]
"""

from __future__ import annotations

import asyncio
import sys
import tempfile
import time
from pathlib import Path

from _common import server_process

import openhands_tui.tools  # noqa: F401
from openhands_tui.sdk import LLM, Agent, AgentContext, Conversation, ConversationParts
from openhands_tui.sdk.facts.event import Event, LLMUsageEvent
from openhands_tui.sdk.run.prefix_share import PrefixShare
from openhands_tui.sdk.tool import Tool
from openhands_tui.testing import Script, ScriptedToolCall, Turn
from openhands_tui.tools.delegate import register_agent
from openhands_tui.tools.preset.default import get_default_tools

#: SSE frames of a streamed `finish` answer on the Anthropic path (the server sleeps after each).
ANTHROPIC_FRAMES = 8


async def fan_out(llm: LLM, children: int, workspace: Path) -> tuple[float, list[Event]]:
    events: list[Event] = []
    root = Agent(
        llm=llm,
        tools=[Tool(name="DelegateTool", params={"max_parallel": children})],
        agent_context=AgentContext(system_message_suffix="ROLE:root"),
    )
    conversation = Conversation(root, workspace=workspace, parts=ConversationParts(subscribers=[events.append]))
    started = time.perf_counter()
    outcome = await conversation.run("fan out")
    elapsed = time.perf_counter() - started
    await conversation.close()
    assert outcome.exit_code == 0, outcome
    return elapsed, events


def scripts(children: int, runs: int, worker: Turn) -> list[Script]:
    tasks = [{"agent": "worker", "task": f"part {i}"} for i in range(children)]
    root_turns = [Turn.call("delegate_parallel", tasks=tasks), Turn.finish()] * runs
    return [
        Script(name="warm", match_user="warm", turns=[Turn.finish("warm")]),
        Script(name="root", match="ROLE:root", turns=root_turns),
        Script(name="worker", match="ROLE:worker", turns=[worker] * (children * runs)),
    ]


async def warm_up(llm: LLM, workspace: Path) -> None:
    warm = Conversation(Agent(llm=llm), workspace=workspace)
    await warm.run("warm up")  # litellm import and the first connection are not the subject
    await warm.close()


async def openai_path(children: int, latency: float) -> None:
    finish = Turn(delay=latency, tool_calls=[ScriptedToolCall(name="finish", arguments={"message": "done"})])
    with server_process(scripts(children, 1, finish)) as url:
        llm = LLM(model="openai/scripted", api_key="k", base_url=url)
        register_agent(
            "worker",
            lambda llm: Agent(llm=llm, agent_context=AgentContext(system_message_suffix="ROLE:worker")),
            "a worker",
        )
        workspace = Path(tempfile.mkdtemp())
        await warm_up(llm, workspace)
        elapsed, _ = await fan_out(llm, children, workspace)
    print(
        f"{children} parallel children, {latency:g} s model latency each: wall time {elapsed:.3f} s "
        f"(sequential would be >= {children * latency:g} s)"
    )


async def anthropic_path(children: int, latency: float, ttft: float, runs: int = 3) -> None:
    finish = ScriptedToolCall(name="finish", arguments={"message": "done"})
    worker = Turn(delay=ttft, chunk_delay=max(latency - ttft, 0) / ANTHROPIC_FRAMES, tool_calls=[finish])
    # every run uses fresh prompts (a run's own ROLE text), so no run reads another's cache
    with server_process(scripts(children, 2 * runs, worker), api="anthropic") as url:
        llm = LLM(model="anthropic/claude-sonnet-4-5", api_key="k", base_url=url)
        workspace = Path(tempfile.mkdtemp())
        await warm_up(llm, workspace)
        results: dict[str, list[tuple[float, list[int]]]] = {"gated": [], "all at once": []}
        claim = PrefixShare.claim
        for n in range(runs):
            for mode in results:

                async def no_wait(self: PrefixShare, key: str) -> None:
                    return None

                PrefixShare.claim = claim if mode == "gated" else no_wait  # type: ignore[method-assign]
                marker = f"ROLE:worker run {n} {mode}"
                register_agent(
                    "worker",
                    lambda llm, marker=marker: Agent(
                        llm=llm, tools=get_default_tools(), agent_context=AgentContext(system_message_suffix=marker)
                    ),
                    "a worker",
                )
                elapsed, events = await fan_out(llm, children, workspace)
                firsts: dict[str, int] = {}
                for event in events:
                    if isinstance(event, LLMUsageEvent) and event.agent_id.startswith("worker"):
                        firsts.setdefault(event.agent_id, event.cache_write_tokens)
                results[mode].append((elapsed, list(firsts.values())))
        PrefixShare.claim = claim  # type: ignore[method-assign]
    print(
        f"{children} parallel children on the Anthropic path, {latency:g} s per answer "
        f"({ttft:g} s to the first byte, the rest streamed), {runs} runs each:"
    )
    for mode, figures in results.items():
        walls = sorted(wall for wall, _ in figures)
        writes = figures[0][1]
        print(
            f"  {mode:>11}: wall time median {walls[len(walls) // 2]:.3f} s (min {walls[0]:.3f}); "
            f"cache writes of the children's first requests {sum(writes):,} tokens "
            f"= {sum(writes) / max(writes):.2f}x one child's ({max(writes):,})"
        )


if __name__ == "__main__":
    args = sys.argv[1:]
    anthropic_ttft = None
    if "--anthropic" in args:
        at = args.index("--anthropic")
        anthropic_ttft = float(args[at + 1])
        del args[at : at + 2]
    count, seconds = (int(args[0]) if args else 4), (float(args[1]) if len(args) > 1 else 1.0)
    if anthropic_ttft is None:
        asyncio.run(openai_path(count, seconds))
    else:
        asyncio.run(anthropic_path(count, seconds, anthropic_ttft))
