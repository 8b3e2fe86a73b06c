"""Each shipped strategy, and the RFC's example, end to end against the scripted model."""

from __future__ import annotations

from pathlib import Path

from openhands_tui.launch import LaunchOptions, launch
from openhands_tui.sdk import Status
from openhands_tui.sdk.facts.event import Event
from openhands_tui.sdk.facts.tree import DelegationTree
from openhands_tui.sdk.run.confirmation import ApproveAll
from openhands_tui.testing import Script, ScriptedToolCall, Turn
from tests.conftest import REPO, model_args, run_tui

STRATEGIES = REPO / "strategies"


def delegate(agent: str, task: str) -> Turn:
    return Turn.call("delegate", agent=agent, task=task)


async def _launch_and_run(strategy: str, server, workspace: Path, task: str, *params: str):
    events: list[Event] = []
    live = DelegationTree()
    launched = launch(
        LaunchOptions(
            strategy=strategy,
            params=list(params),
            task=task,
            model="openai/scripted",
            base_url=server.base_url,
            api_key="k",
            workspace=workspace,
        ),
        confirmer=ApproveAll(),
        subscribers=[events.append, live.apply],
    )
    outcome = await launched.conversation.run(task)
    await launched.conversation.close()
    stored = launched.log.load().events
    return outcome, events, live, stored


WATERFALL_SCRIPTS = [
    Script(
        name="root",
        match="Orchestrate a waterfall process",
        turns=[
            delegate("designer", "Design a todo REST API"),
            delegate("coder", "Implement this design: GET/POST /todos in todos.py, tests in test_todos.py"),
            Turn.call("terminal", command="python3 -m pytest -q test_todos.py 2>&1 | tail -1 || true"),
            Turn.finish("Built the todo API; tests pass."),
        ],
    ),
    Script(
        name="designer",
        match="You are a system architect",
        turns=[
            Turn.call("file_editor", command="view", path="."),
            Turn.finish("Design: todos.py with list/add; test_todos.py covers both."),
        ],
    ),
    Script(
        name="coder",
        match="You are an implementation engineer",
        turns=[
            Turn.call(
                "file_editor",
                command="create",
                path="todos.py",
                file_text="TODOS = []\n\n\ndef add(title):\n    TODOS.append(title)\n    return TODOS\n",
            ),
            Turn.call(
                "file_editor",
                command="create",
                path="test_todos.py",
                file_text="from todos import add\n\n\ndef test_add():\n    assert add('x') == ['x']\n",
            ),
            Turn.finish("Implemented todos.py and test_todos.py."),
        ],
    ),
]


async def test_waterfall_root_designer_coder_in_order(serve, workspace: Path) -> None:
    server = serve(WATERFALL_SCRIPTS)
    outcome, events, live, stored = await _launch_and_run(
        str(STRATEGIES / "waterfall.py"), server, workspace, "Build a REST API for todos", "max_turns=5"
    )
    assert outcome.status is Status.FINISHED and outcome.exit_code == 0
    opened = [(e.agent_name, e.agent_id, e.parent_agent_id) for e in events if e.kind == "delegation_opened"]
    assert opened == [("designer", "designer-1", "root"), ("coder", "coder-2", "root")]
    assert (workspace / "todos.py").exists() and (workspace / "test_todos.py").exists()
    assert DelegationTree.from_events(stored).snapshot() == live.snapshot()
    assert [live.nodes[c].name for c in live.nodes["root"].children] == ["designer", "coder"]
    # max_turns reached the phase agents
    coder_prompt = server.requests_for("coder")[0].messages[0]["content"]
    assert "You are an implementation engineer" in coder_prompt
    assert "designer' for the architecture (5 turns max)" in server.requests_for("root")[0].messages[0]["content"]


def test_waterfall_headless_cli(serve, workspace: Path, isolated_home: Path) -> None:
    server = serve(WATERFALL_SCRIPTS)
    result = run_tui(
        "--strategy",
        str(STRATEGIES / "waterfall.py"),
        "--headless",
        "--task",
        "Build a REST API for todos",
        "--workspace",
        str(workspace),
        *model_args(server),
    )
    assert result.returncode == 0, result.stderr
    assert "[designer] › Design a todo REST API" in result.stdout
    assert "[designer] ── agent designer" in result.stdout
    assert "[coder]   ▸ create todos.py" in result.stdout
    assert result.stdout.rstrip().endswith("Built the todo API; tests pass.")


