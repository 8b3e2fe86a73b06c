"""The engine: what strategies import. Never imports textual, rich, or litellm at import time."""

from openhands_tui.sdk.agent import Agent
from openhands_tui.sdk.confirmation import (
    ConfirmationMode,
    ConfirmationPolicy,
    ConfirmationRequest,
    Confirmer,
    Decision,
)
from openhands_tui.sdk.context import AgentContext, Skill
from openhands_tui.sdk.conversation import Conversation, RunOutcome
from openhands_tui.sdk.event import Event, Risk, Status
from openhands_tui.sdk.llm import LLM
from openhands_tui.sdk.strategy import Strategy, StrategyParam, load_strategy
from openhands_tui.sdk.tool import Tool

__all__ = [
    "LLM",
    "Agent",
    "AgentContext",
    "ConfirmationMode",
    "ConfirmationPolicy",
    "ConfirmationRequest",
    "Confirmer",
    "Conversation",
    "Decision",
    "Event",
    "Risk",
    "RunOutcome",
    "Skill",
    "Status",
    "Strategy",
    "StrategyParam",
    "Tool",
    "load_strategy",
]
