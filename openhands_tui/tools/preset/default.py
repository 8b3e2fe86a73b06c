"""The default tool set for a coding agent."""

from __future__ import annotations

import openhands_tui.tools  # noqa: F401 - registers the tools named below
from openhands_tui.sdk.tool import Tool


def get_default_tools(enable_browser: bool = False) -> list[Tool]:
    """Terminal, file editor and task tracker (think and finish are added to every agent).

    `enable_browser` is accepted for compatibility with OpenHands strategies; there is no
    browser tool here, so it must stay False.
    """
    if enable_browser:
        raise ValueError("get_default_tools(enable_browser=True): openhands_tui has no browser tool")
    return [Tool(name="TerminalTool"), Tool(name="FileEditorTool"), Tool(name="TaskTrackerTool")]
