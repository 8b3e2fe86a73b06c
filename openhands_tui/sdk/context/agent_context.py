"""AgentContext: the prompt additions a strategy gives an agent.

The system prompt stays byte-identical for a whole run (so provider prompt caches hit);
anything that depends on the workspace or on what the user said goes into user messages.
"""

from __future__ import annotations

from pathlib import Path

from pydantic import Field

from openhands_tui.sdk.context.skill import Skill
from openhands_tui.sdk.model import Model


class AgentContext(Model):
    system_message_suffix: str | None = None
    user_message_suffix: str | None = None
    skills: list[Skill] = Field(default_factory=list)


def merge_skills(*groups: list[Skill]) -> list[Skill]:
    """Skills from several sources, the first of each name winning."""
    merged: dict[str, Skill] = {}
    for group in groups:
        for skill in group:
            merged.setdefault(skill.name, skill)
    return list(merged.values())


def workspace_block(workspace: Path, repo_skills: list[Skill]) -> str:
    """The block added to an agent's first message: where it works and its always-on skills."""
    lines = ["<WORKSPACE_CONTEXT>", f"Working directory: {workspace}"]
    for skill in repo_skills:
        lines += ["", f"## {skill.name} ({Path(skill.source).name})", skill.content.strip()]
    lines.append("</WORKSPACE_CONTEXT>")
    return "\n".join(lines)


def triggered_skills(skills: list[Skill], text: str, already: set[str]) -> list[tuple[Skill, str]]:
    """Knowledge skills whose trigger appears in `text` and that were not injected yet."""
    fired = []
    for skill in skills:
        if skill.type != "knowledge" or skill.name in already:
            continue
        keyword = skill.match(text)
        if keyword is not None:
            fired.append((skill, keyword))
    return fired


def extra_info_block(skill: Skill, keyword: str) -> str:
    return (
        "<EXTRA_INFO>\n"
        f'The following information has been included based on a keyword match for "{keyword}".\n'
        "It may or may not be relevant to the user's request.\n\n"
        f"{skill.content.strip()}\n"
        "</EXTRA_INFO>"
    )
