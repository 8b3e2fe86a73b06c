"""Gemini CLI's project commands (`.gemini/commands/*.toml`) as task microagents.

`.gemini/commands/review.toml` makes `/review` in Gemini CLI, and `git/commit.toml` makes
`/git:commit`; here they run the same way: the file's `prompt` is the task, `{{args}}` is what
the user wrote after the command (without it, that text is added after the prompt), and the
`description` is shown where tasks are listed. A prompt's `!{git diff}` and `@{path}`, which
Gemini CLI runs or reads before sending, stay text: nothing in a repository's file runs
without the agent's own, confirmed, command.
"""

from __future__ import annotations

import re
from pathlib import Path

from openhands_tui.sdk.context.arguments import GEMINI
from openhands_tui.sdk.context.files import MAX_CONTENT_CHARS, read_source
from openhands_tui.sdk.context.rules import rule_files
from openhands_tui.sdk.context.skill import Skill
from openhands_tui.sdk.files.toml_file import TomlFileError, parse_toml

GEMINI_COMMANDS_DIR = ".gemini/commands"
#: Qwen Code, a fork of Gemini CLI, reads the same TOML files from its own folder.
TOML_COMMAND_DIRS = (GEMINI_COMMANDS_DIR, ".qwen/commands")
_NAME = re.compile(r"[^A-Za-z0-9_.-]+")


def gemini_commands(root: Path, origin: str, warnings: list[str]) -> list[Skill]:
    """The commands of a repository (or, `origin` "user", of the user's home), each a task named
    after its path (`git/commit.toml` is `/git:commit`, as in Gemini CLI)."""
    skills = []
    confine = Path(root.anchor) if origin == "user" else root  # the user's own may link anywhere
    for directory in (root / relative for relative in TOML_COMMAND_DIRS):
        for path in rule_files(directory, confine, (".toml",), warnings):
            parts = [_NAME.sub("-", part).strip("-") for part in path.relative_to(directory).with_suffix("").parts]
            name = ":".join(part for part in parts if part) or "command"
            skill = _command(path, name, origin, warnings)
            if skill is not None:
                skills.append(skill)
    return skills


def _command(path: Path, name: str, origin: str, warnings: list[str]) -> Skill | None:
    text = read_source(path, origin, warnings)
    if text is None:
        return None
    try:
        data = parse_toml(text, path)  # read as every microagent file is; parsed as every TOML file is
    except TomlFileError as exc:
        warnings.append(f"{path}: skipped, not valid TOML ({exc.problem})")
        return None
    prompt, description = data.get("prompt"), data.get("description")
    if not isinstance(prompt, str) or not prompt.strip():
        warnings.append(f"{path}: skipped, a Gemini CLI command needs a `prompt` string")
        return None
    prompt = prompt.strip()
    truncated = len(prompt) > MAX_CONTENT_CHARS
    if truncated:
        prompt = prompt[:MAX_CONTENT_CHARS] + f"\n\n[... truncated: {path.name} is longer ...]"
    skill = Skill(
        name=name,
        content=prompt,
        type="task",
        triggers=[f"/{name}"],
        description=" ".join(description.split()) if isinstance(description, str) else "",
        source=str(path),
        origin=origin,
        truncated=truncated,
    )
    return skill.takes_arguments(GEMINI)
