"""Agents from files as delegates, against the scripted server over real HTTP: a child runs with
its file's instructions and under its own name, and only with the tools its file declares."""

from __future__ import annotations

from pathlib import Path

from openhands_tui.sdk import Agent, AgentContext, Status
from openhands_tui.sdk.context.agent_files import load_agent_files
from openhands_tui.sdk.file_agents import model_update, plan_file_agents
from openhands_tui.sdk.tool import Tool
from openhands_tui.testing import Script, Turn
from tests.conftest import llm_for
from tests.context.conftest import write
from tests.context.test_agent_files import project
from tests.sdk.helpers import run

REVIEWER = """---
name: reviewer
description: Reviews code; never changes it
tools: Read, Grep
---
ROLE:reviewer. Read the files and report problems.
"""


def _targets(workspace: Path, tmp_path: Path, model: str):
    notices: list[str] = []
    plans = plan_file_agents(load_agent_files(workspace, home=tmp_path / "home"), model, notices)
    return [plan.target() for plan in plans], notices


def _root(server) -> Agent:
    return Agent(
        llm=llm_for(server),
        name="root",
        tools=[Tool(name="DelegateTool")],
        agent_context=AgentContext(system_message_suffix="ROLE:root"),
    )


async def test_a_file_agent_is_a_delegate_target_that_runs_with_its_files_instructions(
    serve, workspace: Path, tmp_path: Path
) -> None:
    write(workspace / ".claude/agents/reviewer.md", REVIEWER)
    server = serve(
        [
            Script(
                name="root",
                match="ROLE:root",
                turns=[Turn.call("delegate", agent="reviewer", task="review app.py"), Turn.finish("done")],
            ),
            Script(name="reviewer", match="ROLE:reviewer", turns=[Turn.finish("no problems found")]),
        ]
    )
    targets, notices = _targets(workspace, tmp_path, server.model)
    result = await run(_root(server), workspace, "go", agents=targets)
    assert result.outcome.status is Status.FINISHED and notices == []
    (opened,) = result.kinds("delegation_opened")
    assert (opened.agent_name, opened.agent_id) == ("reviewer", "reviewer-1")  # shown under its own name
    (closed,) = result.kinds("delegation_closed")
    assert closed.status == "finished" and closed.result == "no problems found"
    root_tools = server.requests_for("root")[0].body["tools"]
    delegate = next(t for t in root_tools if t["function"]["name"] == "delegate")
    assert "- reviewer: Reviews code; never changes it" in delegate["function"]["description"]
    (request,) = server.requests_for("reviewer")
    assert "Read the files and report problems." in request.messages[0]["content"]


async def test_a_file_agent_is_held_to_its_declared_tools_by_the_engine(serve, workspace: Path, tmp_path: Path) -> None:
    write(workspace / ".claude/agents/reviewer.md", REVIEWER)
    (workspace / "app.py").write_text("print('hi')\n")
    server = serve(
        [
            Script(
                name="root",
                match="ROLE:root",
                turns=[Turn.call("delegate", agent="reviewer", task="review app.py"), Turn.finish("done")],
            ),
            Script(
                name="reviewer",
                match="ROLE:reviewer",
                turns=[
                    Turn.call("terminal", command="touch pwned"),
                    Turn.call("file_editor", command="create", path="new.py", file_text="x = 1\n"),
                    Turn.call("file_editor", command="view", path="app.py"),
                    Turn.finish("read it"),
                ],
            ),
        ]
    )
    targets, _ = _targets(workspace, tmp_path, server.model)
    result = await run(_root(server), workspace, "go", agents=targets)
    assert result.outcome.status is Status.FINISHED
    offered = {t["function"]["name"] for t in server.requests_for("reviewer")[0].body["tools"]}
    assert offered == {"file_editor", "think", "finish"}
    refused = [e.error for e in result.kinds("agent_error") if e.agent_id == "reviewer-1"]
    assert refused[0].startswith("There is no tool named 'terminal'. Available tools: file_editor, think, finish.")
    assert refused[1].startswith("Invalid arguments for 'file_editor': command: Input should be 'view'")
    (viewed, _) = [o.content for o in result.kinds("observation") if o.agent_id == "reviewer-1"]
    assert "print('hi')" in viewed
    assert not (workspace / "pwned").exists() and not (workspace / "new.py").exists()


