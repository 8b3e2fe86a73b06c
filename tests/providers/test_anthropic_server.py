"""The scripted Anthropic Messages server, driven through litellm's real Anthropic path.

Hand-built requests go straight through `litellm.acompletion` where the test needs exact
control of breakpoints and thinking blocks; the rest go through our `LLM`.
"""

from __future__ import annotations

import asyncio
import json
import urllib.error
import urllib.request
from typing import Any

import pytest

from openhands_tui.sdk.errors import LLMContextWindowError
from openhands_tui.sdk.llm.client import load_litellm
from openhands_tui.testing import Script, ScriptedAnthropicServer, ScriptedToolCall, Turn
from tests.conftest import llm_for

TOOLS = [
    {
        "type": "function",
        "function": {
            "name": "terminal",
            "description": "run a command",
            "parameters": {"type": "object", "properties": {"command": {"type": "string"}}},
        },
    }
]
CACHED = {"type": "ephemeral"}
SYSTEM = "You are a careful coding agent. " * 150  # about 1,200 tokens: over the minimum to cache


async def ask(server: ScriptedAnthropicServer, messages: list[dict[str, Any]], **kwargs: Any) -> Any:
    """One request through litellm's real Anthropic path, nothing of ours in between."""
    return await load_litellm().acompletion(
        model=server.model,
        api_base=server.base_url,
        api_key="sk-test",
        messages=messages,
        tools=TOOLS,
        num_retries=0,
        max_retries=0,
        **kwargs,
    )


def _chat(turns: int) -> list[dict[str, Any]]:
    """System, then `turns` user/assistant exchanges of plain text (one block each)."""
    messages: list[dict[str, Any]] = [{"role": "system", "content": SYSTEM}]
    for n in range(turns):
        messages += [{"role": "user", "content": f"question {n}"}, {"role": "assistant", "content": f"answer {n}"}]
    return messages


def _mark(messages: list[dict[str, Any]], *indices: int) -> list[dict[str, Any]]:
    return [{**m, "cache_control": CACHED} if i in indices else m for i, m in enumerate(messages)]


async def test_streams_signed_thinking_text_and_tool_calls(serve) -> None:
    turn = Turn(
        thinking="First I should list the files, then read the failing test.",
        redacted_thinking=True,
        text="Listing the files.",
        tool_calls=[ScriptedToolCall(name="terminal", arguments={"command": "ls -la"})],
    )
    server = serve([Script(turns=[turn])], api="anthropic")
    thought: list[str] = []
    llm = llm_for(server, reasoning_effort="high")
    messages = [{"role": "system", "content": "sys"}, {"role": "user", "content": "go"}]
    response = await llm.complete(messages, TOOLS, on_thinking=thought.append)

    assert len(thought) > 1 and "".join(thought) == turn.thinking  # it streamed, piece by piece
    signed, redacted = response.thinking
    assert signed["thinking"] == turn.thinking and server.signer.valid(signed)
    assert redacted["type"] == "redacted_thinking" and server.signer.valid(redacted)
    assert response.text == "Listing the files." and response.reasoning == turn.thinking
    assert [(c.name, json.loads(c.arguments)) for c in response.tool_calls] == [("terminal", {"command": "ls -la"})]
    body = server.requests[0].body
    assert body["stream"] is True and body["thinking"] == {"type": "enabled", "budget_tokens": 4096}
    assert body["max_tokens"] > body["thinking"]["budget_tokens"]
    reported = server.requests[0].usage
    assert response.usage.prompt_tokens == sum(
        reported[k] for k in ("input_tokens", "cache_creation_input_tokens", "cache_read_input_tokens")
    )
    assert response.usage.completion_tokens == reported["output_tokens"]


async def test_non_streaming_answers_the_same_blocks(serve) -> None:
    turn = Turn(thinking="Plan: run it.", tool_calls=[ScriptedToolCall(name="terminal", arguments={"command": "pwd"})])
    server = serve([Script(turns=[turn])], api="anthropic")
    llm = llm_for(server, reasoning_effort="low", stream=False)
    response = await llm.complete([{"role": "user", "content": "go"}], TOOLS)
    assert response.thinking == [
        {"type": "thinking", "thinking": "Plan: run it.", "signature": server.signer.sign("Plan: run it.")}
    ]
    assert response.tool_calls[0].arguments == '{"command": "pwd"}'
    assert server.requests[0].body.get("stream") in (None, False)
    assert server.requests[0].body["thinking"]["budget_tokens"] == 1024


async def test_a_breakpoint_writes_its_prefix_and_the_next_request_reads_it(serve) -> None:
    server = serve([Script(turns=[Turn(text="ok")] * 3)], api="anthropic")
    messages = _mark(_chat(1), 0)  # breakpoint on the system prompt (tools + system)
    first = await ask(server, messages)
    second = await ask(server, messages)
    prefix = first.usage.cache_creation_input_tokens
    assert prefix >= 1024 and first.usage.cache_read_input_tokens == 0  # written, nothing to read yet
    assert second.usage.cache_read_input_tokens == prefix and second.usage.cache_creation_input_tokens == 0
    assert second.usage.prompt_tokens == first.usage.prompt_tokens  # litellm counts cached input in prompt_tokens
    # cache_control is not content: the breakpoint moved to the newest message, the prefix still reads
    third = await ask(server, _mark(_chat(1), 2))
    assert third.usage.cache_read_input_tokens == prefix
    assert third.usage.cache_creation_input_tokens == third.usage.prompt_tokens - prefix


def _more(messages: list[dict[str, Any]], count: int, tag: str) -> list[dict[str, Any]]:
    """`messages` and `count` more (one block each), user and assistant in turn."""
    extra = [{"role": ("user", "assistant")[n % 2], "content": f"{tag} {n}"} for n in range(count)]
    return messages + extra


