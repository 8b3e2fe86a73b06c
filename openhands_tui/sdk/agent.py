"""Agent: what a strategy builds. A model, the tools it may use, and the context it starts with.

An Agent is configuration, not a running thing: the same Agent can run many times (a
delegated child is built fresh for each task), and each run gets its own live tools.
"""

from __future__ import annotations

from pydantic import Field

from openhands_tui.sdk.condenser import Condenser
from openhands_tui.sdk.context import AgentContext
from openhands_tui.sdk.llm import LLM
from openhands_tui.sdk.model import Model
from openhands_tui.sdk.prompts import BASE_SYSTEM_PROMPT
from openhands_tui.sdk.tool_spec import Tool


class Agent(Model):
    llm: LLM
    tools: list[Tool] = Field(default_factory=list)
    agent_context: AgentContext | None = None
    name: str = "agent"
    description: str = ""
    system_prompt: str | None = Field(default=None, description="Replaces the built-in base prompt.")
    max_iterations: int | None = Field(default=None, description="Model calls this agent may make.")
    condenser: Condenser | None = Field(
        default_factory=Condenser, description="How the history is kept inside the context window; None: never."
    )

    @property
    def context(self) -> AgentContext:
        return self.agent_context or AgentContext()

    def build_system_prompt(self) -> str:
        prompt = (self.system_prompt or BASE_SYSTEM_PROMPT).rstrip()
        suffix = self.context.system_message_suffix
        if suffix and suffix.strip():
            prompt += "\n\n" + suffix.strip()
        return prompt + "\n"
