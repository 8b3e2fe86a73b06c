"""The default tool set and agent for a coding agent (the SDK's `openhands.tools.preset.default`)."""

from __future__ import annotations

import openhands_tui.tools  # noqa: F401 - registers the tools named below
from openhands_tui.sdk import LLM, Agent
from openhands_tui.sdk.tool import Tool


def get_default_tools(enable_browser: bool = False) -> list[Tool]:
    """Terminal, file editor, task tracker and web fetch (think and finish are added to every agent).

    `enable_browser` is accepted for compatibility with OpenHands strategies; there is no
    browser tool here, so it must stay False.
    """
    if enable_browser:
        raise ValueError("get_default_tools(enable_browser=True): openhands_tui has no browser tool")
    return [
        Tool(name="TerminalTool"),
        Tool(name="FileEditorTool"),
        Tool(name="TaskTrackerTool"),
        Tool(name="WebFetchTool"),
    ]


def get_default_agent(llm: LLM, cli_mode: bool = True, **unsupported: object) -> Agent:
    """The SDK's default coding agent: `llm` with the default tools. In the SDK `cli_mode`
    leaves out the browser tools; there are none here, so it changes nothing either way."""
    if unsupported:
        name = sorted(unsupported)[0]
        raise ValueError(f"get_default_agent({name}=...): not supported by openhands_tui (it takes llm and cli_mode)")
    return Agent(llm=llm, tools=get_default_tools(), name="default", description="General-purpose coding agent")
