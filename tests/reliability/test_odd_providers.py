"""Providers and models that answer oddly, and each answer still read as meant: gateways and
proxies (an HTML 502 page, a 200 whose body is an error, SSE comments and pings, no `[DONE]`, a
stream cut into 3-byte pieces through UTF-8 characters), calls built to break a JSON parser, a
thousand calls in one answer, and an answer of megabytes — each through the real litellm client
over HTTP."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from openhands_tui.sdk import Agent
from openhands_tui.sdk.llm.answer_limits import MAX_ANSWER_CHARS, BoundedText
from openhands_tui.testing import Script, ScriptedToolCall, Turn
from openhands_tui.tools.preset.default import get_default_tools
from tests.conftest import llm_for
from tests.sdk.helpers import run

WORDS = "héllo wörld ✓ 🎉 日本語 — "


def _finish_with(message: str, text: str = "", fault: str | None = None) -> Turn:
    return Turn(text=text, fault=fault, tool_calls=[ScriptedToolCall(name="finish", arguments={"message": message})])


@pytest.mark.parametrize("fault", ["html_502", "error_200"])
async def test_an_error_page_or_an_error_with_200_is_retried(serve, workspace: Path, fault: str) -> None:
    server = serve([Script(turns=[Turn(fault=fault), Turn.finish("done")])])
    result = await run(Agent(llm=llm_for(server), tools=[]), workspace, "go")
    assert result.outcome.status == "finished" and result.outcome.result == "done"
    assert len(server.requests) == 2
    assert len(result.kinds("agent_error")) == 1


@pytest.mark.parametrize("fault", ["sse_noise", "no_done", "byte_split"])
async def test_odd_but_whole_streams_are_taken_as_sent(serve, workspace: Path, fault: str) -> None:
    text, message = WORDS * 30, "done " + WORDS * 10
    server = serve([Script(turns=[_finish_with(message, text, fault)])])
    result = await run(Agent(llm=llm_for(server), tools=[]), workspace, "go")
    assert result.outcome.status == "finished" and result.outcome.result == message
    said = [m.content for m in result.kinds("message") if m.role == "assistant"]
    assert said == [text] and not result.kinds("agent_error")
    assert len(server.requests) == 1


@pytest.mark.parametrize(
    "arguments, complaint",
    [
        ('{"command": ' + "[" * 100_000 + "]" * 100_000 + "}", "nested too deeply"),
        ('{"command": ' + "[" * 200 + "]" * 200 + "}", "nested more than 64 levels deep"),
        ('{"command": "echo", "timeout": ' + "9" * 5_000 + "}", "could not be read"),
    ],
    ids=["100000 deep", "200 deep", "5000 digits"],
)
async def test_json_built_to_break_a_parser_is_an_error_the_model_reads(
    serve, workspace: Path, arguments: str, complaint: str
) -> None:
    call = ScriptedToolCall(name="terminal", arguments=arguments)
    server = serve([Script(turns=[Turn(tool_calls=[call]), Turn.finish("done")])])
    result = await run(Agent(llm=llm_for(server), tools=get_default_tools()), workspace, "go")
    assert result.outcome.status == "finished" and result.outcome.result == "done"
    assert complaint in server.requests[1].messages[-1]["content"]


async def test_a_thousand_calls_in_one_answer_each_get_a_result(serve, workspace: Path) -> None:
    calls = [ScriptedToolCall(name="think", arguments={"thought": f"step {n}"}) for n in range(1_000)]
    server = serve([Script(turns=[Turn(tool_calls=calls), Turn.finish("done")])])
    result = await run(Agent(llm=llm_for(server, timeout=60), tools=get_default_tools()), workspace, "go")
    assert result.outcome.result == "done"
    sent = server.requests[1].messages
    answered = {m["tool_call_id"] for m in sent if m["role"] == "tool"}
    asked = {c["id"] for m in sent if m["role"] == "assistant" for c in m.get("tool_calls") or ()}
    assert len(asked) == 1_000 and answered == asked


async def test_an_answer_of_megabytes_keeps_its_start_and_end(serve, workspace: Path) -> None:
    text = "".join(f"line {n} of a long answer\n" for n in range(250_000))  # 6.5 MB
    server = serve([Script(turns=[Turn(text=text)])])
    result = await run(Agent(llm=llm_for(server, timeout=60), tools=[]), workspace, "go")
    [kept] = [m.content for m in result.kinds("message") if m.role == "assistant"]
    assert len(kept) < MAX_ANSWER_CHARS + 200 < len(text)
    assert kept.startswith("line 0 of") and kept.endswith("line 249999 of a long answer\n")
    assert f"[… {len(text) - MAX_ANSWER_CHARS:,} characters of this answer were not kept …]" in kept
    assert result.outcome.result == kept
    assert sum(len(event.model_dump_json()) for event in result.events) < 3 * MAX_ANSWER_CHARS


def test_bounded_text_keeps_what_fits_whole() -> None:
    collector = BoundedText(10)
    for piece in ["abc", "def", "ghij"]:
        collector.add(piece)
    assert collector.text() == "abcdefghij" and not collector.overflowed
    collector.add("KLMNOP")
    assert collector.text() == "abcde\n[… 6 characters of this answer were not kept …]\nLMNOP"
    head_only = BoundedText(4, keep_tail=False)
    head_only.add("x" * 1000)
    assert head_only.text() == "xxxx" and head_only.total == 1000
    assert json.dumps(collector.text())


async def test_a_call_of_a_name_no_tool_can_have_is_sent_back_as_providers_accept(serve, workspace: Path) -> None:
    """OpenAI and Anthropic refuse a function name outside [A-Za-z0-9_-]{1,64}: echoed back as
    it came, every later request of the session (and of its resume) would be a 400."""
    odd = ["x" * 100_000, "bad name!\x1b[2J", "good_name"]
    turns = [Turn(tool_calls=[ScriptedToolCall(name=name, arguments={})]) for name in odd]
    server = serve([Script(turns=[*turns, Turn.finish("done")])])
    result = await run(Agent(llm=llm_for(server), tools=get_default_tools()), workspace, "go")
    assert result.outcome.result == "done"
    sent = [c["function"]["name"] for m in server.requests[-1].messages for c in m.get("tool_calls") or ()]
    assert sent == ["x" * 64, "bad_name___2J", "good_name"]
    told = [str(request.messages[-1]["content"]) for request in server.requests[1:]]
    assert told[0].startswith("There is no tool named 'xxx") and "… (100,000 characters)'" in told[0]
    assert len(told[0]) < 1_000
