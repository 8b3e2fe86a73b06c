"""What an agent knows beyond its task: prompt suffixes and skills (microagents)."""

from openhands_tui.sdk.context.agent_context import AgentContext
from openhands_tui.sdk.context.loader import LoadedMicroagents, load_microagents
from openhands_tui.sdk.context.skill import Skill, SkillInput

__all__ = ["AgentContext", "LoadedMicroagents", "Skill", "SkillInput", "load_microagents"]
