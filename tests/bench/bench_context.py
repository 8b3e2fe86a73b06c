"""What the framework sends the model, measured from the scripted server's side.

1. Child isolation: a parent works for N steps, then delegates; the child's first request
   must not carry the parent's history. Its size is compared for N = 10 and N = 100 (a 10x
   longer parent history). Target: the larger <= 1.05x the smaller.
2. Prompt-cache friendliness: across every request of a run (a parent and two children,
   several steps each), the system prompt and the tool list of each agent are byte-identical
   (distinct prefixes = 1 per agent), and each request's messages start with the previous
   request's messages (the history is only appended to), so a provider's prompt cache hits.

Usage: python tests/bench/bench_context.py
"""

from __future__ import annotations

import asyncio
import itertools
import json
import tempfile
from collections import defaultdict
from pathlib import Path
from typing import Any

import openhands_tui.tools  # noqa: F401
from openhands_tui.sdk import Agent, AgentContext, Conversation, ConversationParts
from openhands_tui.sdk.llm.client import LLM
from openhands_tui.sdk.run.runtime import Limits
from openhands_tui.sdk.tool import Tool
from openhands_tui.testing import Script, ScriptedLLMServer, Turn
from openhands_tui.tools.delegate import register_agent
from openhands_tui.tools.preset.default import get_default_tools


def _steps(prefix: str, count: int) -> list[Turn]:
    return [Turn.call("terminal", command=f"echo {prefix} {n}; seq 1 20") for n in range(count)]


async def _run(scripts: list[Script], task: str) -> ScriptedLLMServer:
    server = ScriptedLLMServer(scripts).start()
    llm = LLM(model="openai/scripted", api_key="k", base_url=server.base_url)
    register_agent(
        "helper",
        lambda llm: Agent(
            llm=llm, tools=get_default_tools(), agent_context=AgentContext(system_message_suffix="ROLE:helper")
        ),
        "a helper",
    )
    root = Agent(
        llm=llm,
        tools=[*get_default_tools(), Tool(name="DelegateTool")],
        agent_context=AgentContext(system_message_suffix="ROLE:root"),
    )
    parts = ConversationParts(limits=Limits(max_iterations=None))
    conversation = Conversation(root, workspace=Path(tempfile.mkdtemp()), parts=parts)
    outcome = await conversation.run(task)
    await conversation.close()
    server.stop()
    assert outcome.exit_code == 0, outcome
    return server


def _size(request: Any) -> int:
    return len(json.dumps(request.body))


async def isolation() -> None:
    sizes = {}
    for parent_steps in (10, 100):
        helper = Script(name="helper", match="ROLE:helper", turns=[Turn.finish("helped")])
        root_turns = [*_steps("root", parent_steps), Turn.call("delegate", agent="helper", task="help"), Turn.finish()]
        server = await _run([helper, Script(name="root", match="ROLE:root", turns=root_turns)], "work, then delegate")
        parent_last = _size(server.requests_for("root")[parent_steps])
        sizes[parent_steps] = _size(server.requests_for("helper")[0])
        print(
            f"parent history {parent_steps:>3} steps ({parent_last / 1024:6.1f} KB request): "
            f"child's first request {sizes[parent_steps] / 1024:.1f} KB"
        )
    print(f"child's first request, 100-step parent / 10-step parent: {sizes[100] / sizes[10]:.3f}x (target <= 1.05x)")


async def cache_friendliness() -> None:
    helper = Script(name="helper", match="ROLE:helper", turns=[*_steps("helper", 8), Turn.finish("helped")] * 2)
    root_turns = [
        *_steps("root", 5),
        Turn.call("delegate", agent="helper", task="first half"),
        *_steps("root", 5),
        Turn.call("delegate", agent="helper", task="second half"),
        Turn.finish(),
    ]
    server = await _run([helper, Script(name="root", match="ROLE:root", turns=root_turns)], "two rounds")
    by_agent: dict[str, list[Any]] = defaultdict(list)
    for request in server.requests:
        task = request.messages[1]["content"].splitlines()[0][:40]  # each child conversation: its own task
        by_agent[f"{request.script}: {task}"].append(request)
    for agent, requests in by_agent.items():
        prefixes = {json.dumps([r.messages[0], r.body.get("tools")]) for r in requests}
        appended = all(
            later.messages[: len(earlier.messages)] == earlier.messages
            for earlier, later in itertools.pairwise(requests)
        )
        print(
            f"{agent[:50]:<50} {len(requests):>3} requests: distinct system+tools prefixes {len(prefixes)}, "
            f"history only appended: {'yes' if appended else 'NO'}"
        )


if __name__ == "__main__":
    asyncio.run(isolation())
    asyncio.run(cache_friendliness())
