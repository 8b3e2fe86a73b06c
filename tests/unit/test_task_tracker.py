from __future__ import annotations

from pathlib import Path

from openhands_tui.sdk.facts.event import ActionEvent
from openhands_tui.sdk.tool import ToolContext
from openhands_tui.tools.task_tracker import TaskTrackerAction, create_task_tracker


async def test_plan_then_view(workspace: Path) -> None:
    (tool,) = create_task_tracker({}, ToolContext(workspace=workspace, agent_id="root"))
    assert "No tasks yet" in (await tool.run(TaskTrackerAction(command="view"))).text
    plan = TaskTrackerAction.model_validate(
        {
            "command": "plan",
            "task_list": [{"title": "read", "status": "done"}, {"title": "write", "notes": "x.py"}],
        }
    )
    observation = await tool.run(plan)
    assert observation.text == "Tasks (1/2 done):\n1. [x] read\n2. [ ] write — x.py"
    assert observation.data()["tasks"][1]["title"] == "write"
    missing = await tool.run(TaskTrackerAction(command="plan"))
    assert missing.is_error


async def test_last_plan_is_restored_from_history(workspace: Path) -> None:
    history = [
        ActionEvent(
            agent_id="root",
            tool_call_id="1",
            tool_name="task_tracker",
            arguments={"command": "plan", "task_list": [{"title": "old"}]},
        ),
        ActionEvent(
            agent_id="root",
            tool_call_id="2",
            tool_name="task_tracker",
            arguments={"command": "plan", "task_list": [{"title": "new", "status": "in_progress"}]},
        ),
    ]
    (tool,) = create_task_tracker({}, ToolContext(workspace=workspace, agent_id="root", history=history))
    assert (await tool.run(TaskTrackerAction(command="view"))).text == "Tasks (0/1 done):\n1. [~] new"
