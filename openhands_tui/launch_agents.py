"""A session's agents from files: loaded from the workspace and the user's folders, offered to
every agent that delegates (the solo strategy gains the delegate tool when there are any), and
`--agent NAME` running one of them as the root agent.

Apart from launch.py so the two stay easy to read (and to merge).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

from openhands_tui.sdk.agent import Agent
from openhands_tui.sdk.context.agent_files import load_agent_files
from openhands_tui.sdk.errors import SettingsError
from openhands_tui.sdk.file_agents import FileAgentPlan, plan_file_agents
from openhands_tui.sdk.llm.client import LLM
from openhands_tui.sdk.strategy import LoadedStrategy
from openhands_tui.sdk.tool.context import DelegateTarget
from openhands_tui.sdk.tool_spec import Tool
from openhands_tui.tools.delegate.registry import registered_agents

#: The strategy that gains the delegate tool when agent files offer someone to delegate to.
SOLO = "solo"


@dataclass
class SessionAgents:
    #: The root agent: the strategy's (with the delegate tool for solo), or the `--agent` one.
    root: Agent
    #: What delegating agents may call besides the strategy's own.
    targets: list[DelegateTarget] = field(default_factory=list)
    notices: list[str] = field(default_factory=list)


def session_agents(
    workspace: Path,
    strategy: LoadedStrategy,
    agent: Agent,
    llm: LLM,
    chosen: str | None,
    plugin_dirs: list[tuple[str, Path]] | None = None,
) -> SessionAgents:
    """The agents from files a session in `workspace` offers, and its root agent. `chosen`: the
    `--agent` name (an error naming those that exist if there is no such agent)."""
    loaded = load_agent_files(workspace, plugin_dirs=plugin_dirs or ())
    notices = loaded.notices()
    plans = plan_file_agents(loaded, llm.model, notices)
    own = {entry.name for entry in registered_agents()}
    kept: list[FileAgentPlan] = []
    for plan in plans:
        if plan.spec.name in own:
            notices.append(
                f"agent {plan.spec.name} from {plan.spec.source}: the strategy's own agent of that name is used"
            )
        else:
            kept.append(plan)
    root = agent
    if chosen is not None:
        picked = next((p for p in kept if p.spec.name == chosen), None)
        if picked is None:
            have = ", ".join(p.spec.name for p in kept) or "none (see `tui agents`)"
            raise SettingsError(f"--agent {chosen}: no such agent (have: {have})")
        others = [p for p in kept if p is not picked and p.spec.delegable]
        root = picked.build(llm, delegate=bool(others) and picked.spec.grants is None)
        kept = others
    else:
        kept = [p for p in kept if p.spec.delegable]
        delegates = any(spec.name in ("DelegateTool", "delegate") for spec in agent.tools)
        if kept and strategy.name == SOLO and not delegates:
            root = agent.model_copy(update={"tools": [*agent.tools, Tool(name="DelegateTool")]})
    return SessionAgents(root, [p.target() for p in kept], notices)
