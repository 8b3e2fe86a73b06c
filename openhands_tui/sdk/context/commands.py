"""Claude Code's project commands (`.claude/commands/*.md`) as task microagents.

`.claude/commands/review.md` makes `/review` in Claude Code, and many repositories ship a few;
here `/review` runs it the same way: the file's body is the task, `$ARGUMENTS` is what the user
wrote after the command, and the `description` is shown where tasks
are listed. A body's `` !`git diff` `` lines, which Claude Code runs before sending, stay text:
nothing in a repository's file runs without the agent's own, confirmed, command.
"""

from __future__ import annotations

import re
from pathlib import Path

from openhands_tui.sdk.context.files import load_file, parse_header, split_frontmatter
from openhands_tui.sdk.context.rules import loaded_text, rule_files
from openhands_tui.sdk.context.skill import Skill

CLAUDE_COMMANDS_DIR = ".claude/commands"
_NAME = re.compile(r"[^A-Za-z0-9_.-]+")


def claude_commands(root: Path, origin: str, warnings: list[str]) -> list[Skill]:
    """The commands of a repository, each a task named after its file (`frontend/build.md` is
    `/build`, as in Claude Code)."""
    directory = root / CLAUDE_COMMANDS_DIR
    skills = []
    for path in rule_files(directory, root, (".md",), warnings):
        if path.name.lower() == "readme.md":
            continue
        name = _NAME.sub("-", path.stem).strip("-") or "command"
        loaded = load_file(path, origin, warnings, default_name=name, instructions=True)
        if loaded is None:
            continue
        header, _ = split_frontmatter(loaded_text(path))
        metadata = (parse_header(header)[0] or {}) if header is not None else {}
        description = metadata.get("description")
        update = {"type": "task", "triggers": [f"/{name}"], "name": name}
        if isinstance(description, str):
            update["description"] = " ".join(description.split())
        command = Skill.model_validate({**loaded.model_dump(exclude={"trigger"}), **update})
        skills.append(command.takes_arguments("$ARGUMENTS"))
    return skills


def fill_arguments(text: str, rest: str, placeholder: str = "$ARGUMENTS") -> str | None:
    """`text` with `placeholder` (Claude Code's `$ARGUMENTS`, Gemini CLI's `{{args}}`) replaced
    by `rest`, or None when it has none (the rest is then added after it, as for any task).
    `$1`-style words are left alone: a command's `awk '{print $1}'` means awk's."""
    if placeholder not in text:
        return None
    return text.replace(placeholder, rest.strip())
