"""What an agent knows beyond its task: prompt suffixes and skills (microagents)."""

from openhands_tui.sdk.context.agent_context import AgentContext
from openhands_tui.sdk.context.loader import LoadedMicroagents, load_microagents
from openhands_tui.sdk.context.skill import InputMetadata, KeywordTrigger, Skill, SkillInput, TaskTrigger

__all__ = [
    "AgentContext",
    "InputMetadata",
    "KeywordTrigger",
    "LoadedMicroagents",
    "Skill",
    "SkillInput",
    "TaskTrigger",
    "load_microagents",
]
