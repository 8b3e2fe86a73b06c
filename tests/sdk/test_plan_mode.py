"""Plan mode held by the engine and the sandbox: whatever the scripted model tries (file edits,
writing commands, a child that writes), a planning run changes nothing in the workspace, and
its finish message is a plan; approving it carries the plan out in the same session."""

from __future__ import annotations

from pathlib import Path

from openhands_tui.sdk import Agent, AgentContext, Conversation, ConversationParts, Status
from openhands_tui.sdk.facts.event import Event, PlanProposedEvent, PolicyChangedEvent
from openhands_tui.sdk.run.confirmation import ConfirmationMode, ConfirmationPolicy
from openhands_tui.sdk.run.plan_mode import last_plan, planning_when_stored
from openhands_tui.sdk.tool import Tool
from openhands_tui.testing import Script, Turn
from openhands_tui.tools.delegate import register_agent
from openhands_tui.tools.preset.default import get_default_tools
from tests.conftest import llm_for
from tests.sdk.helpers import ScriptedConfirmer, run

WRITES = [
    Turn.call("file_editor", command="create", path="new.txt", file_text="planted\n"),
    Turn.call("file_editor", command="str_replace", path="keep.txt", old_str="original", new_str="changed"),
    Turn.call("terminal", command="echo planted > shell.txt; touch touched.txt; rm -f keep.txt; mkdir made"),
    Turn.call("terminal", command="cat keep.txt"),
]


def _snapshot(folder: Path) -> dict[str, str]:
    return {str(p.relative_to(folder)): p.read_text() if p.is_file() else "<dir>" for p in sorted(folder.rglob("*"))}


def _agent(server, role: str, tools: list[Tool]) -> Agent:
    return Agent(llm=llm_for(server), name=role, tools=tools, agent_context=AgentContext(system_message_suffix=role))


async def test_a_plan_mode_run_changes_nothing_even_when_the_model_tries(serve, workspace: Path) -> None:
    (workspace / "keep.txt").write_text("original\n")
    register_agent("helper", lambda llm: _agent(server, "ROLE:helper", get_default_tools()), "a helper that writes")
    server = serve(
        [
            Script(
                name="root",
                match="ROLE:root",
                turns=[*WRITES, Turn.call("delegate", agent="helper", task="write it"), Turn.finish("PLAN: 1. edit")],
            ),
            Script(name="helper", match="ROLE:helper", turns=[*WRITES, Turn.finish("could not write")]),
        ]
    )
    before = _snapshot(workspace)
    root = _agent(server, "ROLE:root", [*get_default_tools(), Tool(name="DelegateTool")])
    confirmer = ScriptedConfirmer()  # would approve whatever it were asked
    policy = ConfirmationPolicy(mode=ConfirmationMode.ALWAYS)
    result = await run(root, workspace, "add a feature", plan_mode=True, confirmer=confirmer, policy=policy)

    assert _snapshot(workspace) == before
    assert result.outcome.status is Status.FINISHED and result.outcome.result == "PLAN: 1. edit"
    assert [e.plan for e in result.kinds("plan_proposed")] == ["PLAN: 1. edit"]
    refused = [e for e in result.kinds("confirmation_resolved") if e.decided_by == "plan mode"]
    assert len(refused) == 4  # two edits each, by the root and by its child; never the user
    assert confirmer.requests == []  # "ask always" asks about changes; in plan mode there are none
    outputs = [e.content for e in result.kinds("observation") if e.tool_name == "terminal"]
    assert any("Read-only file system" in text for text in outputs)
    assert sum("original" in text for text in outputs) == 2  # reading works, for both
    first = server.requests[0].body
    editor = next(t for t in first["tools"] if t["function"]["name"] == "file_editor")
    assert editor["function"]["parameters"]["properties"]["command"]["enum"] == ["view"]
    assert "PLAN MODE" in str(first["messages"])


async def test_approving_the_plan_carries_it_out_in_the_same_session(serve, workspace: Path) -> None:
    server = serve(
        [
            Script(
                turns=[
                    Turn.call("file_editor", command="create", path="a.txt", file_text="early\n"),
                    Turn.finish("1. create a.txt"),
                    Turn.call("file_editor", command="create", path="a.txt", file_text="done\n"),
                    Turn.finish("created a.txt"),
                ]
            )
        ]
    )
    events: list[Event] = []
    conversation = Conversation(
        _agent(server, "ROLE:root", get_default_tools()),
        workspace=workspace,
        parts=ConversationParts(subscribers=[events.append], plan_mode=True),
    )
    try:
        planned = await conversation.run("make a.txt")
        assert planned.result == "1. create a.txt" and not (workspace / "a.txt").exists()
        plan = last_plan(events)
        assert plan is not None and planning_when_stored(events)
        done = await conversation.approve_plan(plan + "\n2. (my edit)", ConfirmationMode.NEVER)
    finally:
        await conversation.close()
    assert done.status is Status.FINISHED and (workspace / "a.txt").read_text() == "done\n"
    modes = [(e.mode, e.plan) for e in events if isinstance(e, PolicyChangedEvent)]
    assert modes == [("risky", True), ("never", False)] and not planning_when_stored(events)
    approval = server.requests[2].messages[-1]["content"]
    assert "approved your plan" in str(approval) and "2. (my edit)" in str(approval)
    assert len([e for e in events if isinstance(e, PlanProposedEvent)]) == 1  # the run out of plan mode is no plan


async def test_a_read_only_agent_and_its_children_only_read(serve, workspace: Path) -> None:
    """`Agent(read_only=True)`: held to plan mode in a session that is not planning."""
    register_agent("scout", lambda llm: _agent(server, "ROLE:scout", get_default_tools()), "looks around")
    server = serve(
        [
            Script(
                name="root",
                match="ROLE:root",
                turns=[*WRITES[:3], Turn.call("delegate", agent="scout", task="look"), Turn.finish("looked")],
            ),
            Script(name="scout", match="ROLE:scout", turns=[*WRITES[:3], Turn.finish("looked too")]),
        ]
    )
    root = _agent(server, "ROLE:root", [*get_default_tools(), Tool(name="DelegateTool")])
    root = root.model_copy(update={"read_only": True})
    (workspace / "keep.txt").write_text("original\n")
    before = _snapshot(workspace)
    result = await run(root, workspace, "look")
    assert _snapshot(workspace) == before and result.outcome.status is Status.FINISHED
    assert result.kinds("plan_proposed") == []  # only a planning session's root presents plans
