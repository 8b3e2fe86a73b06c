"""A critic that always passes: for strategies that want the critic events without judging."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from openhands_tui.sdk.critic.base import CriticBase
from openhands_tui.sdk.critic.result import CriticResult


class PassCritic(CriticBase):
    """Scores every ending 1.0."""

    def evaluate(self, events: Sequence[Any], git_patch: str | None = None) -> CriticResult:
        return CriticResult(score=1.0, message="passes without review")
