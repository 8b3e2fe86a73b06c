"""Tool registry: turns an agent's `Tool(name=...)` specs into live tools for one run.

The engine never imports concrete tools; packages register factories here when imported
(`openhands_tui.tools` registers the built-in ones), and strategies can register their own.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from openhands_tui.sdk.errors import ToolResolutionError
from openhands_tui.sdk.tool.definition import ToolContext, ToolDefinition
from openhands_tui.sdk.tool.think_and_finish import always_offered_tools
from openhands_tui.sdk.tool_spec import Tool

ToolFactory = Callable[[dict[str, Any], ToolContext], Sequence[ToolDefinition[Any]]]

_FACTORIES: dict[str, ToolFactory] = {}
_ALIASES: dict[str, str] = {}


def register_tool(name: str, factory: ToolFactory, *, aliases: Sequence[str] = ()) -> None:
    """Register `factory` under `name` (and aliases). Re-registering the same factory is a no-op."""
    for key in (name, *aliases):
        existing = _FACTORIES.get(_ALIASES.get(key, key))
        if existing is not None and existing is not factory:
            raise ToolResolutionError(f"tool name {key!r} is already registered by {existing!r}")
    _FACTORIES[name] = factory
    for alias in aliases:
        _ALIASES[alias] = name


def registered_tools() -> list[str]:
    return sorted(_FACTORIES)


def resolve_tools(specs: Sequence[Tool], ctx: ToolContext) -> list[ToolDefinition[Any]]:
    """Create live tools for one agent's run, in the order given, without duplicate names."""
    tools: dict[str, ToolDefinition[Any]] = {}
    for spec in specs:
        factory = _FACTORIES.get(_ALIASES.get(spec.name, spec.name))
        if factory is None:
            known = ", ".join(registered_tools()) or "none"
            raise ToolResolutionError(
                f"unknown tool {spec.name!r} (registered: {known}); "
                "import openhands_tui.tools to register the built-in tools"
            )
        for tool in factory(spec.params, ctx):
            tools.setdefault(tool.name, tool)
    for tool in always_offered_tools():  # every agent can think and finish, even with tools=[]
        tools.setdefault(tool.name, tool)
    return list(tools.values())
