"""What a critic says about an agent's work: a score from 0 to 1 and why."""

from __future__ import annotations

from typing import Any, ClassVar

from pydantic import Field

from openhands_tui.sdk.model import StrictModel


class CriticResult(StrictModel):
    """A critic's verdict. `score` is the predicted chance that the task is done well."""

    #: Scores from here up count as a success when no refinement threshold says otherwise.
    THRESHOLD: ClassVar[float] = 0.5

    score: float = Field(ge=0.0, le=1.0, description="Predicted probability of success, 0 to 1.")
    message: str | None = Field(default=None, description="Why: shown to the user and, if refining, to the agent.")
    metadata: dict[str, Any] | None = Field(default=None, description="Anything else the critic wants recorded.")

    @property
    def success(self) -> bool:
        return self.score >= CriticResult.THRESHOLD

    @property
    def stars(self) -> str:
        """Five stars, one per 20 %: how the app and the transcript show a score at a glance."""
        filled = round(self.score * 5)
        return "★" * filled + "☆" * (5 - filled)
