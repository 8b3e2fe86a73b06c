"""Critics: judge an agent's work when it ends, and send it back while the score is too low.

The OpenHands SDK's `openhands.sdk.critic`, under this prefix: `CriticBase`, `CriticResult`,
`IterativeRefinementConfig`, and critics that work with any model litellm serves.
"""

from openhands_tui.sdk.critic.base import CriticBase, CriticContext, FollowupPromptFn, IterativeRefinementConfig
from openhands_tui.sdk.critic.impl import (
    AgentFinishedCritic,
    AgentReviewCritic,
    APIBasedCritic,
    EmptyPatchCritic,
    LLMCritic,
    PassCritic,
)
from openhands_tui.sdk.critic.impl.api import get_default_critic
from openhands_tui.sdk.critic.result import CriticResult

__all__ = [
    "APIBasedCritic",
    "AgentFinishedCritic",
    "AgentReviewCritic",
    "CriticBase",
    "CriticContext",
    "CriticResult",
    "EmptyPatchCritic",
    "FollowupPromptFn",
    "IterativeRefinementConfig",
    "LLMCritic",
    "PassCritic",
    "get_default_critic",
]
