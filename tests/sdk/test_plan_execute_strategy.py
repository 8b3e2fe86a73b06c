"""strategies/plan_execute.py end to end against the scripted model: the planner is held
read-only by the engine (its edit and its writing command change nothing), the executor gets
the plan and carries it out."""

from __future__ import annotations

from pathlib import Path

from openhands_tui.sdk import Status
from openhands_tui.testing import Script, Turn
from tests.sdk.test_strategies import STRATEGIES, _launch_and_run, delegate

PLAN = "1. create notes.py with add(); 2. test it"
CODE = "def add(x):\n    return x\n"


async def test_plan_execute_plans_read_only_then_executes_the_plan(serve, workspace: Path) -> None:
    server = serve(
        [
            Script(
                name="root",
                match="Run a plan-then-execute process",
                turns=[
                    delegate("planner", "Add a notes module"),
                    delegate("executor", f"Add a notes module. The plan:\n{PLAN}"),
                    Turn.finish("notes.py added and tested"),
                ],
            ),
            Script(
                name="planner",
                match="You are the planner",
                turns=[
                    Turn.call("file_editor", command="view", path="."),
                    Turn.call("file_editor", command="create", path="notes.py", file_text="early = 1\n"),
                    Turn.call("terminal", command="echo early > planted.txt"),
                    Turn.finish(PLAN),
                ],
            ),
            Script(
                name="executor",
                match="You are the executor",
                turns=[
                    Turn.call(
                        "file_editor", command="create", path="notes.py", file_text="def add(x):\n    return x\n"
                    ),
                    Turn.finish("created notes.py"),
                ],
            ),
        ]
    )
    outcome, events, live, _ = await _launch_and_run(
        str(STRATEGIES / "plan_execute.py"), server, workspace, "Add a notes module"
    )
    assert outcome.status is Status.FINISHED and outcome.result == "notes.py added and tested"
    assert (workspace / "notes.py").read_text() == CODE
    assert not (workspace / "planted.txt").exists()
    names = {e.agent_id: e.agent_name for e in events if e.kind == "delegation_opened"}
    refused = [e for e in events if e.kind == "confirmation_resolved" and e.decided_by == "plan mode"]
    assert [names[e.agent_id] for e in refused] == ["planner"]  # its edit; the command hit the read-only jail
    planner_tools = next(r for r in server.requests if r.script == "planner").body["tools"]
    editor = next(t for t in planner_tools if t["function"]["name"] == "file_editor")
    assert editor["function"]["parameters"]["properties"]["command"]["enum"] == ["view"]
    executor_task = next(r for r in server.requests if r.script == "executor").messages[1]["content"]
    assert PLAN in str(executor_task)
    assert sorted(live.nodes[a].name for a in names) == ["executor", "planner"]
