"""Real MCP servers give agents tools: a scripted model calls them and the results reach its
next request; servers that fail are warnings and the run goes on; nothing outlives the run."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

from openhands_tui.sdk import Agent
from openhands_tui.sdk.facts.event import Risk
from openhands_tui.sdk.run.confirmation import Decision
from openhands_tui.sdk.security.permissions import PermissionRule, PermissionSet
from openhands_tui.testing import Script, ScriptedToolCall, Turn
from tests.conftest import llm_for, still_running_after
from tests.mcp.servers import (
    EXITS_AT_START,
    HANGS,
    MALFORMED,
    NOT_UTF8_FIRST,
    HTTPServer,
    git_repo,
    git_server,
    time_server,
)
from tests.sdk.helpers import ScriptedConfirmer, run


def _call(name: str, **arguments: object) -> ScriptedToolCall:
    return ScriptedToolCall(name=name, arguments=arguments)


def _tool_results(request) -> list[str]:
    return [m["content"] for m in request.messages if m["role"] == "tool"]


async def test_pypi_and_http_servers_tools_reach_the_next_request(
    serve, workspace: Path, tmp_path: Path, http_server: HTTPServer
) -> None:
    repo = git_repo(tmp_path / "repo")
    tag = f"mcp-test-{tmp_path.name}"
    calls = [
        _call("time__get_current_time", timezone="Europe/Paris"),
        _call("git__git_status", repo_path=str(repo)),
        _call("web__lookup", key="answer"),
    ]
    server = serve([Script(turns=[Turn(tool_calls=calls), Turn.finish("done")])])
    config = {"mcpServers": {"time": time_server(tag), "git": git_server(repo, tag), "web": http_server.config()}}
    result = await run(Agent(llm=llm_for(server), tools=[], mcp_config=config), workspace, "what time is it?")

    assert result.outcome.status.value == "finished", result.outcome
    offered = {tool["function"]["name"] for tool in server.requests[0].body["tools"]}
    assert {"time__get_current_time", "git__git_status", "git__git_reset", "web__lookup", "web__record"} <= offered
    clock, status, looked_up = _tool_results(server.requests[1])
    assert json.loads(clock)["timezone"] == "Europe/Paris"
    assert "notes.txt" in status and "modified" in status
    assert looked_up == "value of answer"
    actions = [a for a in result.kinds("action") if a.tool_name != "finish"]
    assert [(a.subject.kind, a.subject.server, a.subject.tool) for a in actions] == [
        ("mcp", "time", "get_current_time"),
        ("mcp", "git", "git_status"),
        ("mcp", "web", "lookup"),
    ]
    assert {a.risk for a in actions} == {Risk.LOW}  # all three say readOnlyHint
    assert not still_running_after(tag), "the server outlived its session"


async def test_failing_servers_are_warnings_and_the_run_goes_on(serve, workspace: Path) -> None:
    server = serve(
        [Script(turns=[Turn(tool_calls=[_call("time__get_current_time", timezone="UTC")]), Turn.finish("ok")])]
    )
    config = {"mcpServers": {"exits": EXITS_AT_START, "hangs": HANGS, "garbled": MALFORMED, "time": time_server()}}
    result = await run(Agent(llm=llm_for(server), tools=[], mcp_config=config), workspace, "time?")

    assert result.outcome.status.value == "finished", result.outcome
    warnings = {e.error.split("'")[1]: e.error for e in result.kinds("agent_error")}
    assert set(warnings) == {"exits", "hangs", "garbled"}
    assert "no licence key" in warnings["exits"]  # the server's own last words
    assert "did not answer within 1.5 s" in warnings["hangs"]
    assert "not JSON-RPC" in warnings["garbled"]
    assert json.loads(_tool_results(server.requests[1])[0])["timezone"] == "UTC"
    offered = {tool["function"]["name"] for tool in server.requests[0].body["tools"]}
    assert not any(name.startswith(("exits__", "hangs__", "garbled__")) for name in offered)
    assert not still_running_after("time.sleep(60)"), "a failed server was left running"


async def test_how_the_servers_are_doing_reaches_subscribers_as_events(serve, workspace: Path, tmp_path: Path) -> None:
    """Front ends learn of the session's servers from the event stream (the app's /mcp panel),
    as each starts, runs or fails; the events are not stored (a resumed session starts its
    servers again), and closing the session says nothing (a front end may show the next one)."""
    from openhands_tui.sdk.facts.store import SessionMeta, SessionStore

    store = SessionStore(tmp_path / "state")
    server = serve([Script(turns=[Turn.finish("ok")])])
    config = {"mcpServers": {"time": time_server(), "broken": EXITS_AT_START}}
    agent = Agent(llm=llm_for(server), tools=[], mcp_config=config)
    result = await run(agent, workspace, "time?", log=store.create(SessionMeta(id="s")))

    said = result.kinds("mcp_servers")
    assert {s.name: s.state for s in said[0].servers} == {"time": "starting", "broken": "starting"}
    last = {s.name: s for s in said[-1].servers}
    assert last["time"].state == "running" and "get_current_time" in last["time"].tools
    assert last["broken"].state == "failed" and "no licence key" in last["broken"].error
    assert all(event.servers for event in said)  # nothing when the session closed
    assert all(event.agent_id == "root" for event in said)
    assert not [e for e in store.open("s").load().events if e.kind == "mcp_servers"]


async def test_a_resumed_session_has_the_calls_and_the_tools_again(serve, workspace: Path, tmp_path: Path) -> None:
    from openhands_tui.sdk.facts.store import SessionMeta, SessionStore

    store = SessionStore(tmp_path / "state")
    turns = [
        Turn(tool_calls=[_call("time__get_current_time", timezone="UTC")]),
        Turn.finish("first"),
        Turn(
            tool_calls=[_call("time__convert_time", source_timezone="UTC", time="12:00", target_timezone="Asia/Tokyo")]
        ),
        Turn.finish("second"),
    ]
    server = serve([Script(turns=turns)])
    config = {"mcpServers": {"time": time_server()}}
    await run(
        Agent(llm=llm_for(server), tools=[], mcp_config=config), workspace, "one", log=store.create(SessionMeta(id="s"))
    )
    before = server.requests[1].messages

    log = store.open("s")
    history = log.load().events
    stored = [e for e in history if e.kind == "action" and e.tool_name == "time__get_current_time"]
    assert stored and stored[0].subject.kind == "mcp" and stored[0].subject.annotations.read_only
    second = await run(
        Agent(llm=llm_for(server), tools=[], mcp_config=config), workspace, "two", log=log, history=history
    )
    assert second.outcome.result == "second"
    assert server.requests[2].messages[: len(before)] == before  # the stored MCP call and its result
    assert "21:00" in _tool_results(server.requests[3])[-1]  # the tools are there again


async def test_a_destructive_tool_is_asked_about_and_always_saves_that_tools_rule(
    serve, workspace: Path, tmp_path: Path
) -> None:
    repo = git_repo(tmp_path / "repo")
    subprocess.run(["git", "-C", str(repo), "add", "notes.txt"], check=True)
    reset = _call("git__git_reset", repo_path=str(repo))
    server = serve([Script(turns=[Turn(tool_calls=[reset]), Turn(tool_calls=[reset]), Turn.finish("done")])])
    rule = PermissionRule(action="allow", mcp="git/git_reset", exact=True)
    confirmer = ScriptedConfirmer(
        answers=[Decision(approved=False, reason="keep it staged"), Decision(approved=True, remember=rule)]
    )
    rules_file = tmp_path / "permissions.toml"
    agent = Agent(llm=llm_for(server), tools=[], mcp_config={"mcpServers": {"git": git_server(repo)}})
    result = await run(
        agent,
        workspace,
        "unstage",
        confirmer=confirmer,
        permissions=PermissionSet([], workspace),
        rules_file=rules_file,
    )

    assert result.outcome.status.value == "finished"
    asked = confirmer.requests[0]
    assert asked.risk is Risk.HIGH and asked.subject.server == "git" and asked.subject.tool == "git_reset"
    assert asked.suggested_rule == {"action": "allow", "mcp": "git/git_reset", "exact": True}
    first, second = (o.outcome for o in result.kinds("observation") if o.tool_name == "git__git_reset")
    assert (first, second) == ("rejected", "ok")
    assert 'mcp = "git/git_reset"' in rules_file.read_text()


async def test_a_line_that_is_not_utf8_costs_a_server_that_line_only(serve, workspace: Path) -> None:
    """One line of bytes that are not UTF-8 lost every tool of the server and stalled start-up
    until its timeout, reported as "did not answer"; the line is now garbage like any other."""
    server = serve(
        [Script(turns=[Turn(tool_calls=[_call("odd__get_current_time", timezone="UTC")]), Turn.finish("ok")])]
    )
    config = {"mcpServers": {"odd": {**NOT_UTF8_FIRST, "timeout": 20}}}
    result = await run(Agent(llm=llm_for(server), tools=[], mcp_config=config), workspace, "time?")
    assert result.outcome.status.value == "finished", result.outcome
    assert json.loads(_tool_results(server.requests[1])[0])["timezone"] == "UTC"
