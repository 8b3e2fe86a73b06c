"""A request of a long history costs the messages it adds, not the whole history: what was
made of a message of a `History` (litellm's clean copy, its JSON, whether it has thinking blocks
or a Gemini signature) is reused while the same message is at the same place, and the request
is the same, byte for byte. The builder keeps its side of it: a message it has added is never
changed in place. Fails if litellm renames what is hooked (the reuse would silently stop)."""

from __future__ import annotations

import asyncio
import copy
import json
import sys
from typing import Any

from openhands_tui.sdk.facts.event import (
    ActionEvent,
    CondensationEvent,
    MessageEvent,
    ObservationEvent,
    ResultsTruncatedEvent,
    SystemPromptEvent,
)
from openhands_tui.sdk.llm.client import LLM
from openhands_tui.sdk.llm.history import History, sending
from openhands_tui.sdk.llm.litellm_import import RequestJSON, load_litellm
from openhands_tui.sdk.llm.provider import without_thinking
from openhands_tui.sdk.run.messages import MessageBuilder
from openhands_tui.testing import Script, Turn

TOOLS = [{"type": "function", "function": {"name": "terminal", "parameters": {"type": "object"}}}]


def _encoder() -> RequestJSON:
    load_litellm()
    encoder = sys.modules["litellm.llms.custom_httpx.llm_http_handler"].json
    assert isinstance(encoder, RequestJSON), "litellm's HTTP handler no longer encodes with our json"
    return encoder


def _step(n: int) -> list[dict[str, Any]]:
    call = {"id": f"call_{n}", "type": "function", "function": {"name": "terminal", "arguments": f'{{"n": {n}}}'}}
    return [
        {"role": "assistant", "content": None, "tool_calls": [call]},
        {"role": "tool", "tool_call_id": f"call_{n}", "content": f"out {n} · ünïcode \u2028"},
    ]


def _request(messages: list[Any], model: str = "scripted") -> dict[str, Any]:
    return {
        "model": model,
        "messages": messages,
        "stream": True,
        "stream_options": {"include_usage": True},
        "tools": TOOLS,
    }


def _sent(encoder: RequestJSON, history: History, body: dict[str, Any], destination: object = "a") -> str:
    with sending(history, "openai", destination):
        return encoder.dumps(body)


def test_a_history_request_is_json_dumps_byte_for_byte_and_reuses_each_sent_message() -> None:
    encoder = _encoder()
    history = History([{"role": "system", "content": "sys"}, {"role": "user", "content": "go"}])
    for n in range(3):
        history.extend(_step(n))
        assert _sent(encoder, history, _request(history)) == json.dumps(_request(history))
    pieces = list(history.memo._json.values)
    history.extend(_step(3))
    assert _sent(encoder, history, _request(history)) == json.dumps(_request(history))
    assert all(old is new for old, new in zip(pieces, history.memo._json.values, strict=False))  # not encoded again

    history[3] = {**history[3], "content": "changed: a new dict in its place"}
    history.insert(0, {"role": "system", "content": "another prompt"})
    history[4:6] = [{"role": "user", "content": "<CONDENSED_HISTORY>…</CONDENSED_HISTORY>"}]
    marked = [*history[:-1], {**history[-1], "cache_control": {"type": "ephemeral"}}]  # Claude's breakpoint copy
    for messages, destination in [(history, "a"), (marked, "a"), (history, "b"), (history, "a")]:
        assert _sent(encoder, history, _request(messages), destination) == json.dumps(_request(messages))


def test_a_request_made_of_copies_is_encoded_whole_and_a_plain_list_as_ever() -> None:
    encoder = _encoder()
    history = History([{"role": "user", "content": "go"}, *_step(0)])
    for _ in range(3):  # a provider whose request is made of copies of the messages
        copies = copy.deepcopy(list(history))
        assert _sent(encoder, history, _request(copies)) == json.dumps(_request(copies))
    assert _sent(encoder, history, _request(history)) == json.dumps(_request(history))
    plain = [{"role": "user", "content": "go"}]
    assert encoder.dumps(_request(plain)) == json.dumps(_request(plain))  # no History being sent
    assert encoder.dumps(TOOLS, sort_keys=True, default=str) == json.dumps(TOOLS, sort_keys=True, default=str)
    assert type(copy.copy(history)) is list and type(copy.deepcopy(history)) is list


def test_thinking_blocks_are_found_in_a_history_as_in_a_list() -> None:
    history = History([{"role": "user", "content": "go"}, *_step(0)])
    assert without_thinking(history) is history
    thought = {"role": "assistant", "content": "hm", "thinking_blocks": [{"type": "thinking", "thinking": "t"}]}
    history.append(thought)
    assert without_thinking(history)[-1] == {"role": "assistant", "content": "hm"}
    history[-1] = {"role": "assistant", "content": "hm"}
    assert without_thinking(history) is history


