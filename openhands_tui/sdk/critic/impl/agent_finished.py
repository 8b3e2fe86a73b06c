"""A critic that passes work which both changed something and ended properly (with `finish`)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from openhands_tui.sdk.critic.base import CriticBase, CriticContext
from openhands_tui.sdk.critic.result import CriticResult
from openhands_tui.sdk.facts.event import ActionEvent
from openhands_tui.sdk.facts.subject import Finish


class AgentFinishedCritic(CriticBase):
    """1.0 if the agent's last action is `finish` and the workspace's git diff is not empty."""

    def evaluate(self, events: Sequence[Any], git_patch: str | None = None) -> CriticResult:
        if git_patch is None or not git_patch.strip():
            return CriticResult(score=0.0, message="the agent changed nothing (the workspace's git diff is empty)")
        last = next((e for e in reversed(events) if isinstance(e, ActionEvent)), None)
        if last is None or not isinstance(last.subject, Finish):
            return CriticResult(score=0.0, message="the agent did not end with finish")
        return CriticResult(score=1.0, message="the agent finished with changes in the workspace")

    async def review(self, context: CriticContext) -> CriticResult:
        """Here an agent also ends properly by answering without a tool call; the engine calls
        this only at an ending unless the critic judges every action (then it fails)."""
        if context.git_patch is None:
            return CriticResult(score=0.0, message=f"no diff to judge: {context.patch_problem}")
        if not context.git_patch.strip():
            return self.evaluate(context.events, context.git_patch)
        if not context.ending:
            return CriticResult(score=0.0, message="the agent has not finished yet")
        return CriticResult(score=1.0, message="the agent finished with changes in the workspace")
