"""`Tool(name=..., params={...})`: how an Agent names the tools it wants (resolved at run time)."""

from __future__ import annotations

from typing import Any

from pydantic import ConfigDict, Field

from openhands_tui.sdk.model import StrictModel


class Tool(StrictModel):
    """A reference to a registered tool, e.g. `Tool(name="TerminalTool")`.

    Agents hold specs, not live tools: a live tool (a bash session, an editor's undo history)
    belongs to one agent's run and is created when that run starts.
    """

    model_config = ConfigDict(frozen=True, defer_build=True, extra="forbid")

    name: str = Field(description="A registered tool name: TerminalTool, FileEditorTool, DelegateTool, ...")
    params: dict[str, Any] = Field(default_factory=dict, description="Given to the tool's factory.")