def test_a_history_with_a_signed_call_id_still_reaches_the_provider_without_it(serve) -> None:
    load_litellm()
    from litellm.litellm_core_utils.prompt_templates.factory import THOUGHT_SIGNATURE_SEPARATOR

    server = serve([Script(turns=[Turn.finish("one"), Turn.finish("two"), Turn.finish("three")])])
    llm = LLM(model="openai/scripted", api_key="k", base_url=server.base_url)
    history = History([{"role": "user", "content": "go"}, *_step(0)])
    asyncio.run(llm.complete(history, []))
    signed = f"call_1{THOUGHT_SIGNATURE_SEPARATOR}c2lnbmF0dXJl"
    history.extend(
        [
            {"role": "assistant", "content": None, "tool_calls": [{**_step(1)[0]["tool_calls"][0], "id": signed}]},
            {"role": "tool", "tool_call_id": signed, "content": "out 1"},
        ]
    )
    asyncio.run(llm.complete(history, []))
    history.extend(_step(2))
    asyncio.run(llm.complete(history, []))
    first, second, third = (request.body["messages"] for request in server.requests)
    assert first == [history[0], {k: v for k, v in history[1].items() if v is not None}, history[2]]
    assert not [m for m in second + third if THOUGHT_SIGNATURE_SEPARATOR in json.dumps(m)]
    assert third[3]["tool_calls"][0]["id"] == third[4]["tool_call_id"] == "call_1"
    assert [m["role"] for m in third] == ["user", "assistant", "tool", "assistant", "tool", "assistant", "tool"]
    assert third[:3] == first and "content" not in third[5]


def test_litellm_validates_and_copies_each_message_of_a_history_once() -> None:
    load_litellm()
    main = sys.modules["litellm.main"]
    assert getattr(main.validate_and_fix_openai_messages, "once_per_message", False)
    history = History([{"role": "user", "content": "go"}, *_step(0)])
    with sending(history, "openai", "a"):
        first = main.validate_and_fix_openai_messages(history)
        history.extend(_step(1))
        second = main.validate_and_fix_openai_messages(history)
    assert second[:3] == first and all(a is b for a, b in zip(first, second, strict=False))
    assert "content" not in second[3] and second[3] is not history[3]  # litellm's copy, without None fields
    with sending(history, "anthropic", "a"):  # a provider whose path we have not read: litellm's own pass
        assert not any(a is b for a, b in zip(first, main.validate_and_fix_openai_messages(history), strict=False))


def _events() -> list[Any]:
    def action(call: str, response: str) -> ActionEvent:
        return ActionEvent(
            agent_id="root",
            tool_call_id=call,
            tool_name="terminal",
            raw_arguments='{"command": "ls"}',
            response_id=response,
        )

    def result(call: str, content: str = "out") -> ObservationEvent:
        return ObservationEvent(agent_id="root", tool_call_id=call, tool_name="terminal", content=content)

    return [
        SystemPromptEvent(agent_id="root", agent_name="root", model="m", content="sys"),
        MessageEvent(agent_id="root", role="user", content="go"),
        MessageEvent(agent_id="root", role="assistant", content="two calls", response_id="r1"),
        action("c1", "r1"),
        result("c1", "x" * 5000),
        action("c2", "r1"),  # recorded after the first ran: joins the response's message
        result("c2"),
        action("c3", "r2"),
        action("c4", "r2"),
        result("c3"),
        result("c4"),
        ResultsTruncatedEvent(agent_id="root", positions=[3], keep_chars=100),
        SystemPromptEvent(agent_id="root", agent_name="root", model="m", content="new sys"),
        CondensationEvent(agent_id="root", summary="s", head=2, tail=4, reason="tokens"),
        MessageEvent(agent_id="root", role="user", content="more"),
    ]


def test_the_builder_never_changes_a_message_it_has_added() -> None:
    builder = MessageBuilder("root")
    assert isinstance(builder.messages, History)
    for event in _events():
        before = [(message, copy.deepcopy(message)) for message in builder.messages]
        builder.add(event)
        assert all(message == snapshot for message, snapshot in before)
    calls = [m["tool_calls"] for m in builder.messages if m.get("tool_calls")]
    assert [[call["id"] for call in each] for each in calls] == [["c3", "c4"]]
    assert builder.messages[0] == {"role": "system", "content": "new sys"}


def test_litellm_still_moves_a_tool_results_image_and_maps_developer_messages_in_a_history(serve) -> None:
    server = serve([Script(turns=[Turn.finish("one"), Turn.finish("two")])])
    llm = LLM(model="openai/scripted", api_key="k", base_url=server.base_url)
    history = History([{"role": "user", "content": "go"}, *_step(0)])
    asyncio.run(llm.complete(history, []))  # nothing for the transform to do: skipped
    image = {"type": "image_url", "image_url": {"url": "data:image/png;base64,AAAA"}}
    history.extend(
        [
            {"role": "developer", "content": "be brief"},
            {**_step(1)[0]},
            {"role": "tool", "tool_call_id": "call_1", "content": [{"type": "text", "text": "shot"}, image]},
        ]
    )
    asyncio.run(llm.complete(history, []))
    sent = server.requests[1].body["messages"]
    assert [m["role"] for m in sent] == ["user", "assistant", "tool", "system", "assistant", "tool", "user"]
    assert image in sent[-1]["content"] and "image_url" not in json.dumps(sent[-2])
