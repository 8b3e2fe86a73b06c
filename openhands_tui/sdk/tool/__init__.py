"""Tool specs, definitions, subjects, the context tools run in, and the registry."""

from openhands_tui.sdk.facts.subject import (
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
from openhands_tui.sdk.tool.context import (
    AgentBuilder,
    ChildResult,
    ChildSpawner,
    ConversationState,
    LocalWorkspace,
    SkillShelf,
    ToolContext,
)
from openhands_tui.sdk.tool.definition import (
    Action,
    Observation,
    RiskyAction,
    ToolAnnotations,
    ToolDefinition,
    ToolExecutor,
)
from openhands_tui.sdk.tool.registry import register_tool, registered_tools, resolve_tools, unknown_tools
from openhands_tui.sdk.tool_spec import Tool

__all__ = [
    "Action",
    "AgentBuilder",
    "ChildResult",
    "ChildSpawner",
    "ConversationState",
    "Delegation",
    "FileChange",
    "Finish",
    "LocalWorkspace",
    "MCPAnnotations",
    "MCPCall",
    "NetworkRequest",
    "Observation",
    "OtherSubject",
    "RiskyAction",
    "ShellCommand",
    "SkillShelf",
    "Subject",
    "Tool",
    "ToolAnnotations",
    "ToolContext",
    "ToolDefinition",
    "ToolExecutor",
    "register_tool",
    "registered_tools",
    "resolve_tools",
    "unknown_tools",
]
