"""Concrete tools. Importing this package registers them with the engine's tool registry."""

from openhands_tui.sdk.tool import register_tool
from openhands_tui.tools.delegate import create_delegate_tools
from openhands_tui.tools.file_editor import create_file_editor
from openhands_tui.tools.task_tracker import create_task_tracker
from openhands_tui.tools.terminal import create_terminal

register_tool("TerminalTool", create_terminal, aliases=("terminal", "BashTool"))
register_tool("FileEditorTool", create_file_editor, aliases=("file_editor",))
register_tool("TaskTrackerTool", create_task_tracker, aliases=("task_tracker",))
register_tool("DelegateTool", create_delegate_tools, aliases=("delegate",))
