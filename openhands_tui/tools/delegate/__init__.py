"""Delegation: register agents, and let an agent hand tasks to them as tool calls."""

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

__all__ = [
    "DEFAULT_LIMITS",
    "DelegateAction",
    "DelegateParallelAction",
    "DelegateParallelTool",
    "DelegateTool",
    "DelegationError",
    "RegisteredAgent",
    "create_delegate_tools",
    "get_agent",
    "register_agent",
    "registered_agents",
]
