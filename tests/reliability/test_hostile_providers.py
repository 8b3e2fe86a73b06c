"""Providers and models that send too little or too much: a partial answer is retried, never
taken as the whole one; a wait longer than the cap ends the run at once with the reason instead
of freezing it; and megabytes of text or a call of thousands of items are sent back shortened,
not with every later request."""

from __future__ import annotations

import time
from pathlib import Path

from openhands_tui.sdk import Agent
from openhands_tui.testing import Script, ScriptedToolCall, Turn
from openhands_tui.tools.preset.default import get_default_tools
from tests.conftest import llm_for
from tests.sdk.helpers import run


async def test_a_stream_cut_before_the_finish_is_retried_not_accepted(serve, workspace: Path) -> None:
    server = serve([Script(turns=[Turn(text="the first half of an ans", fault="cut"), Turn.finish("whole")])])
    result = await run(Agent(llm=llm_for(server), tools=[]), workspace, "go")
    assert result.outcome.status == "finished" and result.outcome.result == "whole"
    assert len(server.requests) == 2
    assert any("ended before the model finished" in e.error for e in result.kinds("agent_error"))
    assert not any("first half" in m.content for m in result.kinds("message") if m.role == "assistant")


async def test_a_retry_after_beyond_the_cap_ends_the_run_at_once(serve, workspace: Path) -> None:
    server = serve([Script(turns=[Turn(fault="429", retry_after=86_400), Turn.finish("never")])])
    started = time.monotonic()
    result = await run(Agent(llm=llm_for(server, retry_after_cap=30), tools=[]), workspace, "go")
    assert time.monotonic() - started < 5
    assert result.outcome.status == "error" and result.outcome.exit_code == 1
    assert "asked to wait 86400s, more than retry_after_cap 30s" in result.outcome.detail
    assert len(server.requests) == 1


async def test_an_answer_of_megabytes_is_not_resent_with_every_request(serve, workspace: Path) -> None:
    echo = ScriptedToolCall(name="terminal", arguments={"command": "echo hi"})
    turns = [
        Turn(text="t" * 3_000_000, tool_calls=[echo]),
        Turn.call("terminal", command="echo 2"),
        Turn.finish("done"),
    ]
    server = serve([Script(turns=turns)])
    llm = llm_for(server, stream=False, timeout=60)
    result = await run(Agent(llm=llm, tools=get_default_tools()), workspace, "go")
    assert result.outcome.result == "done"
    sent = [len(str(request.messages)) for request in server.requests]
    assert len(sent) == 3 and max(sent) < 150_000, sent
    assert "characters of this answer omitted from the history" in str(server.requests[1].messages)


async def test_a_call_of_many_small_items_is_sent_back_shortened(serve, workspace: Path) -> None:
    """Under the 1 MB bound on a call (sdk/limits.py) and still far too long to send back whole."""
    tasks = [{"title": f"task {n}", "status": "todo"} for n in range(20_000)]
    turns = [Turn.call("task_tracker", command="plan", task_list=tasks), Turn.finish("planned")]
    server = serve([Script(turns=turns)])
    result = await run(Agent(llm=llm_for(server, timeout=60), tools=get_default_tools()), workspace, "plan")
    assert result.outcome.result == "planned"
    resent = str(server.requests[1].messages)
    assert len(resent) < 150_000 and "19,950 more items, omitted from the history" in resent
