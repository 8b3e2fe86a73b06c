"""How an answer ends, as real providers end them, through litellm end to end: cut at the
output token limit in the middle of a tool call, stopped by a refusal or a content filter,
empty, with several calls, with missing or repeated call ids. Nothing a cut or stopped answer
began is run, the model is told, and the session stays valid for the provider and resumable."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from openhands_tui.sdk import Agent, Status
from openhands_tui.sdk.facts.event import ActionEvent
from openhands_tui.sdk.facts.store import SessionMeta, SessionStore
from openhands_tui.sdk.run.actions import unfinished_actions
from openhands_tui.sdk.run.answer_ending import CUT_OFF_CALL, CUT_OFF_TEXT
from openhands_tui.testing import Script, ScriptedToolCall, Turn
from openhands_tui.tools.preset.default import get_default_tools
from tests.conftest import llm_for
from tests.sdk.helpers import run

API = ["anthropic", "openai"]


def agent(server, **llm: object) -> Agent:
    return Agent(llm=llm_for(server, **llm), tools=get_default_tools())


def terminal(command: str | None = None, raw: str | None = None, call_id: str | None = None) -> ScriptedToolCall:
    return ScriptedToolCall(name="terminal", arguments=raw if raw is not None else {"command": command}, id=call_id)


def cut_turn(api: str) -> Turn:
    """A whole first call, then a second cut mid-JSON by the output token limit."""
    return Turn(
        text="Creating the file, then cleaning up.",
        tool_calls=[terminal("touch made_by_a_cut_answer"), terminal(raw='{"command": "rm -rf buil')],
        stop_reason="max_tokens" if api == "anthropic" else "length",
    )


def tool_results(request_body: dict) -> list[str]:
    """The text of every tool result in a request, either API's shape."""
    found = []
    for message in request_body["messages"]:
        if message.get("role") == "tool":
            found.append(message["content"])
        elif isinstance(message.get("content"), list):
            found += [str(block.get("content")) for block in message["content"] if block.get("type") == "tool_result"]
    return found


@pytest.mark.parametrize("api", API)
@pytest.mark.parametrize("stream", [True, False])
async def test_no_call_of_an_answer_cut_at_the_token_limit_runs(
    serve, workspace: Path, tmp_path: Path, api: str, stream: bool
) -> None:
    server = serve([Script(turns=[cut_turn(api), Turn.call("terminal", command="echo again"), Turn.finish()])], api=api)
    store = SessionStore(tmp_path / "state")
    llm = {"stream": stream, "reasoning_effort": "high"}  # Claude: signed thinking ahead of the cut calls
    result = await run(agent(server, **llm), workspace, "make a file", log=store.create(SessionMeta(id="s")))

    assert result.outcome.status is Status.FINISHED and not (workspace / "made_by_a_cut_answer").exists()
    errors = [e for e in result.kinds("agent_error") if e.tool_call_id]
    assert [e.error for e in errors] == [CUT_OFF_CALL, CUT_OFF_CALL]  # shown to the user, and to the model:
    assert tool_results(server.requests[1].body) == [CUT_OFF_CALL, CUT_OFF_CALL]
    assert [a.valid for a in result.kinds("action")] == [False, False, True, True]
    assert [a.summary for a in result.kinds("action")][:2] == ["terminal (cut off)"] * 2
    assert getattr(server, "refusals", []) == []  # the history stayed one the API takes
    assert unfinished_actions(store.open("s").load().events) == ([], [])  # resumes with nothing left hanging


@pytest.mark.parametrize("api", API)
async def test_a_text_answer_cut_at_the_token_limit_is_not_the_final_answer(serve, workspace: Path, api: str) -> None:
    cut = Turn(text="The three causes are: first, the", stop_reason="max_tokens" if api == "anthropic" else "length")
    server = serve([Script(turns=[cut, Turn.finish("three causes, all fixed")])], api=api)
    result = await run(agent(server), workspace, "explain")

    assert result.outcome.status is Status.FINISHED and result.outcome.result == "three causes, all fixed"
    assert any("output token limit" in e.error for e in result.kinds("agent_error"))
    assert CUT_OFF_TEXT in str(server.requests[1].body["messages"][-1]["content"])


