"""MCP resources reach the model: a scripted model lists and reads a real server's resources
through `mcp_resources` (rated LOW as a read-only MCP call), the server records the read, and
what comes back is stripped of escapes, with binary contents as a note."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from openhands_tui.sdk import Agent
from openhands_tui.sdk.facts.event import Risk
from openhands_tui.testing import Script, ScriptedToolCall, Turn
from tests.conftest import llm_for
from tests.mcp.servers import PYTHON
from tests.sdk.helpers import run

SERVER = Path(__file__).with_name("library_server.py")


def library_server(record: Path) -> dict[str, Any]:
    """The library server in its jail, allowed to write only its record's folder."""
    return {"command": PYTHON, "args": [str(SERVER), str(record)], "sandbox": {"writable": [str(record.parent)]}}


def _call(**arguments: object) -> ScriptedToolCall:
    return ScriptedToolCall(name="mcp_resources", arguments=arguments)


def _tool_results(request: Any) -> list[str]:
    return [m["content"] for m in request.messages if m["role"] == "tool"]


async def test_model_lists_and_reads_a_servers_resources(serve, workspace: Path, tmp_path: Path) -> None:
    record = tmp_path / "record.txt"
    calls = [
        _call(operation="list"),
        _call(operation="read", server="library", uri="library://books/dune"),
        _call(operation="read", server="library", uri="library://shelf/sand"),
        _call(operation="read", server="library", uri="library://cover.png"),
        _call(operation="read", server="nowhere", uri="library://books/dune"),
    ]
    server = serve([Script(turns=[Turn(tool_calls=calls), Turn.finish("done")])])
    config = {"mcpServers": {"library": library_server(record)}}
    result = await run(Agent(llm=llm_for(server), tools=[], mcp_config=config), workspace, "read the book")

    assert result.outcome.status.value == "finished", result.outcome
    offered = {tool["function"]["name"] for tool in server.requests[0].body["tools"]}
    assert "mcp_resources" in offered
    listing, dune, shelf, cover, unknown = _tool_results(server.requests[1])
    assert "library://books/dune" in listing and "The first line of Dune" in listing
    assert "template library://shelf/{topic}" in listing
    assert dune.startswith("A beginning is the time for taking the most delicate care.")
    assert "\x1b" not in dune and "\x07" not in dune
    assert shelf == "books about sand: none yet"
    assert "binary resource library://cover.png (image/png" in cover
    assert "No MCP server 'nowhere'" in unknown
    assert sorted(record.read_text().splitlines()) == [  # read-only calls run side by side
        "read library://books/dune",
        "read library://cover.png",
        "read library://shelf/sand",
    ]
    actions = [a for a in result.kinds("action") if a.tool_name == "mcp_resources"]
    assert [(a.subject.kind, a.subject.tool) for a in actions][:2] == [
        ("mcp", "resources/list"),
        ("mcp", "resources/read"),
    ]
    assert {a.risk for a in actions} == {Risk.LOW}


def _user_text(request: Any) -> str:
    users = [m for m in request.messages if m["role"] == "user"]
    content = users[-1]["content"]
    return content if isinstance(content, str) else "\n".join(p.get("text", "") for p in content)


async def test_at_server_uri_attaches_the_resource_and_an_unknown_server_is_a_note(
    serve, workspace: Path, tmp_path: Path
) -> None:
    record = tmp_path / "record.txt"
    server = serve([Script(turns=[Turn.finish("done")])])
    config = {"mcpServers": {"library": library_server(record)}}
    task = "summarise @library:library://books/dune and @atlas:maps://earth please"
    result = await run(Agent(llm=llm_for(server), tools=[], mcp_config=config), workspace, task)

    assert result.outcome.status.value == "finished", result.outcome
    sent = _user_text(server.requests[0])
    assert '<RESOURCE name="library:library://books/dune">' in sent
    assert "A beginning is the time for taking the most delicate care." in sent
    assert "\x1b" not in sent
    assert "@atlas:maps://earth was not attached: no MCP server 'atlas'" in sent
    assert record.read_text().splitlines() == ["read library://books/dune"]


async def test_slash_server_prompt_runs_the_prompt_as_the_users_turn(serve, workspace: Path, tmp_path: Path) -> None:
    record = tmp_path / "record.txt"
    server = serve([Script(turns=[Turn.finish("done")])])
    config = {"mcpServers": {"library": library_server(record)}}
    agent = Agent(llm=llm_for(server), tools=[], mcp_config=config)
    result = await run(agent, workspace, "/library:review Dune chapter=3")

    assert result.outcome.status.value == "finished", result.outcome
    assert "Please review chapter 3 of Dune and list three strengths." in _user_text(server.requests[0])
    assert record.read_text().splitlines() == ['prompt review {"book": "Dune", "chapter": "3"}']
