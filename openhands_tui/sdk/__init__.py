"""The engine: what strategies import. Never imports textual, rich, or litellm at import time.

The names mirror the OpenHands SDK's `openhands.sdk` (the RFC's promise: rename the prefix
and a strategy runs), plus this project's Strategy protocol.
"""

from logging import Logger, getLogger

from openhands_tui.sdk.agent import Agent
from openhands_tui.sdk.condenser import Condenser, LLMSummarizingCondenser, NoOpCondenser
from openhands_tui.sdk.confirmation import (
    ConfirmationMode,
    ConfirmationPolicy,
    ConfirmationRequest,
    Confirmer,
    Decision,
)
from openhands_tui.sdk.context import AgentContext, KeywordTrigger, Skill, TaskTrigger
from openhands_tui.sdk.conversation import Conversation, RunOutcome
from openhands_tui.sdk.event import Event, Risk, Status
from openhands_tui.sdk.llm import LLM, LLMResponse
from openhands_tui.sdk.llm_metrics import Metrics
from openhands_tui.sdk.message import ImageContent, Message, TextContent
from openhands_tui.sdk.strategy import Strategy, StrategyParam, load_strategy
from openhands_tui.sdk.tool import Action, Observation, Tool, ToolDefinition, ToolExecutor, register_tool


def get_logger(name: str) -> Logger:
    """The SDK's `get_logger(__name__)`: a standard logger (the app and headless output own the
    terminal, so log records go wherever logging is configured, by default nowhere visible)."""
    return getLogger(name)


__all__ = [
    "LLM",
    "Action",
    "Agent",
    "AgentContext",
    "Condenser",
    "ConfirmationMode",
    "ConfirmationPolicy",
    "ConfirmationRequest",
    "Confirmer",
    "Conversation",
    "Decision",
    "Event",
    "ImageContent",
    "KeywordTrigger",
    "LLMResponse",
    "LLMSummarizingCondenser",
    "Message",
    "Metrics",
    "NoOpCondenser",
    "Observation",
    "Risk",
    "RunOutcome",
    "Skill",
    "Status",
    "Strategy",
    "StrategyParam",
    "TaskTrigger",
    "TextContent",
    "Tool",
    "ToolDefinition",
    "ToolExecutor",
    "get_logger",
    "load_strategy",
    "register_tool",
]
