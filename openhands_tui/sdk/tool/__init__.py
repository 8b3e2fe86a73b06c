"""Tool specs, definitions and the registry."""

from openhands_tui.sdk.tool.definition import (
    Action,
    Observation,
    RiskyAction,
    ToolContext,
    ToolDefinition,
)
from openhands_tui.sdk.tool.registry import register_tool, registered_tools, resolve_tools
from openhands_tui.sdk.tool.spec import Tool

__all__ = [
    "Action",
    "Observation",
    "RiskyAction",
    "Tool",
    "ToolContext",
    "ToolDefinition",
    "register_tool",
    "registered_tools",
    "resolve_tools",
]