async def test_reads_look_back_twenty_blocks_from_a_breakpoint(serve) -> None:
    server = serve([Script(turns=[Turn(text="ok")] * 4)], api="anthropic", cache_min_tokens=1)
    base = _chat(2)  # blocks 0-5: the tool, the system prompt, 4 messages
    written = await ask(server, _mark(base, len(base) - 1))
    assert written.usage.cache_creation_input_tokens == written.usage.prompt_tokens
    # 10 blocks further, a breakpoint at the end: the written prefix is within reach
    near = await ask(server, _mark(_more(base, 10, "near"), len(base) + 9))
    assert near.usage.cache_read_input_tokens == written.usage.prompt_tokens
    # 22 blocks further, one breakpoint at the end: out of reach, a miss
    far = _more(base, 22, "far")
    missed = await ask(server, _mark(far, len(far) - 1))
    assert missed.usage.cache_read_input_tokens == 0
    # ... unless another breakpoint sits within 20 blocks of it
    other = _more(base, 22, "other")
    caught = await ask(server, _mark(other, len(base) + 9, len(other) - 1))
    assert caught.usage.cache_read_input_tokens == written.usage.prompt_tokens


async def test_more_than_four_breakpoints_is_refused(serve) -> None:
    server = serve([Script(turns=[Turn(text="ok")])], api="anthropic")
    litellm = load_litellm()
    with pytest.raises(
        litellm.BadRequestError, match=r"A maximum of 4 blocks with cache_control may be provided\. Found 5"
    ):
        await ask(server, _mark(_chat(2), 0, 1, 2, 3, 4))
    assert server.refusals


async def test_a_short_prefix_is_not_cached(serve) -> None:
    server = serve([Script(turns=[Turn(text="ok")] * 2)], api="anthropic", cache_min_tokens=100_000)
    messages = _mark(_chat(1), 0, 2)
    first, second = await ask(server, messages), await ask(server, messages)
    for usage in (first.usage, second.usage):
        assert usage.cache_read_input_tokens == 0 and usage.cache_creation_input_tokens == 0


async def test_an_entry_is_readable_only_once_the_answer_that_wrote_it_has_begun(serve) -> None:
    server = serve([Script(turns=[Turn(text="ok", delay=0.3)] * 3)], api="anthropic")
    messages = _mark(_chat(1), 0)
    together = await asyncio.gather(ask(server, messages), ask(server, messages))
    assert [r.usage.cache_read_input_tokens for r in together] == [0, 0]  # both arrived before either answered
    assert all(r.usage.cache_creation_input_tokens > 0 for r in together)  # and both paid for writing
    later = await ask(server, messages)
    assert later.usage.cache_read_input_tokens == together[0].usage.cache_creation_input_tokens


def _tool_turn(thinking: list[dict[str, Any]] | None) -> list[dict[str, Any]]:
    assistant: dict[str, Any] = {
        "role": "assistant",
        "content": None,
        "tool_calls": [{"id": "toolu_1", "type": "function", "function": {"name": "terminal", "arguments": "{}"}}],
    }
    if thinking is not None:
        assistant["thinking_blocks"] = thinking
    return [
        {"role": "user", "content": "go"},
        assistant,
        {"role": "tool", "tool_call_id": "toolu_1", "content": "done"},
    ]


async def test_thinking_rules_of_the_real_api(serve) -> None:
    server = serve([Script(turns=[Turn(text="ok")] * 4)], api="anthropic")
    litellm = load_litellm()
    good = {"type": "thinking", "thinking": "run it", "signature": server.signer.sign("run it")}

    with pytest.raises(
        litellm.BadRequestError, match="Expected `thinking` or `redacted_thinking`, but found `tool_use`"
    ):
        await ask(server, _tool_turn(None), reasoning_effort="high")
    with pytest.raises(litellm.BadRequestError, match="latest assistant message cannot be modified"):
        await ask(server, _tool_turn([{**good, "thinking": "run it twice"}]), reasoning_effort="high")
    answered = await ask(server, _tool_turn([good]), reasoning_effort="high")
    assert answered.choices[0].message.thinking_blocks[0]["signature"]
    # thinking off: the history may keep its thinking (and may lack it)
    assert (await ask(server, _tool_turn([good]))).choices[0].message.content == "ok"
    assert (await ask(server, _tool_turn(None))).choices[0].message.content == "ok"
    assert len(server.refusals) == 2


async def test_faults_come_back_in_anthropic_shape(serve) -> None:
    server = serve([Script(turns=[Turn(fault="429", retry_after=0.05), Turn(text="after the wait")])], api="anthropic")
    retries: list[float] = []
    response = await llm_for(server).complete(
        [{"role": "user", "content": "hi"}], on_retry=lambda n, d, e: retries.append(d)
    )
    assert response.text == "after the wait" and retries == [0.05]

    overflowing = serve([Script(turns=[Turn(text="never")])], api="anthropic", context_window=50)
    with pytest.raises(LLMContextWindowError):
        await llm_for(overflowing).complete([{"role": "user", "content": "x" * 2000}])


def test_a_request_without_an_api_key_is_refused(serve) -> None:
    server = serve([Script(turns=[Turn(text="ok")])], api="anthropic")
    request = urllib.request.Request(
        f"{server.base_url}/v1/messages",
        data=json.dumps({"model": "claude-sonnet-4-5", "max_tokens": 10, "messages": []}).encode(),
        headers={"content-type": "application/json"},
    )
    with pytest.raises(urllib.error.HTTPError) as info:
        urllib.request.urlopen(request, timeout=5)
    assert info.value.code == 401
    assert json.loads(info.value.read())["error"]["type"] == "authentication_error"
