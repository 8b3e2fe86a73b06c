"""Agent: what a strategy builds. A model, the tools it may use, and the context it starts with.

An Agent is configuration, not a running thing: the same Agent can run many times (a
delegated child is built fresh for each task), and each run gets its own live tools.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any, Literal

from pydantic import Field, field_validator, model_validator

from openhands_tui.sdk.context import AgentContext
from openhands_tui.sdk.context.condenser import Condenser, NoOpCondenser
from openhands_tui.sdk.critic.base import CriticBase
from openhands_tui.sdk.files.read import read_regular
from openhands_tui.sdk.hooks.config import HookConfig
from openhands_tui.sdk.llm.client import LLM
from openhands_tui.sdk.mcp_config import MCPServerConfig, parse_servers
from openhands_tui.sdk.model import StrictModel, UnsupportedArgument
from openhands_tui.sdk.prompts import BASE_SYSTEM_PROMPT
from openhands_tui.sdk.tool_spec import Tool

_PLACEHOLDER = re.compile(r"\{\{\s*([A-Za-z_][A-Za-z0-9_]*)\s*\}\}")


class Agent(StrictModel):
    """An agent: its model, tools, context and limits. Every field is optional but `llm`."""

    sdk_instead = {
        "security_analyzer": "risk is rated by rules for every action; choose when to ask with --confirm "
        "and .openhands-tui/permissions.toml",
        "security_policy_filename": "risk is rated by rules; use .openhands-tui/permissions.toml",
        "filter_tools_regex": "list only the tools the agent should have in `tools`",
        "include_default_tools": "think and finish are given to every agent; remove it",
        "critic_evaluation_mode": "give the critic its mode: LLMCritic(mode='all_actions')",
        "kind": "remove it",
    }

    llm: LLM = Field(description="The model this agent calls.")
    tools: list[Tool] = Field(default_factory=list, description="Registered tools by name; think and finish are added.")
    agent_context: AgentContext | None = Field(default=None, description="Skills and prompt suffixes.")
    name: str = Field(default="agent", description="Shown in the transcript and the agent tree.")
    description: str = Field(default="", description="What it is for (shown to delegating agents).")
    system_prompt: str | None = Field(default=None, description="Replaces the built-in base prompt.")
    system_prompt_filename: str | None = Field(
        default=None, description="A file whose text replaces the base prompt (the SDK's template file)."
    )
    system_prompt_kwargs: dict[str, Any] = Field(
        default_factory=dict,
        description="Values for `{{ name }}` placeholders in the system prompt; each must be used.",
    )
    max_iterations: int | None = Field(default=None, description="Model calls this agent may make.")
    condenser: Condenser | None = Field(
        default_factory=Condenser, description="How the history is kept inside the context window; None: never."
    )

    critic: CriticBase | None = Field(
        default=None,
        description="Judges the work when the agent ends; with iterative_refinement, sends it back while too low.",
    )
    hook_config: HookConfig | None = Field(
        default=None,
        description="Hooks in code: the root agent's apply to the whole session, a sub-agent's to itself.",
    )

    read_only: bool = Field(
        default=False,
        description="Held to plan mode: it only reads (file views, commands in a read-only sandbox), and so "
        "do the agents it delegates to. Enforced by the engine, whatever its tools.",
    )

    executor: str | None = Field(
        default=None,
        description="Where its commands and file edits run: 'local', or 'agent-server:URL' (an OpenHands "
        "agent-server; its key from TUI_AGENT_SERVER_KEY or SESSION_API_KEY); None: the session's (--executor).",
    )

    isolation: Literal["shared", "worktree"] = Field(
        default="shared",
        description="As a delegated child: 'worktree' works in its own copy of the workspace, its changes "
        "merged back when it ends (conflicts reported, never lost); 'shared' works in the workspace itself.",
    )

    mcp_config: dict[str, Any] = Field(
        default_factory=dict,
        description="MCP servers whose tools this agent gets, as {'mcpServers': {name: {command|url, ...}}}.",
    )

    mcp_tools: list[str] | None = Field(
        default=None,
        description="Only these MCP tools (`server__tool`, `server__*`), of the session's servers and its own; "
        "None: the root agent gets the session's servers, a sub-agent its own.",
    )

    @field_validator("mcp_config")
    @classmethod
    def _servers_readable(cls, value: dict[str, Any]) -> dict[str, Any]:
        """A server entry that cannot be used fails when the strategy loads, naming it."""
        _, problems = parse_servers(value, "Agent(mcp_config=...)")
        if problems:
            raise UnsupportedArgument(problems[0])
        return value

    @property
    def mcp_servers(self) -> dict[str, MCPServerConfig]:
        return parse_servers(self.mcp_config, "Agent(mcp_config=...)")[0] if self.mcp_config else {}

    @field_validator("condenser")
    @classmethod
    def _no_op(cls, value: Condenser | None) -> Condenser | None:
        return None if isinstance(value, NoOpCondenser) else value

    @model_validator(mode="after")
    def _prompt_fits_kwargs(self) -> Agent:
        """A template file that does not exist, or a kwarg the prompt has no place for, fails
        now (when the strategy loads), not halfway through a run."""
        if self.system_prompt_filename is not None:
            path = Path(self.system_prompt_filename).expanduser()
            try:
                self.system_prompt = read_regular(path).decode("utf-8")
            except (OSError, UnicodeDecodeError) as exc:
                raise UnsupportedArgument(
                    f"Agent(system_prompt_filename={self.system_prompt_filename!r}): cannot read it "
                    f"({getattr(exc, 'strerror', None) or exc})"
                ) from None
            if "{%" in self.system_prompt:
                raise UnsupportedArgument(
                    f"Agent(system_prompt_filename={self.system_prompt_filename!r}): Jinja blocks ({{% ... %}}) are "
                    "not rendered here; only {{ name }} placeholders filled from system_prompt_kwargs"
                )
        kwargs = dict(self.system_prompt_kwargs)
        cli_mode = kwargs.pop("cli_mode", True)
        if cli_mode is not True:
            raise UnsupportedArgument(
                "Agent(system_prompt_kwargs={'cli_mode': False}): there is no browser here; remove cli_mode"
            )
        used = set(_PLACEHOLDER.findall(self.system_prompt or BASE_SYSTEM_PROMPT))
        unused = sorted(set(kwargs) - used)
        if unused:
            raise UnsupportedArgument(
                f"Agent(system_prompt_kwargs={{{unused[0]!r}: ...}}): the system prompt has no {{{{ {unused[0]} }}}} "
                "placeholder; add one to system_prompt, or put the text in AgentContext(system_message_suffix=...)"
            )
        return self

    @property
    def context(self) -> AgentContext:
        return self.agent_context or AgentContext()

    def build_system_prompt(self) -> str:
        prompt = (self.system_prompt or BASE_SYSTEM_PROMPT).rstrip()
        if self.system_prompt_kwargs:
            values = {key: str(value) for key, value in self.system_prompt_kwargs.items()}
            prompt = _PLACEHOLDER.sub(lambda m: values.get(m.group(1), m.group(0)), prompt)
        suffix = self.context.system_message_suffix
        if suffix and suffix.strip():
            prompt += "\n\n" + suffix.strip()
        return prompt + "\n"
