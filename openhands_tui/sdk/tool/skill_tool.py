"""`skill {name, path?}`: read an Agent Skill the agent was told about, or one of its files.

Progressive disclosure, as the Agent Skills format intends: every agent's first message lists
the skills (name, description, folder) and the body costs nothing until the agent asks for it.
The engine offers this tool to any agent that has skills. `path` reads a file of the skill
(`references/forms.md`), resolved against the skill's folder and never outside it: a model
that asks for `../../.ssh/id_rsa` gets an error, whatever symlinks lie on the way.
"""

from __future__ import annotations

from pathlib import Path

from pydantic import Field

from openhands_tui.sdk.context.agent_context import skill_text
from openhands_tui.sdk.context.skill import Skill
from openhands_tui.sdk.facts.subject import OtherSubject, Subject
from openhands_tui.sdk.files.read import read_regular
from openhands_tui.sdk.security.files import credentials_reason
from openhands_tui.sdk.tool.context import SkillShelf
from openhands_tui.sdk.tool.definition import Action, Observation, ToolDefinition

MAX_FILE_CHARS = 24_000
MAX_LISTED = 200


class SkillAction(Action):
    name: str = Field(description="The skill's name, as listed under Skills in your first message.")
    path: str | None = Field(
        default=None,
        description=(
            "A file inside the skill's folder to read instead of its SKILL.md, relative to that folder "
            "(e.g. references/forms.md). A folder lists its files."
        ),
    )


class SkillTool(ToolDefinition[SkillAction]):
    name = "skill"
    description = (
        "Read one of your skills (listed under Skills in your first message): its instructions, or a "
        "file in its folder. Read a skill before doing a task it covers."
    )
    action_type = SkillAction
    concurrent = True
    reads_only = True

    def __init__(self, shelf: SkillShelf) -> None:
        self.shelf = shelf

    def subject(self, action: SkillAction) -> Subject:
        return OtherSubject(tool=self.name, changes=False)

    def summarize(self, action: SkillAction) -> str:
        return f"skill {action.name}" + (f" {action.path}" if action.path else "")

    async def run(self, action: SkillAction) -> Observation:
        available = self.shelf.available()
        skills = {s.name: s for s in available}
        skill = skills.get(action.name.strip()) or _by_other_name(available, action.name)
        if skill is None:
            return Observation(
                text=f"There is no skill named {action.name!r}. Skills: {', '.join(sorted(skills)) or 'none'}.",
                is_error=True,
            )
        if not action.path or action.path.strip() in (".", "SKILL.md", "skill.md"):
            self.shelf.opened(skill)
            return Observation(text=f"# Skill: {skill.name}\n\n{skill_text(skill)}")
        return _read_resource(skill, action.path.strip())


def _by_other_name(skills: list[Skill], asked: str) -> Skill | None:
    """A skill asked for by its name in another case or by its folder (the listing shows both:
    `Test-Driven Development` lives in test-driven-development/, and models ask for either);
    failing that, with or without a namespace, when only one skill fits: skills written for a
    plugin name each other `superpowers:writing-plans`, which its own repository loads as
    `writing-plans`, and a namespaced one (`cursor:sql`) is asked for as `sql`."""
    wanted = asked.strip().strip("/").lower()
    for skill in skills:
        folder = Path(skill.directory).name.lower() if skill.directory else None
        if skill.name.lower() == wanted or folder == wanted:
            return skill
    bare = _without_namespace(wanted)
    fitting = [skill for skill in skills if _without_namespace(skill.name.lower()) == bare]
    return fitting[0] if len(fitting) == 1 else None


def _without_namespace(name: str) -> str:
    return name.rpartition(":")[2]


def _read_resource(skill: Skill, relative: str) -> Observation:
    if not skill.directory:
        return Observation(text=f"{skill.name} has no folder; it has only its instructions.", is_error=True)
    root = Path(skill.directory).resolve()
    target = (root / relative).resolve()
    if target != root and root not in target.parents:
        return Observation(text=f"{relative!r} is outside the folder of {skill.name}; not read.", is_error=True)
    secret = credentials_reason(str(target), str(root))
    if secret is not None:  # `.agents/skills -> ..` makes the whole repository a skill's folder
        return Observation(text=f"{relative!r} is not read through a skill: {secret}.", is_error=True)
    if target.is_dir():
        files = sorted(str(p.relative_to(root)) for p in target.rglob("*") if p.is_file())
        shown = "\n".join(files[:MAX_LISTED]) + (
            f"\n... {len(files) - MAX_LISTED} more" if len(files) > MAX_LISTED else ""
        )
        return Observation(text=f"Files in {target.relative_to(root) if target != root else '.'}:\n{shown or '(none)'}")
    try:
        text = read_regular(target).decode("utf-8")
    except FileNotFoundError:
        return Observation(text=f"{relative!r} does not exist in the folder of {skill.name}.", is_error=True)
    except (OSError, UnicodeDecodeError) as exc:
        return Observation(text=f"{relative!r} cannot be read as text: {exc}", is_error=True)
    if len(text) > MAX_FILE_CHARS:
        text = text[:MAX_FILE_CHARS] + f"\n\n[... {len(text) - MAX_FILE_CHARS:,} more characters not shown ...]"
    return Observation(text=f"{target} (in skill {skill.name}):\n\n{text}")
