"""Requests a provider refuses for what they carry, and usage as Claude reports it today:
a proxy that refuses `stream_options`, vLLM without a tool-call parser, a call sent with
`null` arguments, cache writes broken down by TTL. Real litellm over real HTTP throughout."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest

from openhands_tui.cli import main
from openhands_tui.sdk import Agent, Status
from openhands_tui.sdk.errors import LLMUnsupportedParameterError
from openhands_tui.sdk.llm.client import load_litellm
from openhands_tui.sdk.run.call_arguments import parse_arguments
from openhands_tui.testing import Script, ScriptedToolCall, Turn
from openhands_tui.tools.preset.default import get_default_tools
from tests.conftest import llm_for, model_args
from tests.sdk.helpers import run


async def test_a_proxy_refusing_stream_options_is_asked_again_without_it_streaming(serve, workspace: Path) -> None:
    server = serve(
        [Script(turns=[Turn.call("terminal", command="echo hi"), Turn(text="all done here")])],
        refuses_stream_options=True,
    )
    result = await run(Agent(llm=llm_for(server), tools=get_default_tools()), workspace, "go")

    assert result.outcome.status is Status.FINISHED and result.outcome.result == "all done here"
    notices = [e.error for e in result.kinds("agent_error") if "stream_options" in e.error]
    assert len(notices) == 1 and "asking again without it" in notices[0]  # once: the endpoint is remembered
    statuses = [r.status for r in server.requests]
    assert statuses == [400, 200, 200]
    assert all("stream_options" not in r.body and r.body["stream"] is True for r in server.requests[1:])
    assert "".join(e.delta for e in result.kinds("text_delta")) == "all done here"  # still shown as it streams
    usage = result.kinds("llm_usage")
    assert len(usage) == 2 and all(u.prompt_tokens > 0 and u.completion_tokens > 0 for u in usage)  # counted


async def test_an_endpoint_that_refused_stream_options_is_never_sent_it_again(serve, workspace: Path) -> None:
    """Remembered per model and base URL for the process: a later agent (a new LLM object, as a
    delegated child or the next run gets) does not pay for the refusal again."""
    scripts = [Script(turns=[Turn(text="first"), Turn(text="second"), Turn(text="third")])]
    refusing = serve(scripts, refuses_stream_options=True)
    await llm_for(refusing).complete([{"role": "user", "content": "one"}])
    assert [r.status for r in refusing.requests] == [400, 200]

    later = await llm_for(refusing).complete([{"role": "user", "content": "two"}])
    assert later.text == "second" and later.usage.completion_tokens > 0
    assert [r.status for r in refusing.requests] == [400, 200, 200]
    assert "stream_options" not in refusing.requests[-1].body and refusing.requests[-1].body["stream"] is True

    other = serve([Script(turns=[Turn(text="elsewhere")])])  # another endpoint is asked as usual
    await llm_for(other).complete([{"role": "user", "content": "three"}])
    assert other.requests[-1].body["stream_options"] == {"include_usage": True}


async def test_a_long_answer_from_an_endpoint_never_asked_for_usage_is_counted_whole(serve) -> None:
    """The stream wrapper's chunks are let go as the answer streams (a long answer would pile up
    in them); litellm's count of an answer with no usage then saw only those it still had."""
    text = "".join(f"word{n} " for n in range(3000))
    server = serve([Script(turns=[Turn(text=text)])], refuses_stream_options=True)
    response = await llm_for(server).complete([{"role": "user", "content": "talk"}])
    whole = load_litellm().token_counter(model=server.model, text=text, count_response_tokens=True)
    assert response.text == text and response.usage.completion_tokens == whole > 3000


