"""Microagents in real runs: injected once, in the user message, per agent, visible as events."""

from __future__ import annotations

from pathlib import Path

from openhands_tui.sdk import Agent, AgentContext
from openhands_tui.sdk.context import load_microagents
from openhands_tui.sdk.tool import Tool
from openhands_tui.testing import Script, Turn
from openhands_tui.tools.delegate import register_agent
from openhands_tui.tools.preset.default import get_default_tools
from tests.conftest import llm_for, model_args, run_tui
from tests.sdk.helpers import run


def _agent(server, **kwargs) -> Agent:
    return Agent(llm=llm_for(server), tools=get_default_tools(), **kwargs)


async def test_knowledge_is_injected_once_and_the_system_prompt_never_changes(serve, workspace: Path) -> None:
    server = serve([Script(turns=[Turn.call("think", thought="hm"), Turn.finish("first"), Turn.finish("second")])])
    first = await run(_agent(server), workspace, "Write a Dockerfile for this docker app")
    triggered = [e for e in first.kinds("microagent_triggered") if e.type == "knowledge"]
    assert [(e.name, e.keyword) for e in triggered] == [("docker", "docker")]
    assert triggered[0].tokens > 0 and "least privilege" in triggered[0].content
    message = server.requests[0].messages[1]["content"]
    assert message.count("<EXTRA_INFO>") == 1
    assert 'keyword match for "docker"' in message and "It may or may not be relevant" in message
    # the second message of the same conversation mentions docker again: no second injection
    conversation = first.conversation
    conversation.root.add_user_message("now add docker compose too")
    assert "<EXTRA_INFO>" not in conversation.root.builder.messages[-1]["content"]
    system_prompts = {r.messages[0]["content"] for r in server.requests}
    assert len(system_prompts) == 1


async def test_repo_microagents_go_in_the_workspace_block(serve, workspace: Path) -> None:
    (workspace / "AGENTS.md").write_text("Always use tabs.\n")
    server = serve([Script(turns=[Turn.finish()])])
    result = await run(_agent(server), workspace, "hello")
    first_user = server.requests[0].messages[1]["content"]
    block = first_user.split("<WORKSPACE_CONTEXT>", 1)[1]
    assert "## agents (AGENTS.md)\nAlways use tabs." in block
    assert "Always use tabs." not in server.requests[0].messages[0]["content"]
    repo_events = [e for e in result.kinds("microagent_triggered") if e.type == "repo"]
    assert [(e.name, e.keyword) for e in repo_events] == [("agents", None)]
    loaded = result.kinds("microagents_loaded")[0]
    assert any(m["name"] == "agents" and m["type"] == "repo" for m in loaded.microagents)


async def test_a_child_gets_knowledge_from_its_own_task_and_the_parent_does_not(serve, workspace: Path) -> None:
    def tester(llm):
        return Agent(
            llm=llm,
            name="tester",
            tools=get_default_tools(),
            agent_context=AgentContext(system_message_suffix="ROLE:tester"),
        )

    register_agent("tester", tester, "runs tests")
    server = serve(
        [
            Script(
                name="root",
                match="ROLE:root",
                turns=[
                    Turn.call("delegate", agent="tester", task="Run pytest on the parser module"),
                    Turn.finish(),
                ],
            ),
            Script(name="tester", match="ROLE:tester", turns=[Turn.finish("all green")]),
        ]
    )
    root = Agent(
        llm=llm_for(server),
        tools=[Tool(name="DelegateTool")],
        agent_context=AgentContext(system_message_suffix="ROLE:root"),
    )
    result = await run(root, workspace, "Check the parser module")
    child_first = server.requests_for("tester")[0].messages[1]["content"]
    assert 'keyword match for "pytest"' in child_first
    assert all(
        "<EXTRA_INFO>" not in m.get("content", "")
        for r in server.requests_for("root")
        for m in r.messages
        if m["role"] == "user"
    )
    fired = [(e.agent_id, e.name) for e in result.kinds("microagent_triggered") if e.type == "knowledge"]
    assert fired == [("tester-1", "testing")]


async def test_injection_is_remembered_across_resume(serve, workspace: Path, tmp_path: Path) -> None:
    from openhands_tui.sdk.facts.store import SessionMeta, SessionStore

    store = SessionStore(tmp_path / "state")
    server = serve([Script(turns=[Turn.finish("a"), Turn.finish("b")])])
    await run(_agent(server), workspace, "a docker question", log=store.create(SessionMeta(id="s")))
    log = store.open("s")
    await run(_agent(server), workspace, "another docker question", log=log, history=log.load().events)
    assert "<EXTRA_INFO>" not in server.requests[1].messages[-1]["content"]


async def test_task_microagents_fill_inputs(serve, microagent_workspace: Path) -> None:
    server = serve([Script(turns=[Turn.finish("fixed")])])
    microagents = load_microagents(microagent_workspace)
    from openhands_tui.sdk import Conversation, ConversationParts

    events: list = []
    parts = ConversationParts(microagents=microagents, subscribers=[events.append])
    conversation = Conversation(_agent(server), workspace=microagent_workspace, parts=parts)
    await conversation.run("/fix_issue please be careful", inputs={"issue": "42", "branch": "fix/42"})
    await conversation.close()
    sent = server.requests[0].messages[1]["content"]
    assert sent.startswith("Fix issue #42 on branch fix/42. Add a regression test.\n\nplease be careful")
    assert any(e.kind == "microagent_triggered" and e.type == "task" and e.keyword == "/fix_issue" for e in events)


def test_task_microagent_headless_with_inputs_and_missing_input(serve, microagent_workspace: Path) -> None:
    server = serve([Script(turns=[Turn.finish("done with 7")])])
    common = [
        "--headless",
        "--workspace",
        str(microagent_workspace),
        *model_args(server),
    ]
    ok = run_tui(*common, "--task", "/fix_issue", "--input", "issue=7", "--input", "branch=main")
    assert ok.returncode == 0, ok.stderr
    assert "Fix issue #7 on branch main." in server.requests[0].messages[1]["content"]
    missing = run_tui(*common, "--task", "/fix_issue", "--input", "issue=7")
    assert missing.returncode == 2
    assert missing.stderr.strip() == "tui: /fix_issue needs input branch (give --input branch=...)"
    unknown = run_tui(*common, "--task", "/fix_isue")
    assert unknown.returncode == 2
    assert "no task microagent by that name (available: /fix_issue, /notes, /pdf-tools)" in unknown.stderr
    assert len(server.requests) == 1  # nothing ran for the bad invocations
