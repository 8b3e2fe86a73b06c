"""Critics: judge an agent's work when it ends, and send it back while the score is too low.

The OpenHands SDK's `openhands.sdk.critic`, under this prefix: `CriticBase`, `CriticResult`,
`IterativeRefinementConfig`, and critics that work with any model litellm serves. Each name is
imported on first use (PEP 562): `Agent` needs only `critic.base`.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from openhands_tui.sdk.lazy_names import lazy_getattr

if TYPE_CHECKING:
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

_HOMES = {
    **dict.fromkeys(
        ["CriticBase", "CriticContext", "FollowupPromptFn", "IterativeRefinementConfig"],
        "openhands_tui.sdk.critic.base",
    ),
    **dict.fromkeys(
        ["AgentFinishedCritic", "AgentReviewCritic", "APIBasedCritic", "EmptyPatchCritic", "LLMCritic", "PassCritic"],
        "openhands_tui.sdk.critic.impl",
    ),
    "get_default_critic": "openhands_tui.sdk.critic.impl.api",
    "CriticResult": "openhands_tui.sdk.critic.result",
}

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
__getattr__ = lazy_getattr(__name__, _HOMES, globals())
