"""Prompt caching from the engine's side: Claude through litellm's Anthropic path against the
scripted Messages server (which caches as the API documents), and the OpenAI-compatible path."""

from __future__ import annotations

import itertools
from pathlib import Path
from typing import Any

from openhands_tui.sdk import Agent, AgentContext, Status
from openhands_tui.sdk.context.condenser import Condenser
from openhands_tui.sdk.facts.store import SessionMeta, SessionStore
from openhands_tui.sdk.tool import Tool
from openhands_tui.testing import RecordedRequest, Script, ScriptedToolCall, Turn
from openhands_tui.testing.prompt_cache import request_blocks
from openhands_tui.tools.delegate import register_agent
from openhands_tui.tools.preset.default import get_default_tools
from tests.conftest import llm_for
from tests.sdk.helpers import run

STEPS = 20


def echo_steps(count: int, **turn: Any) -> list[Turn]:
    return [
        Turn(tool_calls=[ScriptedToolCall(name="terminal", arguments={"command": f"echo step {n}"})], **turn)
        for n in range(count)
    ]


def content_keys(request: RecordedRequest) -> list[str]:
    """What the provider caches, block by block (cache_control is not content)."""
    return [block.key for block in request_blocks(request.body)]


def breakpoints(request: RecordedRequest) -> int:
    return sum(block.ttl is not None for block in request_blocks(request.body))


def agent(server, **llm: Any) -> Agent:
    return Agent(llm=llm_for(server, **llm), tools=get_default_tools())


async def test_a_twenty_step_claude_run_reads_most_of_its_input_from_the_cache(serve, workspace: Path) -> None:
    server = serve([Script(turns=[*echo_steps(STEPS), Turn.finish("done")])], api="anthropic")
    result = await run(agent(server), workspace, "echo twenty steps")
    assert result.outcome.status is Status.FINISHED and not server.refusals
    usage = result.kinds("llm_usage")
    requests = server.requests
    assert len(usage) == len(requests) == STEPS + 1
    # every request: at most 4 breakpoints; its prefix is exactly the previous request, grown
    assert all(1 <= breakpoints(r) <= 4 for r in requests)
    for before, after in itertools.pairwise(requests):
        assert content_keys(after)[: len(content_keys(before))] == content_keys(before)
    # the events carry what the provider reported, call by call
    for event, request in zip(usage, requests, strict=True):
        assert event.cache_read_tokens == request.usage["cache_read_input_tokens"]
        assert event.cache_write_tokens == request.usage["cache_creation_input_tokens"]
        assert event.prompt_tokens == sum(request.usage[k] for k in request.usage if k != "output_tokens")
    read = sum(e.cache_read_tokens for e in usage)
    total = sum(e.prompt_tokens for e in usage)
    assert read / total >= 0.9, f"{read / total:.1%} of input read from the cache"
    assert usage[-1].cache_write_tokens < usage[0].cache_write_tokens / 4  # each step writes only what it added
    node = result.conversation.runtime.tree.nodes["root"]
    assert (node.prompt_tokens, node.cache_read_tokens) == (total, read)


async def test_a_resumed_session_sends_the_same_bytes_and_reads_them_from_the_cache(
    serve, workspace: Path, tmp_path: Path
) -> None:
    store = SessionStore(tmp_path / "state")
    server = serve(
        [Script(turns=[*echo_steps(3), Turn.finish("first"), *echo_steps(2), Turn.finish("second")])],
        api="anthropic",
    )
    await run(agent(server, reasoning_effort="medium"), workspace, "first task", log=store.create(SessionMeta(id="s")))
    live_requests = len(server.requests)
    last_live = server.requests[-1]
    log = store.open("s")
    resumed = await run(
        agent(server, reasoning_effort="medium"), workspace, "second task", log=log, history=log.load().events
    )
    assert resumed.outcome.result == "second" and not server.refusals
    first_resumed = server.requests[live_requests]
    live_keys = content_keys(last_live)
    assert content_keys(first_resumed)[: len(live_keys)] == live_keys  # byte for byte, thinking included
    # everything the live run sent before its last answer is read back, not written again
    live_total = sum(v for k, v in last_live.usage.items() if k != "output_tokens")
    assert first_resumed.usage["cache_read_input_tokens"] == live_total


