"""Task microagents: `/name` at the start of a message runs a template with its inputs.

A message starting with `/word` is one of three things: a task microagent (its content
becomes the message, placeholders filled), a knowledge microagent's slash trigger such as
`/codereview` (an ordinary message; the trigger fires the knowledge), or a typo, which is an
error rather than a message sent to the model (unless it is a path that exists, like `/tmp`).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

from openhands_tui.sdk.context.arguments import PLAIN
from openhands_tui.sdk.context.command_owners import command_owners
from openhands_tui.sdk.context.loader import LoadedMicroagents
from openhands_tui.sdk.context.skill import COMMAND_NAME, Skill
from openhands_tui.sdk.errors import OpenHandsTUIError

_MCP_PROMPT = re.compile(r"/[A-Za-z0-9_-]+:[^\s/]+(\s|$)")
_COMMAND = re.compile(rf"^/({COMMAND_NAME})(?:\s+(.*))?$", re.DOTALL)


class TaskInputError(OpenHandsTUIError):
    """A `/name` command that cannot run: unknown task, or inputs missing."""


@dataclass
class TaskCommand:
    skill: Skill
    rest: str  # text the user wrote after `/name`

    @property
    def variables(self) -> list[str]:
        """Every input the template needs, declared or used (`${x}`, `{{ x }}`), in order."""
        return self.skill.variables()

    def missing(self, inputs: dict[str, str]) -> list[str]:
        return [name for name in self.variables if name not in inputs]

    def render(self, inputs: dict[str, str]) -> str:
        missing = self.missing(inputs)
        if missing:
            flags = " ".join(f"--input {name}=..." for name in missing)
            raise TaskInputError(f"/{self.skill.name} needs input {', '.join(missing)} (give {flags})")
        return (self.skill.arguments or PLAIN).fill(self.skill.render(inputs), self.rest)


def find_task_command(text: str, microagents: LoadedMicroagents) -> TaskCommand | None:
    """The task microagent `text` invokes, or None when it is an ordinary message (or an MCP
    server's prompt, `/server:prompt`, which `sdk/run/mcp_turn.py` runs)."""
    match = _COMMAND.match(text.strip())
    if match is None:
        return None
    name, rest = match.group(1), match.group(2) or ""
    command = f"/{name}".lower()
    owners = command_owners(name, microagents.tasks())  # one named so first: sdk/context/command_owners.py
    if owners:
        return TaskCommand(owners[0], rest)
    if slash_knowledge(command, microagents.skills):
        return None  # `/codereview`: a knowledge trigger, fired by the message itself
    if Path(f"/{name}").exists() or _MCP_PROMPT.match(text.strip()):
        return None
    commands = {c for s in microagents.skills for c in s.commands()}
    available = ", ".join(sorted(commands)) or "none are loaded"
    raise TaskInputError(f"/{name}: no task microagent by that name (available: {available})")


def slash_knowledge(command: str, skills: list[Skill]) -> list[Skill]:
    """Knowledge microagents that `command` (`/codereview`) triggers."""
    return [s for s in skills if s.type == "knowledge" and command.lower() in (c.lower() for c in s.commands())]


def parse_inputs(flags: list[str]) -> dict[str, str]:
    inputs = {}
    for flag in flags:
        name, sep, value = flag.partition("=")
        if not sep or not name.strip():
            raise TaskInputError(f"--input {flag!r}: expected name=value")
        inputs[name.strip()] = value
    return inputs
