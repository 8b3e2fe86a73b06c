from openhands_tui.executors.local.shell import BashSession, CommandResult
from openhands_tui.tools.terminal.executor import TerminalExecutor
from openhands_tui.tools.terminal.tool import (
    TerminalAction,
    TerminalObservation,
    TerminalTool,
    create_terminal,
)

__all__ = [
    "BashSession",
    "CommandResult",
    "TerminalAction",
    "TerminalExecutor",
    "TerminalObservation",
    "TerminalTool",
    "create_terminal",
]
