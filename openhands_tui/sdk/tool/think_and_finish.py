"""`think` and `finish`: offered to every agent. They live in the engine (not in
`openhands_tui.tools`) because the run loop depends on `finish` to know a run is done."""

from __future__ import annotations

from typing import Any

from pydantic import Field

from openhands_tui.sdk.facts.subject import Finish, OtherSubject, Subject
from openhands_tui.sdk.tool.definition import Action, Observation, ToolDefinition


class ThinkAction(Action):
    thought: str = Field(description="Your reasoning: a plan, a hypothesis, what you learned so far.")


class ThinkTool(ToolDefinition[ThinkAction]):
    name = "think"
    description = (
        "Think out loud without acting: plan the next steps, weigh options, or make sense of a "
        "confusing result. Changes nothing and returns nothing new."
    )
    action_type = ThinkAction
    concurrent = True
    reads_only = True

    def subject(self, action: ThinkAction) -> Subject:
        return OtherSubject(tool=self.name, changes=False, category="think")

    def summarize(self, action: ThinkAction) -> str:
        return "think: " + action.thought.strip().splitlines()[0][:100] if action.thought.strip() else "think"

    async def run(self, action: ThinkAction) -> Observation:
        return Observation(text="Your thought has been logged.")


class FinishAction(Action):
    message: str = Field(
        description=(
            "The final answer for whoever gave you the task: what you did, what you found, and "
            "anything left undone. This is the only part of your work they will read."
        )
    )


class FinishTool(ToolDefinition[FinishAction]):
    name = "finish"
    description = (
        "Signal that the task is complete (or cannot be completed) and hand back your final "
        "message. Call it once, as your last action."
    )
    action_type = FinishAction
    reads_only = True

    def subject(self, action: FinishAction) -> Subject:
        return Finish()

    def summarize(self, action: FinishAction) -> str:
        return "finish"

    async def run(self, action: FinishAction) -> Observation:
        return Observation(text=action.message)


def always_offered_tools() -> list[ToolDefinition[Any]]:
    return [ThinkTool(), FinishTool()]