async def test_answers_cut_again_and_again_end_the_run_instead_of_looping(serve, workspace: Path) -> None:
    cut = Turn(text="and then", stop_reason="length", repeat=5)
    server = serve([Script(turns=[cut])])
    result = await run(agent(server), workspace, "explain")
    assert result.outcome.status is Status.ERROR and "output token limit 3 times" in result.outcome.detail
    assert len(server.requests) == 3


@pytest.mark.parametrize("api", API)
async def test_a_refusal_or_content_filter_ends_the_run_runs_nothing_and_stays_resumable(
    serve, workspace: Path, tmp_path: Path, api: str
) -> None:
    stopped = Turn(
        text="I can't help with that.",
        tool_calls=[terminal("touch made_by_a_refused_answer")],
        stop_reason="refusal" if api == "anthropic" else "content_filter",
    )
    server = serve([Script(turns=[stopped, Turn.finish("resumed fine")])], api=api)
    store = SessionStore(tmp_path / "state")
    first = await run(agent(server, reasoning_effort="high"), workspace, "do it", log=store.create(SessionMeta(id="s")))

    assert first.outcome.status is Status.ERROR and first.outcome.exit_code == 1
    assert "content_filter" in first.outcome.detail and "I can't help with that." in first.outcome.detail
    assert not (workspace / "made_by_a_refused_answer").exists() and first.kinds("action") == []
    assert first.kinds("llm_usage")[0].completion_tokens > 0  # what the stopped answer cost is counted

    log = store.open("s")
    resumed = await run(
        agent(server, reasoning_effort="high"), workspace, "try another way", log=log, history=log.load().events
    )
    assert resumed.outcome.status is Status.FINISHED and getattr(server, "refusals", []) == []


async def test_an_empty_claude_answer_is_nudged_once_then_the_run_goes_on(serve, workspace: Path) -> None:
    server = serve([Script(turns=[Turn(), Turn.finish("done after the nudge")])], api="anthropic")
    result = await run(agent(server), workspace, "go")
    assert result.outcome.status is Status.FINISHED and result.outcome.result == "done after the nudge"
    assert server.refusals == []  # the empty assistant turn went back in a form the API takes


async def test_text_and_several_tool_uses_in_one_claude_answer_all_run_in_order(serve, workspace: Path) -> None:
    turn = Turn(text="Two files.", tool_calls=[terminal("echo one > a.txt"), terminal("echo two > b.txt")])
    server = serve([Script(turns=[turn, Turn.finish()])], api="anthropic")
    result = await run(agent(server), workspace, "go")
    assert result.outcome.status is Status.FINISHED and server.refusals == []
    assert (workspace / "a.txt").read_text() == "one\n" and (workspace / "b.txt").read_text() == "two\n"
    sent = server.requests[1].body["messages"]
    assert [b["type"] for b in sent[-2]["content"]] == ["text", "tool_use", "tool_use"]  # one assistant turn
    assert [b["type"] for b in sent[-1]["content"]][:2] == ["tool_result", "tool_result"]


@pytest.mark.parametrize("stream", [True, False])
async def test_missing_and_repeated_call_ids_become_unique_and_results_match(
    serve, workspace: Path, tmp_path: Path, stream: bool
) -> None:
    server = serve(
        [
            Script(
                turns=[
                    Turn(tool_calls=[terminal("echo a", call_id="call_0"), terminal("echo b", call_id="call_0")]),
                    Turn(tool_calls=[terminal("echo c", call_id="call_0"), terminal("echo d", call_id="")]),
                    Turn(tool_calls=[terminal("echo e", call_id="bad id!")]),
                    Turn.finish(),
                ]
            )
        ]
    )
    store = SessionStore(tmp_path / "state")
    result = await run(agent(server, stream=stream), workspace, "go", log=store.create(SessionMeta(id="s")))
    assert result.outcome.status is Status.FINISHED
    actions = [a for a in result.kinds("action") if a.tool_name == "terminal"]
    ids = [a.tool_call_id for a in actions]
    assert len(set(ids)) == 5 and ids[0] == "call_0" and all(re.fullmatch(r"[A-Za-z0-9_-]{1,64}", i) for i in ids)
    outputs = {o.tool_call_id: o.content for o in result.kinds("observation")}
    assert [outputs[i].strip().splitlines()[0] for i in ids] == ["a", "b", "c", "d", "e"]
    last = server.requests[-1].body["messages"]
    assert [m["tool_call_id"] for m in last if m["role"] == "tool"] == ids  # each result with its call

    events = store.open("s").load().events
    assert [e.tool_call_id for e in events if isinstance(e, ActionEvent) and e.tool_name == "terminal"] == ids