async def test_agents_refused_at_once_each_ask_again(serve) -> None:
    """Parallel children send their first requests together: each refusal is retried, not only
    the one that taught us about the endpoint."""
    server = serve([Script(turns=[Turn(text="answer", repeat=2)])], refuses_stream_options=True)
    answers = await asyncio.gather(*(llm_for(server).complete([{"role": "user", "content": "go"}]) for _ in range(2)))
    assert [a.text for a in answers] == ["answer", "answer"]
    assert sorted(r.status for r in server.requests) == [200, 200, 400, 400]


async def test_a_refusal_of_the_request_without_stream_options_is_not_retried(serve) -> None:
    server = serve([Script(turns=[Turn(text="never")])], refuses_stream_options="always")
    with pytest.raises(LLMUnsupportedParameterError):
        await llm_for(server).complete([{"role": "user", "content": "one"}])
    assert [r.status for r in server.requests] == [400, 400]  # asked once more, then the answer stands
    assert "stream_options" in server.requests[0].body and "stream_options" not in server.requests[1].body


def test_a_headless_run_against_vllm_without_a_tool_parser_says_what_to_do(serve, workspace: Path, capsys) -> None:
    server = serve([Script(turns=[Turn.finish()])], refuses_tools=True)
    argv = ["--headless", "-t", "go", "--workspace", str(workspace), *model_args(server)]
    assert main(argv) == 1
    captured = capsys.readouterr()
    ending = [line for line in captured.err.splitlines() if line.startswith("error: ")]
    assert len(ending) == 1 and "cannot call tools" in ending[0] and "--enable-auto-tool-choice" in ending[0]
    assert "Traceback" not in captured.out + captured.err


def test_a_refused_answer_ends_a_headless_run_with_one_line_saying_so(serve, workspace: Path, capsys) -> None:
    stopped = Turn(text="I can't help with that.", stop_reason="refusal")
    server = serve([Script(turns=[stopped])], api="anthropic")
    argv = ["--headless", "-t", "go", "--workspace", str(workspace), *model_args(server)]
    assert main(argv) == 1
    captured = capsys.readouterr()
    ending = [line for line in captured.err.splitlines() if line.startswith("error: ")]
    assert len(ending) == 1 and "content_filter" in ending[0] and "resume with" in ending[0]
    assert "$" in next(line for line in captured.err.splitlines() if line.startswith("tokens: "))  # cost shown
    assert "I can't help with that." in captured.out  # what the model said is shown


def test_null_or_empty_arguments_are_a_call_without_arguments() -> None:
    assert parse_arguments("list", "null") == ({}, None)
    assert parse_arguments("list", " ") == ({}, None)
    assert parse_arguments("list", "[]")[1] is not None  # any other non-object is still refused


async def test_null_arguments_reach_the_tool_as_none(serve, workspace: Path) -> None:
    call = ScriptedToolCall(name="task_tracker", arguments="null")
    server = serve([Script(turns=[Turn(tool_calls=[call]), Turn.finish()])])
    result = await run(Agent(llm=llm_for(server), tools=get_default_tools()), workspace, "go")
    action = next(a for a in result.kinds("action") if a.tool_name == "task_tracker")
    assert result.outcome.status is Status.FINISHED and action.arguments == {}
    assert "not a JSON object" not in str([e.error for e in result.kinds("agent_error")])