async def test_a_strategys_own_agent_of_the_same_name_wins(serve, workspace: Path, tmp_path: Path) -> None:
    from openhands_tui.tools.delegate import register_agent

    write(workspace / ".claude/agents/reviewer.md", REVIEWER)

    def own(llm):
        return Agent(llm=llm, name="reviewer", agent_context=AgentContext(system_message_suffix="ROLE:own"))

    register_agent("reviewer", own, "the strategy's reviewer")
    server = serve(
        [
            Script(
                name="root",
                match="ROLE:root",
                turns=[Turn.call("delegate", agent="reviewer", task="t"), Turn.finish("done")],
            ),
            Script(name="own", match="ROLE:own", turns=[Turn.finish("mine")]),
        ]
    )
    targets, _ = _targets(workspace, tmp_path, server.model)
    result = await run(_root(server), workspace, "go", agents=targets)
    (closed,) = result.kinds("delegation_closed")
    assert closed.result == "mine" and server.requests_for("reviewer") == []


def test_a_model_is_used_only_where_the_sessions_provider_gives_it_meaning(workspace: Path, tmp_path: Path) -> None:
    project(workspace)
    home = tmp_path / "home"
    write(home / ".claude/agents/mine.md", "---\nname: mine\ndescription: d\nmodel: openai/gpt-4o\n---\nB\n")
    by = {a.name: a for a in load_agent_files(workspace, home=home).agents}
    anthropic, gemini = "anthropic/claude-sonnet-4-5", "gemini/gemini-2.5-pro"
    assert model_update(by["code-reviewer"], anthropic) == ({"model": "anthropic/claude-sonnet-4-5"}, None)
    update, notice = model_update(by["code-reviewer"], gemini)  # `sonnet` means nothing on Gemini
    assert update is None and notice is not None and "it uses the session's" in notice
    assert model_update(by["investigator"], gemini) == ({"model": "gemini/gemini-2.5-flash"}, None)
    assert model_update(by["security"], anthropic) == ({"model": "anthropic/claude-haiku-4-5"}, None)
    update, notice = model_update(by["security"], gemini)  # a project's file may not switch providers
    assert update is None and notice is not None and "may not send the conversation elsewhere" in notice
    assert model_update(by["mine"], gemini) == ({"model": "openai/gpt-4o", "api_key": None, "base_url": None}, None)
    update, notice = model_update(by["test-writer"], anthropic)  # Copilot's display name of a model
    assert update is None and notice is not None and "names no model litellm knows" in notice
    assert model_update(by["docs-writer"], gemini) == (None, None)


async def test_a_file_agent_gets_only_the_mcp_tools_it_names(serve, workspace: Path, tmp_path: Path) -> None:
    from openhands_tui.sdk.mcp_config import parse_servers
    from tests.mcp.servers import HTTPServer

    web = HTTPServer().start()
    try:
        agent_file = "---\nname: looker\ndescription: looks up\ntools: mcp__web__lookup\n---\nROLE:looker\n"
        write(workspace / ".claude/agents/looker.md", agent_file)
        server = serve(
            [
                Script(
                    name="root",
                    match="ROLE:root",
                    turns=[Turn.call("delegate", agent="looker", task="look up answer"), Turn.finish("done")],
                ),
                Script(
                    name="looker",
                    match="ROLE:looker",
                    turns=[
                        Turn.call("web__record", note="x"),
                        Turn.call("web__lookup", key="answer"),
                        Turn.finish("found"),
                    ],
                ),
            ]
        )
        targets, _ = _targets(workspace, tmp_path, server.model)
        servers, problems = parse_servers({"mcpServers": {"web": web.config()}}, "test")
        assert problems == []
        result = await run(_root(server), workspace, "go", agents=targets, mcp_servers=servers)
    finally:
        web.stop()
    assert result.outcome.status is Status.FINISHED
    root_offered = {t["function"]["name"] for t in server.requests_for("root")[0].body["tools"]}
    assert {"web__lookup", "web__record"} <= root_offered  # the root has the session's servers
    offered = {t["function"]["name"] for t in server.requests_for("looker")[0].body["tools"]}
    assert offered == {"web__lookup", "think", "finish"}
    refused = [e.error for e in result.kinds("agent_error") if e.agent_id == "looker-1"]
    assert refused[0].startswith("There is no tool named 'web__record'")
    (looked_up, _) = [o.content for o in result.kinds("observation") if o.agent_id == "looker-1"]
    assert looked_up == "value of answer"
