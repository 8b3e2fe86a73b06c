"""Read-only MCP calls of one response run side by side; a write keeps its place; a call
cancelled here (Esc) or timed out is cancelled on the server too; a server that dies mid-call
is an error result."""

from __future__ import annotations

import asyncio
import time
from pathlib import Path

from openhands_tui.sdk import Agent, Conversation
from openhands_tui.testing import Script, ScriptedToolCall, Turn
from tests.conftest import llm_for
from tests.mcp.servers import HTTPServer, crashing_server
from tests.sdk.helpers import run


def _lookup(key: str) -> ScriptedToolCall:
    return ScriptedToolCall(name="web__lookup", arguments={"key": key})


def _agent(server, http_server: HTTPServer) -> Agent:
    return Agent(llm=llm_for(server), tools=[], mcp_config={"mcpServers": {"web": http_server.config()}})


async def test_eight_read_only_calls_take_the_time_of_one(serve, workspace: Path, http_server: HTTPServer) -> None:
    keys = [f"k{n}" for n in range(8)]
    server = serve([Script(turns=[Turn(tool_calls=[_lookup(k) for k in keys]), Turn.finish("done")])])
    result = await run(_agent(server, http_server), workspace, "look them up")

    lookups = [call for call in http_server.calls if call[0] == "lookup"]
    took = max(end for *_, end in lookups) - min(start for *_, start, _ in lookups)
    assert took < 1.0, took  # eight 0.5 s calls
    sent = [m["content"] for m in server.requests[1].messages if m["role"] == "tool"]
    assert sent == [f"value of {k}" for k in keys]  # in the order the model asked
    assert {a.parallel for a in result.kinds("action") if a.tool_name == "web__lookup"} == {8}


async def test_a_write_stays_after_the_reads_before_it(serve, workspace: Path, http_server: HTTPServer) -> None:
    http_server.delay = 0.2
    calls = [_lookup("a"), _lookup("b"), ScriptedToolCall(name="web__record", arguments={"note": "n"}), _lookup("c")]
    server = serve([Script(turns=[Turn(tool_calls=calls), Turn.finish("done")])])
    result = await run(_agent(server, http_server), workspace, "go")

    assert result.outcome.status.value == "finished"
    when = {arg: (start, end) for _, arg, start, end in http_server.calls}
    assert when["n"][0] >= max(when["a"][1], when["b"][1])  # the write waited for both reads
    assert when["c"][0] >= when["n"][1]  # and the read after it waited for the write
    assert when["b"][0] < when["a"][1]  # the two reads before it overlapped


async def test_a_cancelled_call_is_cancelled_on_the_server(serve, workspace: Path, http_server: HTTPServer) -> None:
    server = serve([Script(turns=[Turn(tool_calls=[_lookup("slow-one")]), Turn.finish("done")])])
    conversation = Conversation(_agent(server, http_server), workspace=workspace)
    task = asyncio.create_task(conversation.run("go"))
    deadline = time.monotonic() + 20
    while not http_server.started and time.monotonic() < deadline:
        await asyncio.sleep(0.05)
    task.cancel()
    outcome = await task
    await conversation.close()
    assert outcome.exit_code == 130
    for _ in range(50):
        if http_server.cancelled:
            break
        await asyncio.sleep(0.05)
    assert http_server.cancelled == ["slow-one"]


async def test_a_call_that_takes_too_long_times_out_and_is_cancelled(
    serve, workspace: Path, http_server: HTTPServer
) -> None:
    server = serve([Script(turns=[Turn(tool_calls=[_lookup("slow-two")]), Turn.finish("gave up")])])
    config = {"mcpServers": {"web": {**http_server.config(), "tool_timeout": 0.5}}}
    result = await run(Agent(llm=llm_for(server), tools=[], mcp_config=config), workspace, "go")

    assert result.outcome.status.value == "finished"
    sent = [m["content"] for m in server.requests[1].messages if m["role"] == "tool"]
    assert sent[0].startswith("MCP server 'web' did not answer 'lookup' within 0.5 s")
    for _ in range(50):
        if http_server.cancelled:
            break
        await asyncio.sleep(0.05)
    assert http_server.cancelled == ["slow-two"]


async def test_a_server_that_crashes_mid_call_is_an_error_result_and_the_run_goes_on(
    serve, workspace: Path, tmp_path: Path
) -> None:
    crash = ScriptedToolCall(name="crashy__crash", arguments={})
    server = serve([Script(turns=[Turn(tool_calls=[crash]), Turn(tool_calls=[crash]), Turn.finish("it broke")])])
    agent = Agent(llm=llm_for(server), tools=[], mcp_config={"mcpServers": {"crashy": crashing_server(tmp_path)}})
    result = await run(agent, workspace, "go")

    assert result.outcome.status.value == "finished"
    first, second = ([m["content"] for m in r.messages if m["role"] == "tool"][-1] for r in server.requests[1:3])
    assert first.startswith("MCP server 'crashy': ") and "continue without them" in first
    assert second.startswith("MCP server 'crashy' is not running (stopped answering: ")
    assert [o.outcome for o in result.kinds("observation") if o.tool_name == "crashy__crash"] == ["error", "error"]


async def test_a_servers_tokens_are_redacted_from_what_is_recorded(
    serve, workspace: Path, http_server: HTTPServer
) -> None:
    token = "tok-0123456789abcdef"
    server = serve([Script(turns=[Turn(tool_calls=[_lookup(token)]), Turn.finish("done")])])
    config = {"mcpServers": {"web": {**http_server.config(), "headers": {"Authorization": f"Bearer {token}"}}}}
    result = await run(Agent(llm=llm_for(server), tools=[], mcp_config=config), workspace, "go")

    assert http_server.started == [token]  # the server got the call as the model made it
    observed = next(o.content for o in result.kinds("observation") if o.tool_name == "web__lookup")
    assert token not in observed and "value of" in observed
    assert token not in server.requests[1].body["messages"][-1]["content"]
