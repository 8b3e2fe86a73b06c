"""Skills (microagents): markdown knowledge an agent gets always, or when a trigger word appears."""

from __future__ import annotations

import re
from typing import Literal

from pydantic import Field, model_validator

from openhands_tui.sdk.model import Model

SkillType = Literal["repo", "knowledge", "task"]
_VARIABLE = re.compile(r"\$\{([A-Za-z_][A-Za-z0-9_]*)\}")


class SkillInput(Model):
    name: str
    description: str = ""


class Skill(Model):
    """One microagent. `repo` skills are always on; `knowledge` skills fire on `triggers`;
    `task` skills run when the user types `/name`."""

    name: str
    content: str
    type: SkillType = "repo"
    triggers: list[str] = Field(default_factory=list)
    inputs: list[SkillInput] = Field(default_factory=list)
    description: str = ""
    source: str = "strategy"
    #: Where it came from, in loading order: strategy, workspace, user, builtin.
    origin: str = "strategy"
    truncated: bool = False

    @model_validator(mode="after")
    def _settle_type(self) -> Skill:
        if self.triggers and self.type == "repo" and "type" not in self.model_fields_set:
            self.type = "knowledge"
        if self.type == "task" and not self.triggers:
            self.triggers = [f"/{self.name}"]
        return self

    @property
    def tokens(self) -> int:
        """A size estimate in tokens (about four characters each), for budgets and panels."""
        return max(1, (len(self.content) + 3) // 4)

    def variables(self) -> list[str]:
        """Every input a task template needs, declared or used as `${name}`, in order."""
        names = [i.name for i in self.inputs]
        names += [v for v in _VARIABLE.findall(self.content) if v not in names]
        return names

    def info(self) -> dict[str, object]:
        """What `microagents_loaded` and `tui microagents` report about it."""
        return {
            "name": self.name,
            "type": self.type,
            "triggers": self.triggers,
            "inputs": [i.model_dump() for i in self.inputs],
            "variables": self.variables() if self.type == "task" else [],
            "source": self.source,
            "origin": self.origin,
            "tokens": self.tokens,
            "truncated": self.truncated,
            "description": self.description,
        }

    def match(self, text: str) -> str | None:
        """The first trigger found in `text` as a whole word (case-insensitive), or None."""
        for trigger in self.triggers:
            if _trigger_pattern(trigger).search(text):
                return trigger
        return None


_PATTERNS: dict[str, re.Pattern[str]] = {}


def _trigger_pattern(trigger: str) -> re.Pattern[str]:
    pattern = _PATTERNS.get(trigger)
    if pattern is None:
        # "Whole word" means not glued to other word characters; triggers may hold
        # punctuation ("c++", ".env"), so \b alone is not enough.
        pattern = re.compile(rf"(?<![\w]){re.escape(trigger)}(?![\w])", re.IGNORECASE)
        _PATTERNS[trigger] = pattern
    return pattern
