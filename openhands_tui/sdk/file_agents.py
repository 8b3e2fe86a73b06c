"""Agents from files (sdk/context/agent_files.py) as Agents: their tools as our tool specs, their
instructions as the system prompt's suffix, their model resolved once against the session's.

Model: none or `inherit` is the delegating agent's. A tool's alias (`sonnet`) or bare name
(`gemini-2.5-pro`) is used only when the session's provider is the one it means, else a notice
and the session's model. A full litellm name (`openai/gpt-4o`) of the session's provider is
used as is; one of another provider would send the conversation there, so it is taken only from
the user's own files (with that provider's key from the environment, never the session's), and
from a project's file it is a notice and the session's model.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from openhands_tui.sdk.agent import Agent
from openhands_tui.sdk.context import AgentContext
from openhands_tui.sdk.context.agent_files import FileAgent, LoadedAgents
from openhands_tui.sdk.context.agent_formats import (
    BARE_PROVIDERS,
    DEFAULT_GRANTS,
    DELEGATE,
    FORMATS,
    SAME_FAMILY,
    TOOL_SPECS,
)
from openhands_tui.sdk.llm.client import LLM
from openhands_tui.sdk.tool.context import DelegateTarget
from openhands_tui.sdk.tool_spec import Tool


@dataclass(frozen=True)
class FileAgentPlan:
    """One file agent, its model settled for this session: what builds it for each task."""

    spec: FileAgent
    #: LLM fields to change from the delegating agent's (None: its model as it is).
    llm_update: dict[str, Any] | None = None

    def build(self, llm: LLM, *, delegate: bool = False) -> Agent:
        """A fresh Agent for one task, on `llm` (the delegating agent's) unless its file says
        otherwise. `delegate`: give it the delegate tool too (a root agent with others to call)."""
        spec = self.spec
        grants = list(DEFAULT_GRANTS if spec.grants is None else spec.grants)
        if delegate and DELEGATE not in grants:
            grants.append(DELEGATE)
        tools = [Tool(name=TOOL_SPECS[g][0], params=dict(TOOL_SPECS[g][1])) for g in grants]
        update = dict(self.llm_update or {})
        if spec.temperature is not None:
            update["temperature"] = spec.temperature
        return Agent(
            llm=llm.model_copy(update=update) if update else llm,
            name=spec.name,
            description=spec.description,
            tools=tools,
            agent_context=AgentContext(system_message_suffix=spec.instructions or None),
            max_iterations=spec.max_iterations,
            mcp_tools=None if spec.grants is None and not spec.mcp else list(spec.mcp),
            isolation="worktree" if spec.isolation == "worktree" else "shared",
        )

    def target(self) -> DelegateTarget:
        return DelegateTarget(self.spec.name, self.spec.description, self.build)


def plan_file_agents(loaded: LoadedAgents, session_model: str, notices: list[str]) -> list[FileAgentPlan]:
    """Each loaded agent with its model settled against `session_model`; what cannot be honoured
    is one line in `notices`."""
    plans = []
    for spec in loaded.agents:
        update, notice = model_update(spec, session_model)
        if notice:
            notices.append(notice)
        plans.append(FileAgentPlan(spec, update))
    return plans


def model_update(spec: FileAgent, session_model: str) -> tuple[dict[str, Any] | None, str | None]:
    """(LLM fields to change, a notice) for `spec`'s model in a session on `session_model`."""
    declared = spec.model
    if declared is None:
        return None, None
    fmt = next(f for f in FORMATS if f.tool == spec.format)
    provider, prefix = provider_of(session_model)
    where = f"{spec.source}: model {declared!r}"
    if "/" not in declared:
        name = fmt.models.get(declared.lower(), declared)
        meant = fmt.provider or BARE_PROVIDERS.get(declared.split("-", 1)[0].lower())
        if meant is not None and provider in SAME_FAMILY.get(meant, {meant}):
            return {"model": f"{prefix}/{name}" if prefix else name}, None
        if meant is None:
            return None, f"{where} names no model litellm knows; it uses the session's ({session_model})"
        return None, f"{where} is a {meant} model and this session runs on {session_model}; it uses the session's"
    head, rest = declared.split("/", 1)
    full = f"{fmt.providers.get(head, head)}/{rest}"
    other, _ = provider_of(full)
    if other == provider:
        return {"model": full}, None
    if spec.origin == "workspace":
        return None, (
            f"{where} is another provider's than the session's ({session_model}): a project's file may not send "
            "the conversation elsewhere; it uses the session's (put the file in your home's folder to use it)"
        )
    return {"model": full, "api_key": None, "base_url": None}, None  # its key: that provider's, from the environment


def provider_of(model: str) -> tuple[str, str]:
    """(provider, the prefix the model was written with): `anthropic/claude-x` -> (anthropic,
    anthropic); a bare `claude-x` -> (anthropic, "")."""
    if "/" in model:
        prefix = model.split("/", 1)[0]
        return prefix, prefix
    return BARE_PROVIDERS.get(model.split("-", 1)[0].lower(), ""), ""
