"""Delegation: register agents, and let an agent hand tasks to them as tool calls."""

from openhands_tui.sdk.conversation.visualizer import DefaultConversationVisualizer
from openhands_tui.tools.delegate.registry import (
    DelegationError,
    RegisteredAgent,
    get_agent,
    register_agent,
    registered_agents,
)
from openhands_tui.tools.delegate.tool import (
    DEFAULT_LIMITS,
    DelegateAction,
    DelegateParallelAction,
    DelegateParallelTool,
    DelegateTool,
    create_delegate_tools,
)

#: The SDK's visualizer for conversations that delegate: the default one shows delegations too.
DelegationVisualizer = DefaultConversationVisualizer

__all__ = [
    "DEFAULT_LIMITS",
    "DelegateAction",
    "DelegateParallelAction",
    "DelegateParallelTool",
    "DelegateTool",
    "DelegationError",
    "DelegationVisualizer",
    "RegisteredAgent",
    "create_delegate_tools",
    "get_agent",
    "register_agent",
    "registered_agents",
]
