"""The run loop end to end: real litellm, real HTTP, real tools, scripted model."""

from __future__ import annotations

from pathlib import Path

from openhands_tui.sdk import Agent, AgentContext, Status
from openhands_tui.sdk.run.confirmation import ConfirmationMode, ConfirmationPolicy, Decision
from openhands_tui.sdk.run.runtime import Limits
from openhands_tui.sdk.sandbox import SandboxPolicy
from openhands_tui.testing import Script, ScriptedToolCall, Turn
from openhands_tui.tools.preset.default import get_default_tools
from tests.conftest import llm_for
from tests.sdk.helpers import ScriptedConfirmer, run


def _agent(server, **kwargs) -> Agent:
    return Agent(llm=llm_for(server), tools=get_default_tools(), **kwargs)


async def test_tool_calls_run_and_finish_ends_the_run(serve, workspace: Path) -> None:
    server = serve(
        [
            Script(
                turns=[
                    Turn(
                        text="Creating the file.",
                        tool_calls=[
                            ScriptedToolCall(
                                name="file_editor",
                                arguments={"command": "create", "path": "a.txt", "file_text": "hi\n"},
                            )
                        ],
                    ),
                    Turn.call("terminal", command="cat a.txt"),
                    Turn.finish("created a.txt"),
                ]
            )
        ]
    )
    result = await run(_agent(server), workspace, "make a.txt")
    assert result.outcome.status is Status.FINISHED and result.outcome.exit_code == 0
    assert result.outcome.result == "created a.txt"
    observations = result.kinds("observation")
    assert [o.tool_name for o in observations] == ["file_editor", "terminal", "finish"]
    assert observations[1].content.startswith("hi\n[exit code 0")
    # the model saw the terminal output as the tool result of its call
    last_request = server.requests[-1].messages
    tool_messages = [m for m in last_request if m["role"] == "tool"]
    assert tool_messages[-1]["content"] == observations[1].content
    assert last_request[-2]["tool_calls"][0]["id"] == tool_messages[-1]["tool_call_id"]


async def test_every_event_names_its_agent(serve, workspace: Path) -> None:
    server = serve([Script(turns=[Turn.call("terminal", command="true"), Turn.finish()])])
    result = await run(_agent(server), workspace, "go")
    assert {e.agent_id for e in result.events} == {"root"}
    assert all(e.parent_agent_id is None for e in result.events)
    kinds = [e.kind for e in result.events if not e.transient]
    assert kinds[:5] == ["system_prompt", "microagents_loaded", "policy_changed", "message", "status"]


async def test_plain_answer_ends_the_run(serve, workspace: Path) -> None:
    server = serve([Script(turns=[Turn(text="The answer is 42.")])])
    result = await run(_agent(server), workspace, "question")
    assert result.outcome.status is Status.FINISHED and result.outcome.result == "The answer is 42."


async def test_mistakes_go_back_to_the_model_and_the_run_continues(serve, workspace: Path) -> None:
    server = serve(
        [
            Script(
                turns=[
                    Turn(tool_calls=[ScriptedToolCall(name="terminal", arguments='{"command": "ls"')]),
                    Turn.call("launch_rockets", count=3),
                    Turn.call("file_editor", command="explode", path="x"),
                    Turn.call("terminal", command="echo ok", colour="blue"),
                    Turn.finish("recovered"),
                ]
            )
        ]
    )
    result = await run(_agent(server), workspace, "go")
    assert result.outcome.status is Status.FINISHED
    errors = [e.error for e in result.kinds("agent_error")]
    assert "not valid JSON" in errors[0]
    assert "There is no tool named 'launch_rockets'. Available tools: terminal, jobs, file_editor" in errors[1]
    assert "Invalid arguments for 'file_editor': command:" in errors[2] and "Valid parameters:" in errors[2]
    assert "unknown parameter 'colour'" in errors[3]
    # each error is the tool result the model sees next, with no stack trace
    second = server.requests[1].messages
    assert second[-1] == {
        "role": "tool",
        "tool_call_id": second[-2]["tool_calls"][0]["id"],
        "content": errors[0],
    }
    assert second[-2]["tool_calls"][0]["function"]["arguments"] == "{}"  # no invalid JSON in history
    assert all("Traceback" not in e for e in errors)


