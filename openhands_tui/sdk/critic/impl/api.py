"""The OpenHands critic service's client, refused in one line.

`APIBasedCritic` talks to a hosted classification model with its own chat template and label
set; there is no such service here. A strategy that builds one fails when it loads, naming what
works instead: `LLMCritic` with any model litellm serves (an OpenAI-compatible endpoint
included), or `AgentReviewCritic`.
"""

from __future__ import annotations

from typing import Any

from pydantic import model_validator

from openhands_tui.sdk.critic.base import CriticBase
from openhands_tui.sdk.model import UnsupportedArgument

REFUSAL = (
    "APIBasedCritic(...) is not supported by openhands_tui: the OpenHands critic service is not available "
    "here; use LLMCritic(llm=LLM(model=..., base_url=...)) for any model litellm serves, or AgentReviewCritic"
)


class APIBasedCritic(CriticBase):
    """Refused: see the module docstring."""

    @model_validator(mode="before")
    @classmethod
    def _refused(cls, data: Any) -> Any:
        raise UnsupportedArgument(REFUSAL)


def get_default_critic(llm: Any) -> CriticBase | None:
    """The SDK's auto-configured critic exists only behind the All-Hands proxy: here, none."""
    return None
