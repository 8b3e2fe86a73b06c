"""The critics that come with the engine."""

from openhands_tui.sdk.critic.impl.agent_finished import AgentFinishedCritic
from openhands_tui.sdk.critic.impl.agent_review import AgentReviewCritic
from openhands_tui.sdk.critic.impl.api import APIBasedCritic
from openhands_tui.sdk.critic.impl.empty_patch import EmptyPatchCritic
from openhands_tui.sdk.critic.impl.llm_critic import LLMCritic
from openhands_tui.sdk.critic.impl.pass_critic import PassCritic

__all__ = ["APIBasedCritic", "AgentFinishedCritic", "AgentReviewCritic", "EmptyPatchCritic", "LLMCritic", "PassCritic"]