async def test_a_tool_that_raises_becomes_an_observation(serve, workspace: Path, monkeypatch) -> None:
    from openhands_tui.tools.task_tracker import TaskTrackerTool

    async def boom(self, action):
        raise RuntimeError("tracker exploded")

    monkeypatch.setattr(TaskTrackerTool, "run", boom)
    server = serve([Script(turns=[Turn.call("task_tracker", command="view"), Turn.finish()])])
    result = await run(_agent(server), workspace, "go")
    observation = result.kinds("observation")[0]
    assert observation.outcome == "error"
    assert observation.content == "The task_tracker tool failed: RuntimeError: tracker exploded"
    assert result.outcome.status is Status.FINISHED


async def test_empty_answer_gets_one_nudge(serve, workspace: Path) -> None:
    server = serve([Script(turns=[Turn(text=""), Turn.finish("ok")])])
    result = await run(_agent(server), workspace, "go")
    assert result.outcome.status is Status.FINISHED
    assert "Your last reply was empty" in server.requests[1].messages[-1]["content"]
    twice = serve([Script(turns=[Turn(text=""), Turn(text="")])])
    failed = await run(_agent(twice), workspace, "go")
    assert failed.outcome.status is Status.ERROR and "empty answer twice" in failed.outcome.detail


async def test_think_and_finish_are_offered_even_with_no_tools(serve, workspace: Path) -> None:
    server = serve([Script(turns=[Turn.call("think", thought="hmm"), Turn.finish("thought it through")])])
    result = await run(Agent(llm=llm_for(server), tools=[]), workspace, "go")
    offered = [t["function"]["name"] for t in server.requests[0].body["tools"]]
    assert offered == ["think", "finish"]
    assert result.outcome.result == "thought it through"


async def test_iteration_limit_stops_with_exit_code_3(serve, workspace: Path) -> None:
    server = serve(
        [
            Script(
                turns=[
                    Turn(
                        tool_calls=[ScriptedToolCall(name="terminal", arguments={"command": "true"})],
                        repeat=10,
                    )
                ]
            )
        ]
    )
    result = await run(_agent(server), workspace, "loop", limits=Limits(max_iterations=3))
    assert result.outcome.exit_code == 3 and result.outcome.status is Status.PAUSED
    assert "iteration limit reached (3" in result.outcome.detail
    assert len(server.requests) == 3


async def test_model_failure_is_an_error_outcome_not_a_crash(serve, workspace: Path) -> None:
    server = serve([Script(turns=[Turn(fault="401")])])
    result = await run(_agent(server), workspace, "go")
    assert result.outcome.status is Status.ERROR and result.outcome.exit_code == 1
    assert "refused the credentials" in result.outcome.detail


async def test_system_prompt_and_tools_are_byte_identical_across_steps(serve, workspace: Path) -> None:
    server = serve([Script(turns=[Turn.call("terminal", command=f"echo {i}") for i in range(4)] + [Turn.finish()])])
    await run(_agent(server, agent_context=AgentContext(system_message_suffix="Be brief.")), workspace, "go")
    import json

    prefixes = {json.dumps([r.messages[0], r.body["tools"]]) for r in server.requests}
    assert len(prefixes) == 1
    assert server.requests[0].messages[0]["content"].endswith("Be brief.\n")


async def test_workspace_context_goes_in_the_first_user_message(serve, workspace: Path) -> None:
    server = serve([Script(turns=[Turn.finish()])])
    await run(_agent(server), workspace, "do the thing")
    first_user = server.requests[0].messages[1]
    assert first_user["role"] == "user"
    assert first_user["content"].startswith("do the thing\n\n<WORKSPACE_CONTEXT>")
    assert f"Working directory: {workspace.resolve()}" in first_user["content"]
    assert str(workspace) not in server.requests[0].messages[0]["content"]


HIGH_RM = Turn(
    tool_calls=[ScriptedToolCall(name="terminal", arguments={"command": "rm -f a.txt", "security_risk": "HIGH"})]
)


