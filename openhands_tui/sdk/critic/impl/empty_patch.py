"""A critic that fails work which changed nothing: the workspace's git diff is empty."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from openhands_tui.sdk.critic.base import CriticBase, CriticContext
from openhands_tui.sdk.critic.result import CriticResult


class EmptyPatchCritic(CriticBase):
    """1.0 if the workspace's git diff (new untracked files included) is not empty, else 0.0."""

    def evaluate(self, events: Sequence[Any], git_patch: str | None = None) -> CriticResult:
        if git_patch is None or not git_patch.strip():
            return CriticResult(score=0.0, message="nothing changed in the workspace (its git diff is empty)")
        return CriticResult(score=1.0, message="the workspace has changes")

    async def review(self, context: CriticContext) -> CriticResult:
        if context.git_patch is None:
            return CriticResult(score=0.0, message=f"no diff to judge: {context.patch_problem}")
        return self.evaluate(context.events, context.git_patch)