async def test_a_claude_overload_is_retried_before_and_after_the_stream_opens(serve, workspace: Path) -> None:
    turns = [Turn(fault="529"), Turn(fault="overloaded_stream"), Turn.finish("through the overload")]
    server = serve([Script(turns=turns)], api="anthropic")
    result = await run(agent(server), workspace, "go")
    assert result.outcome.status is Status.FINISHED and result.outcome.result == "through the overload"
    retries = [e.error for e in result.kinds("agent_error") if "retry" in e.error]
    assert len(retries) == 2 and all("verloaded" in r for r in retries)
    assert result.kinds("llm_usage")[-1].retries == 2


async def test_a_claude_rate_limit_waits_as_long_as_retry_after_says(serve, workspace: Path) -> None:
    server = serve([Script(turns=[Turn(fault="429", retry_after=0.3), Turn.finish()])], api="anthropic")
    result = await run(agent(server), workspace, "go")
    assert result.outcome.status is Status.FINISHED
    assert any("retry 1 in 0.3s" in e.error for e in result.kinds("agent_error"))
    first, second = server.requests[0], server.requests[1]
    assert first.status == 429 and second.received - first.received >= 0.3


async def test_a_lasting_claude_overload_ends_the_run_in_the_providers_own_words(serve, workspace: Path) -> None:
    server = serve([Script(turns=[Turn(fault="529", repeat=3)])], api="anthropic")
    result = await run(agent(server), workspace, "go")  # two retries, then it gives up
    assert result.outcome.status is Status.ERROR and len(server.requests) == 3
    assert result.outcome.detail == "the model call failed: InternalServerError: overloaded_error: Overloaded"


async def test_calls_that_end_with_stop_rather_than_tool_calls_still_run(serve, workspace: Path) -> None:
    """Ollama and some vLLM versions end an answer with calls as `stop`: the calls are what counts."""
    turn = Turn(tool_calls=[terminal("echo ran > ran.txt")], stop_reason="stop")
    server = serve([Script(turns=[turn, Turn.finish()])])
    result = await run(agent(server), workspace, "go")
    assert result.outcome.status is Status.FINISHED and (workspace / "ran.txt").read_text() == "ran\n"


@pytest.mark.parametrize("ids", ["given", "missing"])
async def test_calls_that_all_say_index_0_stay_separate_calls(serve, workspace: Path, ids: str) -> None:
    """Ollama, SGLang and Gemini behind proxies number every streamed call of an answer 0."""
    call_id = None if ids == "given" else ""
    turn = Turn(
        tool_calls=[
            terminal("echo one > one.txt", call_id=call_id),
            terminal("echo two > two.txt", call_id=call_id),
            terminal("echo three > three.txt", call_id=call_id),
        ]
    )
    server = serve([Script(turns=[turn, Turn.finish()])], reuses_call_index=True)
    result = await run(agent(server), workspace, "go")
    assert result.outcome.status is Status.FINISHED
    assert [a.arguments for a in result.kinds("action")][:3] == [
        {"command": "echo one > one.txt"},
        {"command": "echo two > two.txt"},
        {"command": "echo three > three.txt"},
    ]
    assert sorted(p.name for p in workspace.iterdir()) == ["one.txt", "three.txt", "two.txt"]


@pytest.mark.parametrize("api", API)
async def test_a_rate_limit_without_retry_after_waits_for_the_spent_limit_to_reset(
    serve, workspace: Path, api: str
) -> None:
    """OpenAI's `x-ratelimit-reset-requests: 1.2s`, Anthropic's `...-requests-reset: <time>`: the
    wait is the reset of the limit with nothing remaining, not a 10 ms backoff."""
    server = serve([Script(turns=[Turn(fault="429", rate_limit_reset=1.2), Turn.finish()])], api=api)
    result = await run(agent(server), workspace, "go")
    assert result.outcome.status is Status.FINISHED
    retry = next(e.error for e in result.kinds("agent_error") if "retry 1" in e.error)
    waited = float(retry.rsplit(" in ", 1)[1].rstrip("s"))
    # the requests limit's reset (the tokens limit, not spent, resets at once); Anthropic's is a
    # time of day, so time spent between the server's clock and ours (a loaded machine) comes off it
    assert 0.5 <= waited <= 1.2
    assert server.requests[1].received - server.requests[0].received >= 0.5
