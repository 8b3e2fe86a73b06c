"""The built-in single-agent strategy: one coding agent with the default tools."""

from __future__ import annotations

from typing import Any

from openhands_tui.sdk import LLM, Agent, AgentContext
from openhands_tui.sdk.strategy import Strategy, StrategyParam
from openhands_tui.tools.preset.default import get_default_tools


class Solo(Strategy):
    """One agent, no delegation. Use it for focused tasks in a single repository."""

    name = "solo"
    description = "A single coding agent with terminal, file editor and task tracker"
    params = [
        StrategyParam(
            name="instructions",
            type="string",
            default="",
            description="Extra instructions appended to the agent's system prompt",
        )
    ]

    def build_agent(self, llm: LLM, params: dict[str, Any] | None = None) -> Agent:
        instructions = (params or {}).get("instructions") or None
        return Agent(
            llm=llm,
            name="solo",
            description="General coding agent",
            tools=get_default_tools(),
            agent_context=AgentContext(system_message_suffix=instructions),
        )