async def test_risky_policy_asks_only_for_high_risk_and_rejection_reaches_the_model(serve, workspace: Path) -> None:
    (workspace / "a.txt").write_text("keep me")
    server = serve([Script(turns=[Turn.call("terminal", command="echo safe"), HIGH_RM, Turn.finish()])])
    confirmer = ScriptedConfirmer([Decision(approved=False, reason="not today")])
    result = await run(_agent(server), workspace, "go", confirmer=confirmer)
    assert [r.summary for r in confirmer.requests] == ["$ rm -f a.txt"]
    assert confirmer.requests[0].chain == ["agent"]
    assert (workspace / "a.txt").exists()
    rejected = result.kinds("observation")[1]
    assert rejected.outcome == "rejected"
    assert rejected.content.startswith("Rejected by the user: not today.")
    assert server.requests[2].messages[-1]["content"] == rejected.content
    assert [e.approved for e in result.kinds("confirmation_resolved")] == [False]


async def test_always_policy_asks_for_every_change_but_not_reads(serve, workspace: Path) -> None:
    server = serve(
        [
            Script(
                turns=[
                    Turn.call("file_editor", command="view", path="."),
                    Turn.call("terminal", command="touch b.txt"),
                    Turn.finish(),
                ]
            )
        ]
    )
    confirmer = ScriptedConfirmer()
    await run(
        _agent(server),
        workspace,
        "go",
        confirmer=confirmer,
        policy=ConfirmationPolicy(mode=ConfirmationMode.ALWAYS),
    )
    assert [r.summary for r in confirmer.requests] == ["$ touch b.txt"]
    assert (workspace / "b.txt").exists()


async def test_never_policy_never_asks(serve, workspace: Path) -> None:
    (workspace / "a.txt").write_text("x")
    server = serve([Script(turns=[HIGH_RM, Turn.finish()])])
    confirmer = ScriptedConfirmer()
    await run(
        _agent(server),
        workspace,
        "go",
        confirmer=confirmer,
        policy=ConfirmationPolicy(mode=ConfirmationMode.NEVER),
    )
    assert confirmer.requests == [] and not (workspace / "a.txt").exists()


async def test_action_is_durable_before_the_tool_runs(serve, workspace: Path, tmp_path: Path) -> None:
    from openhands_tui.sdk.facts.store import SessionMeta, SessionStore

    log = SessionStore(tmp_path / "state").create(SessionMeta(id="s"))
    seen_on_disk: list[str] = []
    probe = workspace / "probe.sh"
    probe.write_text(f'grep -c \'"kind":"action"\' {log.events_path}\n')
    server = serve([Script(turns=[Turn.call("terminal", command=f"bash {probe}"), Turn.finish()])])
    # the probe reads the session log, which lives outside the workspace: no sandbox for it
    result = await run(_agent(server), workspace, "go", log=log, sandbox=SandboxPolicy(mode="off"))
    seen_on_disk.append(result.kinds("observation")[0].content.splitlines()[0])
    assert seen_on_disk == ["1"]  # the action line was already in events.jsonl when the command ran


async def test_the_sdk_call_with_only_agent_and_workspace_runs(serve, workspace: Path) -> None:
    """`Conversation(agent=..., workspace=...)`, as OpenHands SDK examples write it (a str
    workspace too): every part takes its default."""
    from openhands_tui.sdk import Conversation

    server = serve([Script(turns=[Turn.finish("done")])])
    conversation = Conversation(agent=_agent(server), workspace=str(workspace))
    try:
        outcome = await conversation.run("go")
    finally:
        await conversation.close()
    assert outcome.status is Status.FINISHED and conversation.runtime.workspace == workspace.resolve()
    assert conversation.runtime.policy == ConfirmationPolicy() and conversation.runtime.limits.max_iterations == 200


async def test_the_parts_given_are_the_ones_the_run_uses(serve, workspace: Path) -> None:
    from openhands_tui.sdk import Conversation, ConversationParts

    server = serve([Script(turns=[Turn.finish("done")])])
    seen: list[str] = []
    policy, limits = ConfirmationPolicy(mode=ConfirmationMode.NEVER), Limits(max_iterations=7)
    parts = ConversationParts(subscribers=[lambda event: seen.append(event.kind)], policy=policy, limits=limits)
    conversation = Conversation(_agent(server), workspace=workspace, parts=parts)
    try:
        await conversation.run("go")
    finally:
        await conversation.close()
    assert conversation.runtime.policy is policy and conversation.runtime.limits is limits
    assert limits.iterations == 1 and "policy_changed" in seen  # one model call, counted here; events heard
