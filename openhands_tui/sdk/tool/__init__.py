"""Tool specs, definitions, subjects, the context tools run in, and the registry."""

from openhands_tui.sdk.subject import (
    Delegation,
    FileChange,
    Finish,
    MCPAnnotations,
    MCPCall,
    NetworkRequest,
    OtherSubject,
    ShellCommand,
    Subject,
)
from openhands_tui.sdk.tool.context import AgentBuilder, ChildResult, ChildSpawner, ToolContext
from openhands_tui.sdk.tool.definition import (
    Action,
    Observation,
    RiskyAction,
    ToolDefinition,
)
from openhands_tui.sdk.tool.registry import register_tool, registered_tools, resolve_tools
from openhands_tui.sdk.tool_spec import Tool

__all__ = [
    "Action",
    "AgentBuilder",
    "ChildResult",
    "ChildSpawner",
    "Delegation",
    "FileChange",
    "Finish",
    "MCPAnnotations",
    "MCPCall",
    "NetworkRequest",
    "Observation",
    "OtherSubject",
    "RiskyAction",
    "ShellCommand",
    "Subject",
    "Tool",
    "ToolContext",
    "ToolDefinition",
    "register_tool",
    "registered_tools",
    "resolve_tools",
]
