"""A microagent's `mcp_tools` bring their servers when it fires; a project's own microagent
may start programs only once the user trusts it."""

from __future__ import annotations

import json
from pathlib import Path

from openhands_tui.sdk import Agent
from openhands_tui.testing import Script, ScriptedToolCall, Turn
from tests.conftest import llm_for
from tests.mcp.servers import time_server
from tests.sdk.helpers import run


def _clock_microagent(workspace: Path) -> Path:
    folder = workspace / ".openhands" / "microagents"
    folder.mkdir(parents=True)
    server = json.dumps(time_server())
    path = folder / "clock.md"
    path.write_text(f"---\ntriggers: [timezone]\nmcp_tools:\n  mcpServers:\n    clock: {server}\n---\nUse the clock.\n")
    return path


async def test_a_fired_microagent_brings_its_servers_tools(serve, workspace: Path) -> None:
    _clock_microagent(workspace)
    calls = [ScriptedToolCall(name="clock__get_current_time", arguments={"timezone": "UTC"})]
    server = serve([Script(turns=[Turn(tool_calls=calls), Turn.finish("noon")])])
    result = await run(Agent(llm=llm_for(server), tools=[]), workspace, "which timezone am I in?", trust_project=True)

    assert result.outcome.status.value == "finished", result.outcome
    assert "clock__get_current_time" in {t["function"]["name"] for t in server.requests[0].body["tools"]}
    sent = [m["content"] for m in server.requests[1].messages if m["role"] == "tool"]
    assert json.loads(sent[0])["timezone"] == "UTC"


async def test_an_untrusted_projects_microagent_starts_nothing(serve, workspace: Path) -> None:
    path = _clock_microagent(workspace)
    server = serve([Script(turns=[Turn.finish("no clock")])])
    result = await run(Agent(llm=llm_for(server), tools=[]), workspace, "which timezone am I in?")

    assert result.outcome.status.value == "finished"
    assert not any(t["function"]["name"].startswith("clock__") for t in server.requests[0].body["tools"])
    assert [e.error for e in result.kinds("agent_error")] == [
        f"{path}: its MCP servers (clock) were not started: this project's files may not start programs until "
        "you trust them (in the app, or with --trust-project)"
    ]


def _always_on_tools_microagent(workspace: Path, command: str, args: list[str]) -> Path:
    """OpenHands' own `default-tools` microagent, in its shape: always on, no text, a server."""
    folder = workspace / ".openhands" / "microagents"
    folder.mkdir(parents=True)
    path = folder / "default-tools.md"
    path.write_text(
        "---\nname: default-tools\ntype: repo\nversion: 1.0.0\nagent: CodeActAgent\nmcp_tools:\n"
        f"  stdio_servers:\n    - name: clock\n      command: {json.dumps(command)}\n      args: {json.dumps(args)}\n"
        "# the body is left empty: the tools describe themselves\n---\n"
    )
    return path


async def test_an_always_on_microagent_with_only_servers_starts_them_with_the_session(serve, workspace: Path) -> None:
    clock = time_server()
    _always_on_tools_microagent(workspace, clock["command"], clock["args"])
    calls = [ScriptedToolCall(name="clock__get_current_time", arguments={"timezone": "UTC"})]
    server = serve([Script(turns=[Turn(tool_calls=calls), Turn.finish("noon")])])
    result = await run(Agent(llm=llm_for(server), tools=[]), workspace, "what time is it?", trust_project=True)
    assert result.outcome.status.value == "finished", result.outcome
    assert "clock__get_current_time" in {t["function"]["name"] for t in server.requests[0].body["tools"]}


async def test_an_always_on_microagents_server_that_cannot_start_is_said(serve, workspace: Path) -> None:
    _always_on_tools_microagent(workspace, "uvx-that-is-not-installed", ["mcp-server-fetch"])
    server = serve([Script(turns=[Turn.finish("no fetch")])])
    result = await run(Agent(llm=llm_for(server), tools=[]), workspace, "hello", trust_project=True)
    assert result.outcome.status.value == "finished", result.outcome
    said = " ".join(e.error for e in result.kinds("agent_error"))
    assert "clock" in said and "uvx-that-is-not-installed" in said, said
