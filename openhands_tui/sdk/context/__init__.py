"""What an agent knows beyond its task: prompt suffixes and skills (microagents)."""

from openhands_tui.sdk.context.agent_context import AgentContext
from openhands_tui.sdk.context.skill import Skill

__all__ = ["AgentContext", "Skill"]