async def test_condensation_keeps_the_prefix_cached_and_thinking_valid(serve, workspace: Path) -> None:
    summarizer = Script(name="summarizer", match="You condense the middle", turns=[Turn(text="Echoed steps 0-7.")] * 5)
    server = serve(
        [summarizer, Script(name="agent", turns=[*echo_steps(14, thinking="next echo"), Turn.finish("done")])],
        api="anthropic",
    )
    condensing = agent(server, reasoning_effort="high").model_copy(
        update={"condenser": Condenser(max_messages=12, keep_recent=4)}
    )
    result = await run(condensing, workspace, "echo")
    assert result.outcome.status is Status.FINISHED
    assert server.refusals == []  # every request kept its last tool-use turn's signed thinking
    assert result.kinds("condensation")
    summary_requests = server.requests_for("summarizer")
    assert summary_requests and all(
        "thinking" not in r.body and breakpoints(r) == 0 for r in summary_requests
    )  # a one-off: no thinking, no cache writes
    agent_requests = server.requests_for("agent")
    tools_and_system = sum(1 for key in content_keys(agent_requests[0]) if key.startswith(("tool:", "system:")))
    first = agent_requests[0]
    prefix_tokens = sum(b.tokens for b in request_blocks(first.body)[:tools_and_system])
    assert all(r.usage["cache_read_input_tokens"] >= prefix_tokens for r in agent_requests[1:])
    assert all(r.body["thinking"]["type"] == "enabled" for r in agent_requests)


async def test_parallel_siblings_write_their_shared_prefix_once(serve, workspace: Path) -> None:
    register_agent(
        "worker",
        lambda llm: Agent(
            llm=llm, tools=get_default_tools(), agent_context=AgentContext(system_message_suffix="ROLE:worker")
        ),
        "a worker",
    )
    tasks = [{"agent": "worker", "task": f"part {n}"} for n in range(4)]
    server = serve(
        [
            Script(name="root", match="ROLE:root", turns=[Turn.call("delegate_parallel", tasks=tasks), Turn.finish()]),
            Script(
                name="worker",
                match="ROLE:worker",
                turns=[Turn(delay=0.2, **Turn.finish("ok").model_dump(exclude={"delay"}))] * 4,
            ),
        ],
        api="anthropic",
    )
    root = Agent(
        llm=llm_for(server),
        tools=[Tool(name="DelegateTool", params={"max_parallel": 4})],
        agent_context=AgentContext(system_message_suffix="ROLE:root"),
    )
    result = await run(root, workspace, "fan out")
    assert result.outcome.status is Status.FINISHED
    firsts = server.requests_for("worker")
    assert len(firsts) == 4
    writes = [r.usage["cache_creation_input_tokens"] for r in firsts]
    one_child = max(writes)
    assert sum(writes) <= 1.25 * one_child, writes
    readers = [r for r in firsts if r.usage["cache_read_input_tokens"] > 0]
    assert len(readers) == 3  # the others read the prefix the first one wrote


async def test_openai_compatible_requests_carry_a_prompt_cache_key_per_role(serve, workspace: Path) -> None:
    register_agent(
        "worker",
        lambda llm: Agent(llm=llm, agent_context=AgentContext(system_message_suffix="ROLE:worker")),
        "a worker",
    )
    tasks = [{"agent": "worker", "task": f"part {n}"} for n in range(2)]
    server = serve(
        [
            Script(name="root", match="ROLE:root", turns=[Turn.call("delegate_parallel", tasks=tasks), Turn.finish()]),
            Script(name="worker", match="ROLE:worker", turns=[Turn.finish("ok")] * 2),
        ]
    )
    root = Agent(
        llm=llm_for(server, reasoning_effort="low"),
        tools=[Tool(name="DelegateTool")],
        agent_context=AgentContext(system_message_suffix="ROLE:root"),
    )
    result = await run(root, workspace, "fan out")
    assert result.outcome.status is Status.FINISHED
    root_keys = {r.body["prompt_cache_key"] for r in server.requests_for("root")}
    worker_keys = {r.body["prompt_cache_key"] for r in server.requests_for("worker")}
    assert len(root_keys) == 1 and len(worker_keys) == 1 and root_keys != worker_keys
    assert all(r.body["reasoning_effort"] == "low" for r in server.requests)
    assert not any("cache_control" in str(r.body) or "thinking_blocks" in str(r.body) for r in server.requests)
    # and the history only ever grows: each request starts with the one before
    first, second = (r.messages for r in server.requests_for("root"))
    assert second[: len(first)] == first
