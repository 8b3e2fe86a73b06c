"""Concrete tools. Importing this package registers them with the engine's tool registry,
and the MCP client (`openhands_tui.mcp`) with the engine, so MCP servers' tools are there too."""

import openhands_tui.mcp  # noqa: F401  (registers the MCP client)
from openhands_tui.sdk.subagent import connect_agent_registry
from openhands_tui.sdk.tool import register_tool
from openhands_tui.tools.delegate import DelegateTool, get_agent, register_agent
from openhands_tui.tools.file_editor import FileEditorTool
from openhands_tui.tools.task_tracker import TaskTrackerTool
from openhands_tui.tools.terminal import TerminalTool
from openhands_tui.tools.web import WebFetchTool

# Registered by class, as the SDK does, so a strategy's own `register_tool("DelegateTool",
# DelegateTool)` (copied from an SDK example) is the same registration, not a clash.
register_tool("TerminalTool", TerminalTool, aliases=("terminal", "BashTool"))
register_tool("FileEditorTool", FileEditorTool, aliases=("file_editor",))
register_tool("TaskTrackerTool", TaskTrackerTool, aliases=("task_tracker",))
register_tool("DelegateTool", DelegateTool, aliases=("delegate",))
register_tool("WebFetchTool", WebFetchTool, aliases=("web_fetch",))

# The SDK's `openhands.sdk.register_agent` registers here (the engine imports no tools).
connect_agent_registry(register_agent, get_agent)
