"""Solo: one coding agent with terminal, file editor and task tracker; no delegation.

When to use it: focused work in one repository where a single agent can hold the whole
task in mind — a bug fix, a test, a small feature. It is also what `tui` runs when no
--strategy is given. Param `instructions` appends text to the agent's system prompt:

    tui --strategy strategies/solo.py --param instructions="Prefer pytest" --task "..."
"""

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
