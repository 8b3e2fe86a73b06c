"""Strategies written the way the OpenHands SDK's examples are (tests/fixtures/sdk_style/),
loaded and run headless against the scripted server, and SDK arguments that cannot work here
failing at load with one line that says what to use instead."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from openhands_tui.sdk import Conversation, ConversationParts
from openhands_tui.sdk.errors import StrategyError
from openhands_tui.sdk.strategy import load_strategy_source
from openhands_tui.testing import Script, Turn
from openhands_tui.testing.script import ScriptedToolCall
from tests.conftest import llm_for, model_args, run_tui

FIXTURES = Path(__file__).resolve().parent.parent / "fixtures" / "sdk_style"
SUMMARIZER = Script(name="summarizer", match="You condense the middle", turns=[Turn(text="Summary: steps.", repeat=20)])


def call(name: str, **arguments: Any) -> Turn:
    return Turn(tool_calls=[ScriptedToolCall(name=name, arguments=arguments)])


def headless(strategy: str, server, workspace: Path, task: str, *extra: str) -> tuple[list[dict[str, Any]], str]:
    result = run_tui(
        "--strategy", str(FIXTURES / strategy), "--headless", "--json", "--workspace", str(workspace),
        *model_args(server), "--task", task, *extra,
    )  # fmt: skip
    assert result.returncode == 0, result.stderr
    return [json.loads(line) for line in result.stdout.splitlines() if line.startswith("{")], result.stderr


async def in_process(
    strategy: str, server, workspace: Path, task: str, inputs: dict[str, str] | None = None
) -> list[dict[str, Any]]:
    """The same run without a new interpreter (most of a headless run's time is importing litellm)."""
    loaded = load_strategy_source(str(FIXTURES / strategy))
    agent = loaded.build_agent(llm_for(server), loaded.resolve_params({}))
    events: list[Any] = []
    conversation = Conversation(agent, workspace=workspace, parts=ConversationParts(subscribers=[events.append]))
    try:
        await conversation.run(task, inputs=inputs)
    finally:
        await conversation.close()
    return [event.model_dump(mode="json") for event in events]


def kinds(events: list[dict[str, Any]], kind: str) -> list[dict[str, Any]]:
    return [e for e in events if e["kind"] == kind]


def test_custom_tool_in_the_sdk_shape_shares_the_shell(serve, workspace: Path) -> None:
    (workspace / "src").mkdir()
    (workspace / "src" / "app.py").write_text("def handler(event):\n    return event\n")
    (workspace / "notes.txt").write_text("the handler is in src\n")
    server = serve(
        [
            Script(
                turns=[
                    call("grep", pattern="def handler", path=".", include="*.py"),
                    call("terminal", command="cd src && export SHARED_MARK=from-terminal"),
                    call("grep", pattern="nothing-like-this"),
                    Turn.finish("found it"),
                ]
            )
        ]
    )
    events, _ = headless("custom_tool.py", server, workspace, "where is the handler?")
    tools = [t["function"]["name"] for t in server.requests[0].body["tools"]]
    assert tools[:3] == ["file_editor", "terminal", "grep"]
    grep = server.requests[0].body["tools"][2]["function"]
    assert grep["description"].startswith("Search file contents") and set(grep["parameters"]["properties"]) == {
        "pattern",
        "path",
        "include",
    }
    found, _, nothing = kinds(events, "observation")[:3]
    assert found["content"].startswith("1 matching line(s) in:\n- src/app.py\nFirst: ")
    assert found["data"]["count"] == 1 and found["data"]["files"] == ["src/app.py"]
    assert nothing["content"] == "No matches."
    # the tool result the model was sent is the observation's to_llm_content
    assert server.requests[1].messages[-1]["content"] == found["content"]


async def test_custom_tool_executor_and_terminal_are_one_shell(workspace: Path) -> None:
    """The SDK pattern: a TerminalExecutor shared between the agent's terminal and a tool."""
    from openhands_tui.sdk.tool import ConversationState, ToolContext
    from openhands_tui.tools.terminal import TerminalAction, TerminalExecutor, TerminalTool

    (workspace / "sub").mkdir()
    state = ConversationState(ToolContext(workspace=workspace, agent_id="root"))
    shell = TerminalExecutor(working_dir=state.workspace.working_dir)
    (terminal,) = TerminalTool.create(state, executor=shell)
    await terminal.run(TerminalAction(command="cd sub && export MARK=42"))
    import asyncio

    seen = await asyncio.to_thread(shell, TerminalAction(command="echo $MARK; pwd"))
    assert seen.output.splitlines() == ["42", str(workspace / "sub")] and seen.exit_code == 0
    await terminal.close()


async def test_keyword_skill_and_always_on_skill_from_code(serve, workspace: Path) -> None:
    server = serve([Script(turns=[Turn.finish("I am grumpy. yay!")])])
    events = await in_process("keyword_skill.py", server, workspace, "flarglebargle! who am I?")
    system, first = server.requests[0].messages[0]["content"], server.requests[0].messages[1]["content"]
    assert system.rstrip().endswith("Always end your answer with the word 'yay!'")
    assert "## repo.md (strategy)\nAnswer like a grumpy cat" in first
    assert 'keyword match for "flarglebargle"' in first and "tell them how clever they are" in first
    assert first.rstrip().endswith("Start your reply with the letter I.")
    fired = {(e["name"], e["type"], e["keyword"]) for e in kinds(events, "microagent_triggered")}
    assert {("repo.md", "repo", None), ("flarglebargle", "knowledge", "flarglebargle")} <= fired


async def test_keyword_skill_stays_quiet_without_its_keyword(serve, workspace: Path) -> None:
    server = serve([Script(turns=[Turn.finish()])])
    events = await in_process("keyword_skill.py", server, workspace, "who am I?")
    assert "<EXTRA_INFO>" not in server.requests[0].messages[1]["content"]
    assert "flarglebargle" not in {e["name"] for e in kinds(events, "microagent_triggered")}


async def test_delegation_with_factory_func(serve, workspace: Path) -> None:
    server = serve(
        [
            Script(
                name="root",
                match="ROLE: trip coordinator",
                turns=[
                    call("delegate", agent="lodging_planner", task="Three places to stay in Lisbon"),
                    Turn.finish("plan merged"),
                ],
            ),
            Script(name="lodging", match="ROLE: lodging planner", turns=[Turn.finish("Alfama, Baixa, Belem")]),
        ]
    )
    events = await in_process("delegation.py", server, workspace, "Plan three days in Lisbon")
    delegate = next(t for t in server.requests_for("root")[0].body["tools"] if t["function"]["name"] == "delegate")
    assert set(delegate["function"]["parameters"]["properties"]["agent"]["enum"]) == {
        "lodging_planner",
        "activities_planner",
    }
    assert "Plans time-efficient days of activities." in delegate["function"]["description"]
    child_first = server.requests_for("lodging")[0].messages[1]["content"]
    assert "three options with neighbourhood" in child_first and "Three places to stay in Lisbon" in child_first
    closed = kinds(events, "delegation_closed")
    assert [(c["agent_name"], c["status"]) for c in closed] == [("lodging_planner", "finished")]
    assert "Alfama, Baixa, Belem" in server.requests_for("root")[1].messages[-1]["content"]


async def test_llm_summarizing_condenser(serve, workspace: Path) -> None:
    steps = [call("terminal", command=f"echo step {n}") for n in range(12)]
    server = serve([SUMMARIZER, Script(name="agent", turns=[*steps, Turn.finish("all steps done")])])
    events = await in_process("condenser.py", server, workspace, "echo twelve steps")
    condensations = kinds(events, "condensation")
    assert condensations and all(c["reason"] == "messages" and c["summarized"] for c in condensations)
    assert len(server.requests_for("summarizer")) == len(condensations)
    # max_size=10: no request after the first condensation carries more than ten messages plus the summary
    first_cut = next(i for i, r in enumerate(server.requests_for("agent")) if "Summary: steps." in json.dumps(r.body))
    assert all(len(r.messages) <= 12 for r in server.requests_for("agent")[first_cut:])


async def test_default_agent_with_sampling_settings(serve, workspace: Path) -> None:
    server = serve([Script(turns=[Turn.finish()])])
    await in_process("default_agent.py", server, workspace, "hello")
    body = server.requests[0].body
    assert (body["top_p"], body["seed"], body["temperature"]) == (0.9, 7, 0.2)
    assert [t["function"]["name"] for t in body["tools"]] == [
        "terminal",
        "jobs",
        "file_editor",
        "task_tracker",
        "web_fetch",
        "think",
        "finish",
    ]


async def test_metrics_from_a_custom_tool(serve, workspace: Path) -> None:
    server = serve([Script(turns=[call("cost_report"), Turn.finish()])])
    events = await in_process("cost_tool.py", server, workspace, "how much have you spent?")
    report = kinds(events, "observation")[0]["content"]
    usage = next(e for e in events if e["kind"] == "llm_usage")
    assert report.startswith(f"calls=1 prompt_tokens={usage['prompt_tokens']} completion_tokens=")
    assert usage["prompt_tokens"] > 0
    action = next(e for e in events if e["kind"] == "action" and e["tool_name"] == "cost_report")
    assert action["risk"] == "LOW"  # readOnlyHint: it only reads


def test_task_skill_from_code(serve, workspace: Path) -> None:
    server = serve([Script(turns=[Turn.finish()])])
    headless("task_skill.py", server, workspace, "/triage", "--input", "ISSUE=#88", "--input", "component=parser")
    first = server.requests[0].messages[1]["content"]
    assert first.startswith("Triage issue #88 in parser: reproduce it, find the cause, propose a fix.")


async def test_system_prompt_template_and_kwargs(serve, workspace: Path) -> None:
    server = serve([Script(turns=[Turn.finish()])])
    await in_process("prompt_template.py", server, workspace, "review the last commit")
    assert server.requests[0].messages[0]["content"] == (
        "You review changes to the lantern repository, which is written in Python.\n"
        "Read the diff, run the tests, and report problems ordered by severity. Do not edit files.\n"
    )


BROKEN = [
    ("unknown_llm_argument.py", "line 7: LLM(drop_params=...) is not supported by openhands_tui: "),
    ("misspelled_skill.py", "line 8: Skill(trigers=...): no such argument; did you mean 'triggers'?"),
    ("public_skills.py", "AgentContext(load_public_skills=True) is not supported by openhands_tui: skills"),
    ("unused_prompt_kwarg.py", "the system prompt has no {{ repo }} placeholder"),
    ("analyzer.py", "Agent(security_analyzer=...) is not supported by openhands_tui: risk is rated by rules"),
    ("unknown_tool.py", "agent 'browser' names unknown tool 'BrowserToolSet' (registered: "),
]


@pytest.mark.parametrize(("fixture", "message"), BROKEN)
def test_sdk_arguments_that_cannot_work_fail_at_load(fixture: str, message: str, serve) -> None:
    path = FIXTURES / "broken" / fixture
    loaded = load_strategy_source(str(path))  # loading and setup() succeed; building says why not
    with pytest.raises(StrategyError) as failure:
        loaded.build_agent(llm_for(serve([])), loaded.resolve_params({}))
    text = str(failure.value)
    assert text.startswith(f"{path}: ") and "\n" not in text and message in text
    if fixture == "unknown_tool.py":  # the registered tools are named (strategies may add their own)
        assert all(name in text for name in ("DelegateTool", "FileEditorTool", "TaskTrackerTool", "TerminalTool"))


def test_a_failing_sdk_argument_is_one_line_and_exit_2(workspace: Path) -> None:
    path = FIXTURES / "broken" / "misspelled_skill.py"
    result = run_tui(
        "--strategy", str(path), "--headless", "--workspace", str(workspace), "--task", "hi",
        "--model", "openai/x", "--api-key", "k", "--base-url", "http://127.0.0.1:9",
    )  # fmt: skip
    assert result.returncode == 2
    assert result.stderr.count("\n") == 1 and result.stderr.startswith(f"tui: {path}: "), result.stderr
    assert "Skill(trigers=...): no such argument; did you mean 'triggers'?" in result.stderr