async def test_cache_writes_broken_down_by_ttl_are_counted_and_priced_once(serve) -> None:
    turns = [Turn(text="first", cache_ttl_split=True), Turn(text="second", cache_ttl_split=True)]
    server = serve([Script(turns=turns)], api="anthropic", cache_min_tokens=16)
    llm = llm_for(server)
    system = {"role": "system", "content": "You are a careful agent. " * 40}
    first = await llm.complete([system, {"role": "user", "content": "one"}])
    second = await llm.complete(
        [
            system,
            {"role": "user", "content": "one"},
            {"role": "assistant", "content": "first"},
            {"role": "user", "content": "two"},
        ]
    )
    prices = load_litellm().get_model_info(server.model)
    for response, request in zip((first, second), server.requests, strict=True):
        sent = request.usage
        assert response.usage.cache_write_tokens == sent["cache_creation_input_tokens"] > 0
        assert response.usage.cache_read_tokens == sent["cache_read_input_tokens"]
        assert (
            response.usage.prompt_tokens
            == sent["input_tokens"] + sent["cache_creation_input_tokens"] + sent["cache_read_input_tokens"]
        )
        expected = (
            sent["input_tokens"] * prices["input_cost_per_token"]
            + sent["cache_creation_input_tokens"] * prices["cache_creation_input_token_cost"]  # all 5-minute writes
            + sent["cache_read_input_tokens"] * prices["cache_read_input_token_cost"]
            + sent["output_tokens"] * prices["output_cost_per_token"]
        )
        assert response.usage.cost is not None and abs(response.usage.cost - expected) < 1e-12
    assert second.usage.cache_read_tokens > 0


async def test_a_server_that_leaves_tool_calls_in_the_text_is_named_not_taken_as_the_answer(
    serve, workspace: Path
) -> None:
    written = '<tool_call>\n{"name": "terminal", "arguments": {"command": "ls"}}\n</tool_call>'
    server = serve([Script(turns=[Turn(text=written, repeat=2)])])
    result = await run(Agent(llm=llm_for(server), tools=get_default_tools()), workspace, "go")

    assert result.outcome.status is Status.ERROR and "--enable-auto-tool-choice" in result.outcome.detail
    assert "<tool_call>" in result.outcome.detail and result.outcome.result == ""  # not a "finished" answer
    warned = [e.error for e in result.kinds("agent_error")]
    assert len(warned) == 1 and "written as text" in warned[0]
    assert "function calling" in str(server.requests[1].body["messages"][-1]["content"])  # the model was told


async def test_a_model_that_answers_in_prose_with_tools_ignored_still_finishes(serve, workspace: Path) -> None:
    prose = (
        "You can list the files with `ls -la`; the <function> of each flag is in `man ls`. Hermes models "
        'wrap calls in `<tool_call>` tags:\n```\n<tool_call>\n{"name": "ls"}\n</tool_call>\n```'
    )
    server = serve([Script(turns=[Turn(text=prose)])])
    result = await run(Agent(llm=llm_for(server), tools=get_default_tools()), workspace, "how do I list files?")
    assert result.outcome.status is Status.FINISHED and result.outcome.result == prose


@pytest.mark.parametrize("field", ["reasoning_content", "reasoning"])
@pytest.mark.parametrize("stream", [True, False])
async def test_reasoning_text_in_either_field_is_shown_and_never_sent_back(
    serve, workspace: Path, field: str, stream: bool
) -> None:
    turns = [
        Turn(
            thinking="I should echo once.",
            tool_calls=[ScriptedToolCall(name="terminal", arguments={"command": "echo x"})],
        ),
        Turn.finish(),
    ]
    server = serve([Script(turns=turns)], reasoning_field=field)
    result = await run(Agent(llm=llm_for(server, stream=stream), tools=get_default_tools()), workspace, "go")
    assert result.outcome.status is Status.FINISHED
    said = next(e for e in result.kinds("message") if e.role == "assistant")
    assert said.thinking == [{"type": "thinking", "thinking": "I should echo once.", "signature": ""}]
    assert "I should echo once." not in str(server.requests[1].body)


def test_a_model_without_a_price_is_marked_cost_unknown_not_free(serve, workspace: Path, capsys) -> None:
    server = serve([Script(turns=[Turn.call("terminal", command="echo hi"), Turn.finish("ok")])])
    argv = ["--headless", "-t", "go", "--workspace", str(workspace), *model_args(server)]
    assert main(argv) == 0
    tokens = next(line for line in capsys.readouterr().err.splitlines() if line.startswith("tokens: "))
    assert tokens.endswith("out · cost unknown (no price for the model)") and "$" not in tokens
