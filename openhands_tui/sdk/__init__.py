"""The engine: what strategies import. Never imports textual, rich, or litellm at import time.

The names mirror the OpenHands SDK's `openhands.sdk` (the RFC's promise: rename the prefix
and a strategy runs), plus this project's Strategy protocol.

Each name is imported from its module on first use (PEP 562): importing one engine module
(`openhands_tui.sdk.facts.event`, say) runs this file first, and the app draws its first frame with
only the few it needs, not the whole engine.
"""

from __future__ import annotations

from logging import Logger, getLogger
from typing import TYPE_CHECKING

from openhands_tui.sdk.lazy_names import lazy_getattr

if TYPE_CHECKING:
    from openhands_tui.sdk.agent import Agent
    from openhands_tui.sdk.context import AgentContext, KeywordTrigger, Skill, TaskTrigger
    from openhands_tui.sdk.context.condenser import Condenser, LLMSummarizingCondenser, NoOpCondenser
    from openhands_tui.sdk.conversation import (
        BaseConversation,
        ConversationCallbackType,
        ConversationExecutionStatus,
        ConversationStats,
        LocalConversation,
        RemoteConversation,
    )
    from openhands_tui.sdk.event import HookExecutionEvent, LLMConvertibleEvent, MessageEvent
    from openhands_tui.sdk.facts.event import Event, Risk, Status
    from openhands_tui.sdk.llm.client import LLM, LLMResponse
    from openhands_tui.sdk.llm.message import ImageContent, Message, TextContent
    from openhands_tui.sdk.llm.metrics import Metrics, TokenUsage
    from openhands_tui.sdk.run.confirmation import (
        ConfirmationMode,
        ConfirmationPolicy,
        ConfirmationRequest,
        Confirmer,
        Decision,
    )
    from openhands_tui.sdk.run.conversation import Conversation, ConversationParts, RunOutcome
    from openhands_tui.sdk.strategy import Strategy, StrategyParam, load_strategy
    from openhands_tui.sdk.subagent import register_agent, register_agent_if_absent
    from openhands_tui.sdk.tool import Action, Observation, Tool, ToolDefinition, ToolExecutor, register_tool

#: Where each public name lives.
_HOMES = {
    "Agent": "openhands_tui.sdk.agent",
    "Condenser": "openhands_tui.sdk.context.condenser",
    "LLMSummarizingCondenser": "openhands_tui.sdk.context.condenser",
    "NoOpCondenser": "openhands_tui.sdk.context.condenser",
    "ConfirmationMode": "openhands_tui.sdk.run.confirmation",
    "ConfirmationPolicy": "openhands_tui.sdk.run.confirmation",
    "ConfirmationRequest": "openhands_tui.sdk.run.confirmation",
    "Confirmer": "openhands_tui.sdk.run.confirmation",
    "Decision": "openhands_tui.sdk.run.confirmation",
    "AgentContext": "openhands_tui.sdk.context",
    "KeywordTrigger": "openhands_tui.sdk.context",
    "Skill": "openhands_tui.sdk.context",
    "TaskTrigger": "openhands_tui.sdk.context",
    "Conversation": "openhands_tui.sdk.run.conversation",
    "ConversationParts": "openhands_tui.sdk.run.conversation",
    "RunOutcome": "openhands_tui.sdk.run.conversation",
    "Event": "openhands_tui.sdk.facts.event",
    "Risk": "openhands_tui.sdk.facts.event",
    "Status": "openhands_tui.sdk.facts.event",
    "LLM": "openhands_tui.sdk.llm.client",
    "LLMResponse": "openhands_tui.sdk.llm.client",
    "Metrics": "openhands_tui.sdk.llm.metrics",
    "ImageContent": "openhands_tui.sdk.llm.message",
    "Message": "openhands_tui.sdk.llm.message",
    "TextContent": "openhands_tui.sdk.llm.message",
    "Strategy": "openhands_tui.sdk.strategy",
    "StrategyParam": "openhands_tui.sdk.strategy",
    "load_strategy": "openhands_tui.sdk.strategy",
    "Action": "openhands_tui.sdk.tool",
    "Observation": "openhands_tui.sdk.tool",
    "Tool": "openhands_tui.sdk.tool",
    "ToolDefinition": "openhands_tui.sdk.tool",
    "ToolExecutor": "openhands_tui.sdk.tool",
    "register_tool": "openhands_tui.sdk.tool",
    # the SDK's names for what the engine has
    "BaseConversation": "openhands_tui.sdk.conversation",
    "ConversationCallbackType": "openhands_tui.sdk.conversation",
    "ConversationExecutionStatus": "openhands_tui.sdk.conversation",
    "ConversationStats": "openhands_tui.sdk.conversation",
    "LocalConversation": "openhands_tui.sdk.conversation",
    "RemoteConversation": "openhands_tui.sdk.conversation",
    "HookExecutionEvent": "openhands_tui.sdk.event",
    "LLMConvertibleEvent": "openhands_tui.sdk.event",
    "MessageEvent": "openhands_tui.sdk.event",
    "TokenUsage": "openhands_tui.sdk.llm.metrics",
    "register_agent": "openhands_tui.sdk.subagent",
    "register_agent_if_absent": "openhands_tui.sdk.subagent",
}


def get_logger(name: str) -> Logger:
    """The SDK's `get_logger(__name__)`: a standard logger (the app and headless output own the
    terminal, so log records go wherever logging is configured, by default nowhere visible)."""
    return getLogger(name)


__all__ = [
    "LLM",
    "Action",
    "Agent",
    "AgentContext",
    "BaseConversation",
    "Condenser",
    "ConfirmationMode",
    "ConfirmationPolicy",
    "ConfirmationRequest",
    "Confirmer",
    "Conversation",
    "ConversationCallbackType",
    "ConversationExecutionStatus",
    "ConversationParts",
    "ConversationStats",
    "Decision",
    "Event",
    "HookExecutionEvent",
    "ImageContent",
    "KeywordTrigger",
    "LLMConvertibleEvent",
    "LLMResponse",
    "LLMSummarizingCondenser",
    "LocalConversation",
    "Message",
    "MessageEvent",
    "Metrics",
    "NoOpCondenser",
    "Observation",
    "RemoteConversation",
    "Risk",
    "RunOutcome",
    "Skill",
    "Status",
    "Strategy",
    "StrategyParam",
    "TaskTrigger",
    "TextContent",
    "TokenUsage",
    "Tool",
    "ToolDefinition",
    "ToolExecutor",
    "get_logger",
    "load_strategy",
    "register_agent",
    "register_agent_if_absent",
    "register_tool",
]


__getattr__ = lazy_getattr(__name__, _HOMES, globals())


def __dir__() -> list[str]:
    return sorted(__all__)
