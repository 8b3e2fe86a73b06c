"""The `task_tracker` tool: the agent's own visible plan, replaced whole on each `plan`.

The plan lives in the event log (each `plan` call is an action), so a resumed agent gets
back the last plan it made without any extra file.
"""

from __future__ import annotations

from typing import Any, Literal

from pydantic import Field, ValidationError

from openhands_tui.sdk.facts.event import ActionEvent
from openhands_tui.sdk.facts.subject import OtherSubject
from openhands_tui.sdk.model import Model
from openhands_tui.sdk.tool import Action, Observation, ToolContext, ToolDefinition

_MARK = {"todo": "[ ]", "in_progress": "[~]", "done": "[x]"}


class TaskItem(Model):
    title: str = Field(description="What to do, in a few words.")
    status: Literal["todo", "in_progress", "done"] = Field(default="todo", description="todo, in_progress or done.")
    notes: str = Field(default="", description="Optional detail: findings, blockers, file names.")


class TaskTrackerAction(Action):
    command: Literal["view", "plan"] = Field(
        description="view: show the current task list. plan: replace it with `task_list`."
    )
    task_list: list[TaskItem] | None = Field(
        default=None, description="plan: the complete new list, in order (send every task, not only changes)."
    )


class TaskTrackerObservation(Observation):
    tasks: list[TaskItem] = Field(default_factory=list)


class TaskTrackerTool(ToolDefinition[TaskTrackerAction]):
    name = "task_tracker"
    description = (
        "Keep a short task list for multi-step work: plan the steps, mark one in_progress at a time, "
        "mark each done as you finish it."
    )
    action_type = TaskTrackerAction
    reads_only = True  # the list is the agent's notebook, kept in the log, not a file

    @classmethod
    def create(cls, conv_state: Any = None, **params: Any) -> list[ToolDefinition[Any]]:
        """The SDK's factory: `register_tool(name, TaskTrackerTool)` works as in the SDK."""
        return list(create_task_tracker(params, conv_state.context))

    def __init__(self, tasks: list[TaskItem] | None = None) -> None:
        self.tasks = tasks or []

    def subject(self, action: TaskTrackerAction) -> OtherSubject:
        # the list is the agent's notebook, not the user's files
        return OtherSubject(tool=self.name, changes=False, category="plan")

    def summarize(self, action: TaskTrackerAction) -> str:
        if action.command == "plan":
            return f"plan {len(action.task_list or [])} task(s)"
        return "view tasks"

    async def run(self, action: TaskTrackerAction) -> Observation:
        if action.command == "plan":
            if action.task_list is None:
                return Observation(text="`plan` needs `task_list`, the complete new list.", is_error=True)
            self.tasks = list(action.task_list)
        return TaskTrackerObservation(text=self.render(), tasks=self.tasks)

    def render(self) -> str:
        if not self.tasks:
            return "No tasks yet. Use `plan` to write the list."
        done = sum(task.status == "done" for task in self.tasks)
        lines = [f"Tasks ({done}/{len(self.tasks)} done):"]
        for number, task in enumerate(self.tasks, start=1):
            line = f"{number}. {_MARK[task.status]} {task.title}"
            lines.append(line + (f" — {task.notes}" if task.notes else ""))
        return "\n".join(lines)


def _last_plan(ctx: ToolContext) -> list[TaskItem]:
    for event in reversed(ctx.history):
        if not isinstance(event, ActionEvent) or event.tool_name != "task_tracker" or not event.valid:
            continue
        if event.arguments.get("command") == "plan":
            try:
                return TaskTrackerAction.model_validate(event.arguments).task_list or []
            except ValidationError:
                return []
    return []


def create_task_tracker(params: dict[str, Any], ctx: ToolContext) -> list[TaskTrackerTool]:
    return [TaskTrackerTool(_last_plan(ctx))]
