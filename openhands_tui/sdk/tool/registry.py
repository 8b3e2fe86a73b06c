"""Tool registry: turns an agent's `Tool(name=...)` specs into live tools for one run.

The engine never imports concrete tools; packages register factories here when imported
(`openhands_tui.tools` registers the built-in ones), and strategies can register their own.
`register_tool(name, factory)` takes, as the OpenHands SDK's does:
- a ToolDefinition subclass with a `create(conv_state, **params)` classmethod;
- a ToolDefinition instance (used as is; it takes no params);
- a function `factory(conv_state, **params)` returning a list of tools;
and, for the engine's own tools, a function `factory(params, ctx)` (its first parameter is
named `params`) that gets the params dict and the ToolContext.
"""

from __future__ import annotations

import inspect
from collections.abc import Callable, Sequence
from typing import Any

from openhands_tui.sdk.errors import ToolResolutionError
from openhands_tui.sdk.tool.context import ConversationState
from openhands_tui.sdk.tool.definition import ToolContext, ToolDefinition
from openhands_tui.sdk.tool.skill_tool import SkillTool
from openhands_tui.sdk.tool.think_and_finish import always_offered_tools
from openhands_tui.sdk.tool_spec import Tool

ToolFactory = Callable[[dict[str, Any], ToolContext], Sequence[ToolDefinition[Any]]]

_FACTORIES: dict[str, Any] = {}
_RESOLVERS: dict[str, ToolFactory] = {}
_ALIASES: dict[str, str] = {}


def register_tool(name: str, factory: Any, *, aliases: Sequence[str] = ()) -> None:
    """Register `factory` under `name` (and aliases). Registering the same factory again (or the
    same one from a strategy file loaded again) replaces it; a different one under a taken name
    is an error naming both."""
    if not isinstance(name, str) or not name.strip():
        raise ToolResolutionError("register_tool: the tool name is empty")
    resolver = _resolver(name, factory)
    for key in (name, *aliases):
        existing = _FACTORIES.get(_ALIASES.get(key, key))
        if existing is not None and _describe(existing) != _describe(factory):
            raise ToolResolutionError(
                f"tool name {key!r} is already registered by {_describe(existing)}; {_describe(factory)} "
                "needs another name"
            )
    _FACTORIES[name] = factory
    _RESOLVERS[name] = resolver
    for alias in aliases:
        _ALIASES[alias] = name


def registered_tools() -> list[str]:
    return sorted(_FACTORIES)


def is_registered(name: str) -> bool:
    return _ALIASES.get(name, name) in _FACTORIES


def unknown_tools(specs: Sequence[Tool]) -> list[str]:
    """The names in `specs` nobody registered (checked when a strategy loads)."""
    return [spec.name for spec in specs if not is_registered(spec.name)]


def resolve_tools(specs: Sequence[Tool], ctx: ToolContext) -> list[ToolDefinition[Any]]:
    """Create live tools for one agent's run, in the order given, without duplicate names."""
    tools: dict[str, ToolDefinition[Any]] = {}
    for spec in specs:
        resolver = _RESOLVERS.get(_ALIASES.get(spec.name, spec.name))
        if resolver is None:
            known = ", ".join(registered_tools()) or "none"
            raise ToolResolutionError(
                f"unknown tool {spec.name!r} (registered: {known}); "
                "import openhands_tui.tools to register the built-in tools"
            )
        for tool in resolver(dict(spec.params), ctx):
            tools.setdefault(tool.name, tool)
    for tool in always_offered_tools():  # every agent can think and finish, even with tools=[]
        tools.setdefault(tool.name, tool)
    if ctx.skills is not None and ctx.skills.available():  # the Agent Skills it was told about
        tools.setdefault(SkillTool.name, SkillTool(ctx.skills))
    return list(tools.values())


def _resolver(name: str, factory: Any) -> ToolFactory:
    if isinstance(factory, type) and issubclass(factory, ToolDefinition):
        if getattr(factory.create, "__func__", None) is getattr(ToolDefinition.create, "__func__", None):
            raise ToolResolutionError(
                f"register_tool({name!r}, {factory.__name__}): the class must define "
                "create(conv_state, **params), or register a function that returns its tools"
            )
        return lambda params, ctx: _checked(name, factory.create(_state(ctx), **params), ctx)
    if isinstance(factory, ToolDefinition):

        def fixed(params: dict[str, Any], ctx: ToolContext) -> Sequence[ToolDefinition[Any]]:
            if params:
                raise ToolResolutionError(f"tool {name!r} is a fixed instance and takes no params")
            return [factory]

        return fixed
    if not callable(factory):
        raise ToolResolutionError(
            f"register_tool({name!r}, ...): expected a ToolDefinition class or instance, or a function "
            f"returning tools, got {type(factory).__name__}"
        )
    if _engine_convention(factory):
        return lambda params, ctx: _checked(name, factory(params, ctx), ctx)
    return lambda params, ctx: _checked(name, factory(_state(ctx), **params), ctx)


def _engine_convention(factory: Callable[..., Any]) -> bool:
    try:
        parameters = list(inspect.signature(factory).parameters)
    except (TypeError, ValueError):
        return False
    return bool(parameters) and parameters[0] == "params"


def _state(ctx: ToolContext) -> ConversationState:
    return ConversationState(ctx)


def _checked(name: str, created: Any, ctx: ToolContext) -> Sequence[ToolDefinition[Any]]:
    if isinstance(created, ToolDefinition):
        created = [created]
    if not isinstance(created, Sequence) or not all(isinstance(t, ToolDefinition) for t in created):
        raise ToolResolutionError(f"tool {name!r}: its factory returned {type(created).__name__}, expected tools")
    state = ConversationState(ctx)
    for tool in created:
        if getattr(tool, "conv_state", None) is None:
            tool.conv_state = state  # what SDK executors see as conversation.state
    return created


def _describe(factory: Any) -> str:
    """Where a factory is defined: the same across reloads of one strategy file (its module
    name is derived from the file's path), different for anybody else's."""
    target = (
        factory
        if isinstance(factory, type) or (callable(factory) and not isinstance(factory, ToolDefinition))
        else type(factory)
    )
    module = getattr(target, "__module__", "") or ""
    return f"{module}.{getattr(target, '__qualname__', repr(target))}"
