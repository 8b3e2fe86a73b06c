"""AgentContext: the prompt additions a strategy gives an agent, and the blocks built from skills.

The system prompt stays byte-identical for a whole run (so provider prompt caches hit);
anything that depends on the workspace or on what the user said goes into user messages:
the first message of each agent carries the workspace block (always-on microagents and the
list of Agent Skills), and a message carries the knowledge its words trigger.
"""

from __future__ import annotations

import re
from pathlib import Path

from pydantic import Field, field_validator

from openhands_tui.sdk.context.skill import Skill
from openhands_tui.sdk.model import StrictModel, UnsupportedArgument

SKILLS_INTRO = (
    "Skills you can use: each is a folder with a SKILL.md (or a project rule file). When a task matches "
    "one, read it first: call the `skill` tool with its name (or view the file). Paths a skill mentions, "
    "like scripts/ or references/, are relative to its folder."
)

#: A skill's description in the listing is cut here (the Agent Skills format's own limit):
#: every first message carries it, and some repositories write pages.
MAX_DESCRIPTION_CHARS = 1024
_CLAUDE_SKILL_DIR = re.compile(r"\$\{CLAUDE_SKILL_DIR\}|\$CLAUDE_SKILL_DIR\b")


class AgentContext(StrictModel):
    """What an agent knows beyond its task, given by the strategy."""

    sdk_instead = {
        "secrets": "secrets come from the environment and are redacted by the engine; remove it",
        "current_datetime": "remove it; put dates the agent needs in system_message_suffix",
    }

    system_message_suffix: str | None = Field(
        default=None, description="Appended to the system prompt (the same for the whole run)."
    )
    user_message_suffix: str | None = Field(default=None, description="Appended to every user message.")
    skills: list[Skill] = Field(
        default_factory=list, description="Skills of this agent; they come before any found on disk."
    )
    load_public_skills: bool = Field(
        default=False, description="The SDK's download of public skills; only False is accepted."
    )

    @field_validator("load_public_skills")
    @classmethod
    def _no_downloads(cls, value: bool) -> bool:
        if value:
            raise UnsupportedArgument(
                "AgentContext(load_public_skills=True) is not supported by openhands_tui: skills are never "
                "downloaded; put them in .agents/skills/ (or ~/.agents/skills/) and they load by themselves"
            )
        return value


def merge_skills(*groups: list[Skill]) -> list[Skill]:
    """Skills from several sources, the first of each name winning."""
    merged: dict[str, Skill] = {}
    for group in groups:
        for skill in group:
            merged.setdefault(skill.name, skill)
    return list(merged.values())


def always_on(skills: list[Skill]) -> list[Skill]:
    """The skills whose content goes into every agent's first message."""
    return [s for s in skills if s.type == "repo" and not s.mcp_only]


def listed(skills: list[Skill]) -> list[Skill]:
    """The Agent Skills an agent is told about (name, description, folder)."""
    return [s for s in skills if s.agent_skill and s.type != "repo"]


def workspace_block(workspace: Path, skills: list[Skill]) -> str:
    """The block added to an agent's first message: where it works, its always-on skills, and
    the skills it can load."""
    lines = ["<WORKSPACE_CONTEXT>", f"Working directory: {workspace}"]
    for skill in always_on(skills):
        where = "" if skill.origin != "strategy" and Path(skill.source).is_dir() else f" ({Path(skill.source).name})"
        lines += ["", f"## {skill.name}{where}", skill.content.strip()]
    listing = skills_listing(listed(skills), workspace)
    if listing:
        lines += ["", listing]
    lines.append("</WORKSPACE_CONTEXT>")
    return "\n".join(lines)


def skills_listing(skills: list[Skill], workspace: Path | None = None) -> str:
    if not skills:
        return ""
    lines = ["## Skills", SKILLS_INTRO]
    for skill in skills:
        description = skill.description.strip() or "(no description)"
        if len(description) > MAX_DESCRIPTION_CHARS:  # the Agent Skills limit; the body has the rest
            description = description[: MAX_DESCRIPTION_CHARS - 1].rstrip() + "…"
        place = skill.directory or (skill.source if skill.origin != "strategy" else None)
        where = f" ({_shown(place, workspace)})" if place else ""
        lines.append(f"- {skill.name}: {description}{where}")
    return "\n".join(lines)


def _shown(directory: str | None, workspace: Path | None) -> str:
    if directory is None:
        return ""
    path = Path(directory)
    if workspace is not None:
        try:
            return str(path.relative_to(workspace))
        except ValueError:
            pass
    return str(path)


def _file_name(skill: Skill) -> str | None:
    """The file a skill came from, by name (`AGENTS.md`); None for one made in code or from
    several files (the note about nested AGENTS.md, whose source is the workspace)."""
    if skill.origin == "strategy":
        return None
    path = Path(skill.source)
    return None if path.is_dir() else path.name


def always_on_parts(skills: list[Skill]) -> list[tuple[str, int]]:
    """(label, tokens) of everything every agent's first message carries, for the budget."""
    parts = [(_file_name(s) or s.name, s.tokens) for s in always_on(skills)]
    listing = skills_listing(listed(skills))
    if listing:
        parts.append((f"the list of {len(listed(skills))} skills", (len(listing) + 3) // 4))
    return parts


def skill_text(skill: Skill, workspace: Path | None = None) -> str:
    """A skill's body as an agent reads it, with where its relative paths point."""
    body = skill.content.strip()
    if skill.directory:
        # `{baseDir}/scripts/x.py` (OpenClaw's skills), `<this-skill-path>/scripts/x.py`
        # (OpenHands' extensions) and `${CLAUDE_SKILL_DIR}/scripts/x.py` (Claude Code's, which no
        # shell here sets): how skills name their own folder
        folder = _shown(skill.directory, workspace)
        body = body.replace("{baseDir}", folder).replace("<this-skill-path>", folder)
        body = _CLAUDE_SKILL_DIR.sub(lambda _: folder, body)
        body += (
            f"\n\n(This skill's folder is {_shown(skill.directory, workspace)}; files it mentions, "
            f"such as scripts/ or references/, are relative to it.)"
        )
    return body


def triggered_skills(skills: list[Skill], text: str, already: set[str]) -> list[tuple[Skill, str]]:
    """Knowledge skills whose trigger appears in `text` and that were not injected yet."""
    fired = []
    for skill in skills:
        if skill.type != "knowledge" or skill.name in already or not skill.content.strip():
            continue
        keyword = skill.match(text)
        if keyword is not None:
            fired.append((_invoked(skill, text), keyword))
    return fired


def _invoked(skill: Skill, text: str) -> Skill:
    """The skill as `/name the rest` runs it in Claude Code: its `$ARGUMENTS`, `$0` and declared
    `$name` are the rest (arguments.py). The rest is in the message already, so a skill without
    placeholders is left as it is."""
    style = skill.arguments
    if style is None or not style.has_placeholder(skill.content):
        return skill
    stripped = text.lstrip()
    for command in skill.commands():
        head, rest = stripped[: len(command)], stripped[len(command) :]
        if head.lower() == command.lower() and (not rest or rest[0].isspace()):
            return skill.model_copy(update={"content": style.fill(skill.content, rest, append=False)})
    return skill


def extra_info_block(skill: Skill, keyword: str, workspace: Path | None = None) -> str:
    return (
        "<EXTRA_INFO>\n"
        f'The following information has been included based on a keyword match for "{keyword}".\n'
        "It may or may not be relevant to the user's request.\n\n"
        f"{skill_text(skill, workspace)}\n"
        "</EXTRA_INFO>"
    )
