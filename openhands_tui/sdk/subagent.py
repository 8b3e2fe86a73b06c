"""The SDK's `openhands.sdk.subagent`: `register_agent(name=..., factory_func=..., description=...)`.

Delegation is a tool here (`openhands_tui.tools.delegate`), and the engine imports no tools, so
the registry is the tools' own: importing `openhands_tui.tools` (any tool, `TaskToolSet`,
`DelegateTool`) connects it to these names. The SDK's examples import a delegation tool
before they register agents; code that does not is told so in one line.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from openhands_tui.sdk.model import UnsupportedArgument

_registry: dict[str, Callable[..., Any]] = {}


def connect_agent_registry(register: Callable[..., Any], lookup: Callable[[str], Any]) -> None:
    """Called by `openhands_tui.tools` when it is imported: where registrations go."""
    _registry["register"], _registry["lookup"] = register, lookup


def _connected(name: str) -> Callable[..., Any]:
    found = _registry.get(name)
    if found is None:
        raise UnsupportedArgument(
            "register_agent needs the delegation tool: import it first "
            "(from openhands_tui.tools.delegate import DelegateTool, or openhands_tui.tools.task's TaskToolSet)"
        )
    return found


def register_agent(
    name: str, factory_func: Callable[..., Any] | None = None, description: str = "", **kwargs: Any
) -> None:
    """Make `name` available to the delegation tool; `factory_func(llm)` builds a fresh Agent."""
    _connected("register")(name, description=description, factory_func=factory_func, **kwargs)


def register_agent_if_absent(
    name: str, factory_func: Callable[..., Any] | None = None, description: str = "", **kwargs: Any
) -> bool:
    """`register_agent` unless `name` is registered already; whether it registered."""
    if _connected("lookup")(name) is not None:
        return False
    register_agent(name, factory_func, description, **kwargs)
    return True


__all__ = ["connect_agent_registry", "register_agent", "register_agent_if_absent"]
