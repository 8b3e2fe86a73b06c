"""Parallel delegation: wall time of four children whose model answers take 1 s each.

The root makes one `delegate_parallel` call with four tasks; each child's single model call
is delayed 1 s by the scripted server (running in its own process). Sequential delegation
would take about 4 s; the target is <= 1.5 s for the whole run, root calls included.

Usage: python tests/bench/bench_parallel.py [children] [latency_seconds]
"""

from __future__ import annotations

import asyncio
import sys
import tempfile
import time
from pathlib import Path

from _common import server_process

import openhands_tui.tools  # noqa: F401
from openhands_tui.sdk import LLM, Agent, AgentContext, Conversation
from openhands_tui.sdk.tool import Tool
from openhands_tui.testing import Script, ScriptedToolCall, Turn
from openhands_tui.tools.delegate import register_agent


async def main(children: int, latency: float) -> None:
    finish = Turn(delay=latency, tool_calls=[ScriptedToolCall(name="finish", arguments={"message": "done"})])
    tasks = [{"agent": "worker", "task": f"part {i}"} for i in range(children)]
    scripts = [
        Script(name="warm", match_user="warm", turns=[Turn.finish("warm")]),
        Script(name="root", match="ROLE:root", turns=[Turn.call("delegate_parallel", tasks=tasks), Turn.finish()]),
        Script(name="worker", match="ROLE:worker", turns=[finish] * children),
    ]
    with server_process(scripts) as url:
        llm = LLM(model="openai/scripted", api_key="k", base_url=url)
        register_agent(
            "worker",
            lambda llm: Agent(llm=llm, agent_context=AgentContext(system_message_suffix="ROLE:worker")),
            "a worker",
        )
        workspace = Path(tempfile.mkdtemp())
        warm = Conversation(Agent(llm=llm), workspace=workspace)
        await warm.run("warm up")  # litellm import and the first connection are not the subject
        await warm.close()
        root = Agent(
            llm=llm,
            tools=[Tool(name="DelegateTool", params={"max_parallel": children})],
            agent_context=AgentContext(system_message_suffix="ROLE:root"),
        )
        conversation = Conversation(root, workspace=workspace)
        started = time.perf_counter()
        outcome = await conversation.run("fan out")
        elapsed = time.perf_counter() - started
        await conversation.close()
    assert outcome.exit_code == 0, outcome
    print(
        f"{children} parallel children, {latency:g} s model latency each: wall time {elapsed:.3f} s "
        f"(sequential would be >= {children * latency:g} s)"
    )


if __name__ == "__main__":
    args = sys.argv[1:]
    asyncio.run(main(int(args[0]) if args else 4, float(args[1]) if len(args) > 1 else 1.0))
