"""Task microagents: `/name` at the start of a message runs a template with `${inputs}`."""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

from openhands_tui.sdk.context.loader import LoadedMicroagents
from openhands_tui.sdk.context.skill import Skill
from openhands_tui.sdk.errors import OpenHandsTUIError

_COMMAND = re.compile(r"^/([A-Za-z0-9][\w.-]*)(?:\s+(.*))?$", re.DOTALL)
_VARIABLE = re.compile(r"\$\{([A-Za-z_][A-Za-z0-9_]*)\}")


class TaskInputError(OpenHandsTUIError):
    """A `/name` command that cannot run: unknown task, or inputs missing."""


@dataclass
class TaskCommand:
    skill: Skill
    rest: str  # text the user wrote after `/name`

    @property
    def variables(self) -> list[str]:
        """Every input the template needs, declared or used, in order."""
        return self.skill.variables()

    def missing(self, inputs: dict[str, str]) -> list[str]:
        return [name for name in self.variables if name not in inputs]

    def render(self, inputs: dict[str, str]) -> str:
        missing = self.missing(inputs)
        if missing:
            flags = " ".join(f"--input {name}=..." for name in missing)
            raise TaskInputError(f"/{self.skill.name} needs input {', '.join(missing)} (give {flags})")
        text = _VARIABLE.sub(lambda m: inputs.get(m.group(1), m.group(0)), self.skill.content)
        return f"{text}\n\n{self.rest.strip()}" if self.rest.strip() else text


def find_task_command(text: str, microagents: LoadedMicroagents) -> TaskCommand | None:
    """The task microagent `text` invokes, or None when it is an ordinary message.

    `/name` naming no task microagent is an error (a typo should not be sent to the model as
    a task) unless it is really a path that exists, like `/tmp is full`."""
    match = _COMMAND.match(text.strip())
    if match is None:
        return None
    name, rest = match.group(1), match.group(2) or ""
    for skill in microagents.tasks():
        if skill.name == name or f"/{name}" in skill.triggers:
            return TaskCommand(skill, rest)
    if Path(f"/{name}").exists():
        return None
    available = ", ".join(f"/{s.name}" for s in microagents.tasks()) or "none are loaded"
    raise TaskInputError(f"/{name}: no task microagent by that name (available: {available})")


def parse_inputs(flags: list[str]) -> dict[str, str]:
    inputs = {}
    for flag in flags:
        name, sep, value = flag.partition("=")
        if not sep or not name.strip():
            raise TaskInputError(f"--input {flag!r}: expected name=value")
        inputs[name.strip()] = value
    return inputs
