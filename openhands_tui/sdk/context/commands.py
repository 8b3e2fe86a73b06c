"""Other tools' project commands, markdown files each run by `/name`, as task microagents.

`.claude/commands/review.md` makes `/review` in Claude Code, and Cursor (`.cursor/commands/`),
opencode (`.opencode/commands/`), Windsurf (`.windsurf/workflows/`), Qwen Code
(`.qwen/commands/`), Amp (`.agents/commands/`) and VS Code's Copilot
(`.github/prompts/*.prompt.md`) keep theirs the same way; here `/review` runs it as its tool
does: the file's body is the task, the text after the command fills the tool's placeholders
(`$ARGUMENTS`, `$0` or `$1`, `$name`: arguments.py) or follows the body, Copilot's
`${input:name:hint}` is an input asked for like any task's, a line holding only `@path` is that
file of the project (a Cursor command that is `@.claude/commands/review.md`), and the
`description` is shown where tasks are listed. A body's
`` !`git diff` `` lines, which Claude Code runs before sending, stay text: nothing in a
repository's file runs without the agent's own, confirmed, command.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from openhands_tui.sdk.context.arguments import APPEND, CLAUDE, CODEX, OPENCODE, QWEN, ArgumentStyle, argument_names
from openhands_tui.sdk.context.files import load_file, parse_header, split_frontmatter
from openhands_tui.sdk.context.imports import expand_imports
from openhands_tui.sdk.context.rules import loaded_text, rule_files
from openhands_tui.sdk.context.skill import Skill

_NAME = re.compile(r"[^A-Za-z0-9_.-]+")
#: VS Code's `${input:topic}` and `${input:topic:What to write about}`.
_COPILOT_INPUT = re.compile(r"\$\{input:([A-Za-z_][A-Za-z0-9_]*)(?::([^}]*))?\}")


@dataclass(frozen=True)
class CommandFolder:
    """Where a tool keeps a project's commands, and how it reads them."""

    directory: str
    suffix: str
    #: How the text after `/name` reaches the body: the tool's placeholders, or after it.
    arguments: ArgumentStyle
    #: Whether a `name:` in the frontmatter names the command (else the file's name does).
    named_inside: bool = False
    #: Whether `${input:name:hint}` asks for an input (VS Code's prompt files).
    asks_inputs: bool = False
    #: Whether a subfolder is part of the name (`team/review.md` is `/team:review`).
    namespaced: bool = False
    #: Before every name (Codex runs `~/.codex/prompts/review.md` as `/prompts:review`).
    prefix: str = ""
    #: Only the files right in the folder count (Codex reads no subfolder of its prompts).
    flat: bool = False


FOLDERS = (
    CommandFolder(".claude/commands", ".md", CLAUDE),
    CommandFolder(".opencode/commands", ".md", OPENCODE),
    CommandFolder(".opencode/command", ".md", OPENCODE),  # opencode's older spelling
    CommandFolder(".cursor/commands", ".md", APPEND),
    CommandFolder(".windsurf/workflows", ".md", APPEND),  # Windsurf's workflows, run by `/name` only
    CommandFolder(".qwen/commands", ".md", QWEN, namespaced=True),
    CommandFolder(".agents/commands", ".md", APPEND),  # Amp's (its executable commands are never run)
    CommandFolder(".github/prompts", ".prompt.md", APPEND, named_inside=True, asks_inputs=True),
)
#: The user's own commands, in every project: where each tool keeps them in the home folder.
USER_FOLDERS = (
    CommandFolder(".claude/commands", ".md", CLAUDE),
    CommandFolder(".config/opencode/commands", ".md", OPENCODE),
    CommandFolder(".cursor/commands", ".md", APPEND),
    CommandFolder(".qwen/commands", ".md", QWEN, namespaced=True),
    CommandFolder(".codex/prompts", ".md", CODEX, prefix="prompts:", flat=True),
)
#: Claude Code's folder, the first of them, for the docs.
CLAUDE_COMMANDS_DIR = FOLDERS[0].directory


def project_commands(root: Path, origin: str, warnings: list[str]) -> list[Skill]:
    """The commands of a repository in every tool's folder, each a task named after its file
    (`frontend/build.md` is `/build`, as in Claude Code; a prompt file's `name:` wins)."""
    return [skill for folder in FOLDERS for skill in command_folder(root, folder, origin, warnings)]


def user_commands(home: Path, warnings: list[str]) -> list[Skill]:
    """The user's own commands (`~/.claude/commands/standup.md` is `/standup` everywhere). They
    are the user's, so they may link anywhere, and their `@path` lines are left to the agent."""
    return [skill for folder in USER_FOLDERS for skill in command_folder(home, folder, "user", warnings)]


def command_folder(root: Path, folder: CommandFolder, origin: str, warnings: list[str]) -> list[Skill]:
    """The commands in one of `root`'s command folders, read as `folder`'s tool reads them."""
    skills = []
    mine = origin == "user"
    for path in rule_files(root / folder.directory, Path(root.anchor) if mine else root, (folder.suffix,), warnings):
        if path.name.lower() == "readme.md" or (folder.flat and path.parent != root / folder.directory):
            continue
        stem = path.name[: -len(folder.suffix)]
        if folder.namespaced:
            stem = ":".join((*path.parent.relative_to(root / folder.directory).parts, stem))
        loaded = load_file(path, origin, warnings, default_name=stem, instructions=True)
        if loaded is None:
            continue
        header, _ = split_frontmatter(loaded_text(path))
        metadata: dict[str, Any] = (parse_header(header)[0] or {}) if header is not None else {}
        named = metadata.get("name") if folder.named_inside else None
        given = folder.prefix + (named if isinstance(named, str) and named.strip() else stem)
        name = ":".join(_NAME.sub("-", part).strip("-") for part in given.split(":")).strip(":-") or "command"
        body = loaded.content if mine else expand_imports(loaded.content, path, root, set(), warnings, base=root)
        content, inputs = _inputs(body) if folder.asks_inputs else (body, [])
        update: dict[str, Any] = {"type": "task", "triggers": [f"/{name}"], "name": name, "content": content}
        update["inputs"] = inputs
        description = metadata.get("description")
        if isinstance(description, str):
            update["description"] = " ".join(description.split())
        command = Skill.model_validate({**loaded.model_dump(exclude={"trigger"}), **update})
        style = folder.arguments
        if style is CLAUDE and (names := argument_names(metadata.get("arguments"))):
            style = style.with_names(names)
        skills.append(command.takes_arguments(style))
    return skills


def _inputs(body: str) -> tuple[str, list[dict[str, str]]]:
    """A prompt file's `${input:name:hint}` as this project's `${name}` with an input that says
    the hint, so a missing one is asked for (VS Code asks too); other bodies are unchanged."""
    inputs: dict[str, str] = {}

    def named(match: re.Match[str]) -> str:
        name, hint = match.group(1), (match.group(2) or "").strip()
        if hint or name not in inputs:
            inputs[name] = hint or inputs.get(name, "")
        return "${" + name + "}"

    content = _COPILOT_INPUT.sub(named, body)
    return content, [{"name": name, "description": hint} for name, hint in inputs.items()]
