"""Which agents can be delegated to: `register_agent(name, factory, description)`.

A process-wide registry, as in the RFC: a strategy's `setup()` registers the agents its
root may call. Loading the same strategy file twice registers the same factories again,
which is allowed; two different factories under one name is an error naming both.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from openhands_tui.sdk.agent import Agent
from openhands_tui.sdk.errors import OpenHandsTUIError
from openhands_tui.sdk.llm.client import LLM

AgentFactory = Callable[[LLM], Agent]


class DelegationError(OpenHandsTUIError):
    """A registration that cannot be honoured (e.g. a duplicate name)."""


@dataclass(frozen=True)
class RegisteredAgent:
    name: str
    factory: AgentFactory
    description: str

    @property
    def origin(self) -> str:
        code = getattr(self.factory, "__code__", None)
        where = f"{code.co_filename}:{code.co_firstlineno}" if code is not None else "?"
        return f"{getattr(self.factory, '__qualname__', repr(self.factory))} ({where})"


_AGENTS: dict[str, RegisteredAgent] = {}


def register_agent(
    name: str,
    factory: AgentFactory | None = None,
    description: str = "",
    *,
    factory_func: AgentFactory | None = None,
) -> None:
    """Make `name` available to DelegateTool; `factory(llm)` builds a fresh Agent per task.
    `factory_func=` is the OpenHands SDK's name for `factory`."""
    if not name or not name.strip():
        raise DelegationError("register_agent: the agent name is empty")
    if (factory is None) == (factory_func is None):
        raise DelegationError(f"register_agent({name!r}): give the factory once, as factory= or factory_func=")
    factory = factory or factory_func
    assert factory is not None
    if not callable(factory):
        raise DelegationError(f"register_agent({name!r}): the factory must be a function llm -> Agent")
    entry = RegisteredAgent(name, factory, description)
    existing = _AGENTS.get(name)
    if existing is not None and existing.origin != entry.origin:
        raise DelegationError(
            f"register_agent: {name!r} is registered twice: by {existing.origin} and by {entry.origin}"
        )
    _AGENTS[name] = entry


def get_agent(name: str) -> RegisteredAgent | None:
    return _AGENTS.get(name)


def registered_agents() -> list[RegisteredAgent]:
    return list(_AGENTS.values())


def unregister_all() -> dict[str, RegisteredAgent]:
    """Empty the registry and return what it held (tests restore it afterwards)."""
    saved = dict(_AGENTS)
    _AGENTS.clear()
    return saved


def restore(saved: dict[str, RegisteredAgent]) -> None:
    _AGENTS.clear()
    _AGENTS.update(saved)
