"""Reasoning: thinking blocks recorded, sent back as each provider requires, and never a
request refused for them — across secrets, resumes and providers that reason in plain text."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from openhands_tui.sdk import Agent, Status
from openhands_tui.sdk.facts.store import SessionMeta, SessionStore
from openhands_tui.sdk.run.runtime import Limits
from openhands_tui.testing import Script, ScriptedToolCall, Turn
from openhands_tui.tools.preset.default import get_default_tools
from tests.conftest import llm_for
from tests.providers.test_caching import echo_steps
from tests.sdk.helpers import run


def agent(server, **llm: object) -> Agent:
    return Agent(llm=llm_for(server, **llm), tools=get_default_tools())


async def test_signed_thinking_goes_back_with_the_tool_calls_it_led_to(serve, workspace: Path) -> None:
    server = serve(
        [Script(turns=[*echo_steps(2, thinking="echo next", redacted_thinking=True), Turn.finish("ok")])],
        api="anthropic",
    )
    result = await run(agent(server, reasoning_effort="high"), workspace, "echo")
    assert result.outcome.status is Status.FINISHED and server.refusals == []
    said = [e for e in result.kinds("message") if e.role == "assistant"]
    assert len(said) == 3 and all(e.content == "" for e in said)  # recorded for their thinking alone
    first = said[0].thinking
    assert [b["type"] for b in first] == ["thinking", "redacted_thinking"] and server.signer.valid(first[0])
    sent_back = server.requests[1].body["messages"][1]["content"]
    assert sent_back[: len(first)] == first  # exactly as returned, ahead of the tool call
    assert sent_back[len(first)]["type"] == "tool_use"


async def test_a_secret_in_thinking_is_redacted_and_thinking_pauses_until_the_tool_loop_ends(
    serve, workspace: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    secret = "tok-9f8e7d6c5b4a3210"
    monkeypatch.setenv("DEPLOY_TOKEN", secret)
    server = serve(
        [
            Script(
                turns=[
                    *echo_steps(1, thinking=f"The deploy token is {secret}; never print it."),
                    *echo_steps(1, thinking="carry on"),
                    Turn.finish("ok"),
                ]
            )
        ],
        api="anthropic",
    )
    result = await run(agent(server, reasoning_effort="high"), workspace, "deploy")
    assert result.outcome.status is Status.FINISHED and server.refusals == []
    assert not any(secret in event.model_dump_json() for event in result.events)
    stored = next(e for e in result.kinds("message") if e.role == "assistant").thinking[0]
    assert "[redacted" in stored["thinking"] and stored["signature"] == ""  # kept to read, never sent back
    assert secret not in json.dumps([r.body for r in server.requests])
    # the changed block cannot go back, and the API forbids thinking on in a tool loop whose last
    # turn has none: the rest of this loop runs without it, and nothing is refused
    assert ["thinking" in r.body for r in server.requests] == [True, False, False]


async def test_resuming_with_thinking_a_session_paused_mid_tool_loop_without_it(
    serve, workspace: Path, tmp_path: Path
) -> None:
    store = SessionStore(tmp_path / "state")
    server = serve([Script(turns=[*echo_steps(4, thinking="resumed thought"), Turn.finish("done")])], api="anthropic")
    paused = await run(
        agent(server), workspace, "echo", log=store.create(SessionMeta(id="s")), limits=Limits(max_iterations=2)
    )
    assert paused.outcome.status is Status.PAUSED
    log = store.open("s")
    resumed = await run(agent(server, reasoning_effort="high"), workspace, None, log=log, history=log.load().events)
    assert resumed.outcome.status is Status.FINISHED and server.refusals == []
    # the API forbids turning thinking on in the middle of a tool loop: the resumed requests
    # whose last tool-use turn has no thinking go without it, as the API asks
    assert all("thinking" not in r.body for r in server.requests)


async def test_plain_reasoning_text_is_shown_but_never_sent_back(serve, workspace: Path) -> None:
    server = serve([Script(turns=[*echo_steps(1, thinking="I will echo once."), Turn.finish("ok")])])
    result = await run(agent(server, reasoning_effort="medium"), workspace, "echo")
    assert result.outcome.status is Status.FINISHED
    said = next(e for e in result.kinds("message") if e.role == "assistant")
    assert said.thinking == [{"type": "thinking", "thinking": "I will echo once.", "signature": ""}]
    assert all(r.body["reasoning_effort"] == "medium" for r in server.requests)
    assert "thinking_blocks" not in json.dumps(server.requests[1].body)
    assert "reasoning_content" not in json.dumps(server.requests[1].body)


async def test_thinking_streams_as_transient_deltas(serve, workspace: Path) -> None:
    thought = "Let me think about which command lists the files."
    server = serve([Script(turns=[Turn(thinking=thought, text="Done thinking."), Turn.finish()])], api="anthropic")
    result = await run(agent(server, reasoning_effort="low"), workspace, "think")
    deltas = [e for e in result.kinds("text_delta") if e.thinking]
    assert len(deltas) > 1 and "".join(d.delta for d in deltas) == thought
    assert "".join(d.delta for d in result.kinds("text_delta") if not d.thinking) == "Done thinking."


def test_a_model_that_does_not_reason_is_not_sent_a_reasoning_setting() -> None:
    from openhands_tui.sdk.llm.client import LLM

    plain = LLM(model="gpt-4o", api_key="k", reasoning_effort="high").request([{"role": "user", "content": "hi"}], None)
    assert "reasoning_effort" not in plain
    claude = LLM(model="anthropic/claude-sonnet-4-5", api_key="k", reasoning_effort="high", temperature=0.2)
    sent = claude.request([{"role": "system", "content": "s"}, {"role": "user", "content": "hi"}], None)
    assert sent["reasoning_effort"] == "high" and "temperature" not in sent  # Claude thinks only at its default
    assert [m.get("cache_control") for m in sent["messages"]] == [{"type": "ephemeral"}] * 2
    unknown = LLM(model="openai/my-local-model", api_key="k", base_url="http://127.0.0.1:9", reasoning_effort="low")
    assert unknown.request([{"role": "user", "content": "hi"}], None)["reasoning_effort"] == "low"
    off = LLM(model="anthropic/claude-sonnet-4-5", api_key="k", reasoning_effort="off")
    assert "reasoning_effort" not in off.request([{"role": "user", "content": "hi"}], None)


def test_tool_call_arguments_survive_unchanged() -> None:
    """The breakpoint copies only the marked messages: the history itself is never touched."""
    from openhands_tui.sdk.llm.client import LLM

    history = [
        {"role": "system", "content": "s"},
        {"role": "user", "content": "go"},
        {"role": "assistant", "content": None, "tool_calls": [ScriptedToolCall(name="x").model_dump()]},
        {"role": "tool", "tool_call_id": "1", "content": "r"},
    ]
    snapshot = json.dumps(history)
    sent = LLM(model="anthropic/claude-sonnet-4-5", api_key="k").request(history, None)
    assert json.dumps(history) == snapshot
    assert [i for i, m in enumerate(sent["messages"]) if "cache_control" in m] == [0, 1, 3]