async def test_review_loops_until_approved(serve, workspace: Path) -> None:
    server = serve(
        [
            Script(
                name="root",
                match="Run a code-review loop",
                turns=[
                    delegate("coder", "add a greet() function"),
                    delegate("reviewer", "review greet()"),
                    delegate("coder", "address: 1. no test"),
                    delegate("reviewer", "review again"),
                    Turn.finish("Approved after 2 rounds."),
                ],
            ),
            Script(
                name="coder",
                match="You are the implementer",
                turns=[Turn.finish("added greet"), Turn.finish("added a test")],
            ),
            Script(
                name="reviewer",
                match="You are an adversarial code reviewer",
                turns=[Turn.finish("CHANGES REQUESTED\n1. no test"), Turn.finish("APPROVED")],
            ),
        ]
    )
    outcome, events, _live, _ = await _launch_and_run(
        str(STRATEGIES / "review.py"), server, workspace, "add greet", "rounds=2"
    )
    assert outcome.result == "Approved after 2 rounds."
    names = [e.agent_name for e in events if e.kind == "delegation_closed"]
    statuses = [e.status for e in events if e.kind == "delegation_closed"]
    assert names == ["coder", "reviewer", "coder", "reviewer"] and statuses == ["finished"] * 4
    tool = next(t for t in server.requests_for("root")[0].body["tools"] if t["function"]["name"] == "delegate")
    assert tool["function"]["parameters"]["properties"]["agent"]["enum"] == ["coder", "reviewer"]


async def test_fanout_runs_researchers_in_parallel_then_synthesizes(serve, workspace: Path) -> None:
    (workspace / "README.md").write_text("# demo repo\n")
    tasks = [{"agent": "researcher", "task": f"question {i}"} for i in range(3)]
    research = Turn(delay=0.3, tool_calls=[ScriptedToolCall(name="finish", arguments={"message": "finding"})])
    server = serve(
        [
            Script(
                name="root",
                match="Fan the work out",
                turns=[
                    Turn.call("delegate_parallel", tasks=tasks),
                    delegate("synthesizer", "merge: finding, finding, finding"),
                    Turn.finish("Merged answer."),
                ],
            ),
            Script(name="researcher", match="You are a researcher", turns=[research] * 3),
            Script(name="synthesizer", match="You are a synthesizer", turns=[Turn.finish("Merged answer.")]),
        ]
    )
    outcome, _events, live, _ = await _launch_and_run(
        str(STRATEGIES / "fanout.py"), server, workspace, "survey this repo", "workers=3"
    )
    assert outcome.result == "Merged answer."
    assert server.max_in_flight == 3
    assert [live.nodes[c].name for c in live.nodes["root"].children] == ["researcher"] * 3 + ["synthesizer"]
    assert "3 tasks, all for 'researcher'" in server.requests_for("root")[0].messages[0]["content"]


async def test_solo_strategy_runs(serve, workspace: Path) -> None:
    server = serve([Script(turns=[Turn.call("terminal", command="echo solo"), Turn.finish("solo done")])])
    outcome, events, _, _ = await _launch_and_run(str(STRATEGIES / "solo.py"), server, workspace, "go")
    assert outcome.result == "solo done"
    assert not any(e.kind == "delegation_opened" for e in events)


async def test_the_rfc_example_runs_after_renaming_its_imports(serve, workspace: Path) -> None:
    fixture = REPO / "tests" / "fixtures" / "rfc_waterfall.py"
    text = fixture.read_text()
    assert "from openhands_tui.tools.delegate import DelegateTool, register_agent" in text
    server = serve(
        [
            Script(
                name="root",
                match="Orchestrate a waterfall process",
                turns=[
                    delegate("designer", "design it"),
                    delegate("coder", "build it"),
                    Turn.finish("verified"),
                ],
            ),
            Script(
                name="designer",
                match="You are a system architect. Output a design doc.",
                turns=[Turn.finish("the design")],
            ),
            Script(
                name="coder",
                match="",
                turns=[Turn.call("terminal", command="echo built"), Turn.finish("built")],
            ),
        ]
    )
    outcome, events, live, _ = await _launch_and_run(str(fixture), server, workspace, "Build a REST API for todos")
    assert outcome.status is Status.FINISHED and outcome.result == "verified"
    assert [e.status for e in events if e.kind == "delegation_closed"] == ["finished", "finished"]
    assert [n.name for n in live.nodes.values()] == ["agent", "designer", "coder"]
