"""Skills (microagents): markdown knowledge an agent gets always, when a trigger appears, or
when it asks for it.

One model serves both ways skills are written: as files (OpenHands microagents, Agent Skills
`SKILL.md`, instruction files; see `loader.py`) and in strategy code. Strategy code may use
this project's fields (`type`, `triggers`) or the OpenHands SDK's (`trigger=KeywordTrigger(...)`,
`trigger=TaskTrigger(...)`, `trigger=None`); both end up as the same `type` and `triggers`.
"""

from __future__ import annotations

import re
from typing import Any, Literal

from pydantic import Field, PrivateAttr, model_validator

from openhands_tui.sdk.context.arguments import ArgumentStyle
from openhands_tui.sdk.model import StrictModel

SkillType = Literal["repo", "knowledge", "task"]
#: `${name}` (this project's and the SDK's) and `{{ name }}` (OpenHands task microagents).
_VARIABLE = re.compile(r"\$\{([A-Za-z_][A-Za-z0-9_]*)\}|\{\{\s*([A-Za-z_][A-Za-z0-9_]*)\s*\}\}")
#: What can follow `/` as a command: `/review`, `/fix_issue`, `/git:commit` (Gemini CLI's
#: namespaced commands). A name with spaces cannot be typed as one word, so is no command.
COMMAND_NAME = r"[A-Za-z0-9][\w.:-]*"
_COMMAND = re.compile(rf"/{COMMAND_NAME}")


class KeywordTrigger(StrictModel):
    """The SDK's trigger for a knowledge skill: fires when a keyword appears in a message."""

    type: Literal["keyword"] = "keyword"
    keywords: list[str] = Field(description="Words or phrases (whole words, any case) that fire the skill.")


class TaskTrigger(StrictModel):
    """The SDK's trigger for a task skill: `/name` at the start of a message runs it."""

    type: Literal["task"] = "task"
    triggers: list[str] = Field(description="Commands that run the task, e.g. ['/fix_issue'].")


class SkillInput(StrictModel):
    """An input a task skill asks for (`--input name=value`, or a form in the app)."""

    name: str = Field(description="The placeholder it fills: `${name}` or `{{ name }}` in the content.")
    description: str = Field(default="", description="What to give, shown when it is missing.")


#: The SDK's name for SkillInput.
InputMetadata = SkillInput


class Skill(StrictModel):
    """One microagent or skill.

    - `repo`: always on; its content goes into the first message of every agent.
    - `knowledge`: fires when one of `triggers` appears in a message (a whole word, any case;
      a slash trigger like `/codereview` fires at the start of a message too).
    - `task`: `/name` at the start of a message runs its content as the task, with `inputs`.

    Skills loaded from an Agent Skills `SKILL.md` (`agent_skill`) are listed to every agent by
    name, description and directory, and their body is loaded only when a trigger fires or the
    agent asks for it.
    """

    sdk_instead = {
        "resources": "resources are found on disk: give `directory` (the folder holding scripts/, references/)",
        "disable_model_invocation": "every listed skill can be loaded by the agent; leave it out",
    }

    name: str = Field(description="Unique name; the first skill of a name wins (later ones are reported shadowed).")
    content: str = Field(description="The markdown the agent is given.")
    type: SkillType = Field(default="repo", description="repo (always on), knowledge (triggered) or task (/name).")
    triggers: list[str] = Field(default_factory=list, description="Keywords (knowledge) or commands (task).")
    trigger: KeywordTrigger | TaskTrigger | None = Field(
        default=None,
        description="The SDK's way to say the same: KeywordTrigger, TaskTrigger, or None for always on.",
    )
    inputs: list[SkillInput] = Field(default_factory=list, description="What a task asks for; makes it a task.")
    description: str = Field(default="", description="One or two sentences: what it is for and when to use it.")
    source: str = Field(default="strategy", description="The file it came from, or 'strategy'.")
    #: Where it came from, in loading order: strategy, workspace, user, builtin.
    origin: str = Field(default="strategy", description="strategy, workspace, user or builtin.")
    truncated: bool = Field(default=False, description="Its content was cut to the size limit.")
    agent_skill: bool = Field(
        default=False, description="Loaded from an Agent Skills SKILL.md: listed, body loaded on demand."
    )
    directory: str | None = Field(
        default=None, description="The skill's folder: relative paths in its content (scripts/x.py) resolve here."
    )
    mcp_tools: dict[str, Any] | None = Field(
        default=None, description="MCP servers the skill declares (OpenHands `mcp_tools` frontmatter)."
    )
    license: str | None = Field(default=None, description="Agent Skills `license` (informational).")
    compatibility: str | None = Field(default=None, description="Agent Skills `compatibility` (informational).")
    metadata: dict[str, Any] | None = Field(default=None, description="Agent Skills `metadata` (informational).")
    allowed_tools: list[str] | None = Field(default=None, description="Agent Skills `allowed-tools` (informational).")
    #: How a command or skill written for another tool takes what the user wrote after `/name`
    #: (Claude Code's `$ARGUMENTS` and `$0`, Gemini CLI's `{{args}}`: arguments.py). Such a file's
    #: `${HOME}` is its shell's and `{{x}}` its template's, not inputs to ask for. Set by the loader.
    _arguments: ArgumentStyle | None = PrivateAttr(default=None)

    @model_validator(mode="before")
    @classmethod
    def _sdk_nones(cls, data: Any) -> Any:
        """The SDK passes `source=None` and `description=None` for skills made in code."""
        if isinstance(data, dict):
            data = dict(data)
            for key, default in (("source", "strategy"), ("description", "")):
                if key in data and data[key] is None:
                    data[key] = default
            if isinstance(data.get("allowed_tools"), str):
                data["allowed_tools"] = tool_list(data["allowed_tools"])
        return data

    @model_validator(mode="after")
    def _settle_type(self) -> Skill:
        explicit = "type" in self.model_fields_set
        if isinstance(self.trigger, KeywordTrigger):
            self._check_type(explicit, "knowledge")
            self.type = "knowledge"
            self.triggers = _unique([*self.triggers, *self.trigger.keywords])
        elif isinstance(self.trigger, TaskTrigger):
            self._check_type(explicit, "task")
            self.type = "task"
            self.triggers = _unique([*self.triggers, *self.trigger.triggers])
        elif not explicit and self.inputs:
            self.type = "task"  # OpenHands: a file with `inputs` is a task
        elif self.triggers and self.type == "repo" and not explicit:
            self.type = "knowledge"
        if self.type == "task" and f"/{self.name}" not in self.triggers:
            self.triggers = [*self.triggers, f"/{self.name}"]
        return self

    def _check_type(self, explicit: bool, wanted: str) -> None:
        if explicit and self.type != wanted:
            raise ValueError(f"type={self.type!r} contradicts trigger={type(self.trigger).__name__}")

    @property
    def tokens(self) -> int:
        """A size estimate in tokens (about four characters each), for budgets and panels."""
        return max(1, (len(self.content) + 3) // 4) if self.content else 0

    @property
    def mcp_servers(self) -> list[str]:
        """Names of the MCP servers in `mcp_tools` (OpenHands' `stdio_servers`/`sse_servers`
        lists, or an MCP config's `mcpServers` map)."""
        config = self.mcp_tools or {}
        names: list[str] = []
        servers = config.get("mcpServers")
        if isinstance(servers, dict):
            names += [str(name) for name in servers]
        for key, value in config.items():
            if key.endswith("_servers") and isinstance(value, list):
                for i, server in enumerate(value):
                    if isinstance(server, dict):
                        names.append(str(server.get("name") or server.get("url") or f"{key}[{i}]"))
                    else:
                        names.append(str(server))
        return names

    @property
    def mcp_only(self) -> bool:
        """It declares MCP tools and says nothing else: nothing to add to any message."""
        return bool(self.mcp_tools) and not self.content.strip()

    def commands(self) -> list[str]:
        """The `/name` commands that run this skill, as typed: a task's, and a knowledge skill's
        slash triggers (`/codereview`, or an Agent Skill's `/name`). The one list of what `/`
        may start: the engine runs these, and the app offers them."""
        if self.type == "repo":
            return []
        return _unique([t for t in self.triggers if _COMMAND.fullmatch(t)])

    @property
    def arguments(self) -> ArgumentStyle | None:
        """How the text after `/name` fills this file's placeholders (its tool's way), or None."""
        return self._arguments

    def takes_arguments(self, style: ArgumentStyle) -> Skill:
        """This skill, marked as written for a tool that fills the text after `/name` `style`'s way."""
        self._arguments = style
        return self

    def variables(self) -> list[str]:
        """Every input a task template needs, declared or used as `${name}`/`{{ name }}`, in order
        (for a command written for another tool, only the declared ones)."""
        names = [i.name for i in self.inputs]
        if self._arguments is not None:
            return names
        for match in _VARIABLE.finditer(self.content):
            name = match.group(1) or match.group(2)
            if name not in names:
                names.append(name)
        return names

    def render(self, values: dict[str, str]) -> str:
        """The content with `${name}` and `{{ name }}` replaced; unknown ones are left as written."""

        declared = {i.name for i in self.inputs} if self._arguments is not None else None

        def fill(match: re.Match[str]) -> str:
            name = match.group(1) or match.group(2)
            if declared is not None and name not in declared:
                return match.group(0)  # another tool's command: `${HOME}` is its shell's
            return values.get(name, match.group(0))

        return _VARIABLE.sub(fill, self.content)

    def info(self) -> dict[str, object]:
        """What `microagents_loaded` and `tui microagents` report about it."""
        info: dict[str, object] = {
            "name": self.name,
            "type": self.type,
            "triggers": self.triggers,
            "inputs": [i.model_dump() for i in self.inputs],
            "variables": self.variables() if self.type == "task" else [],
            "commands": self.commands(),
            "source": self.source,
            "origin": self.origin,
            "tokens": self.tokens,
            "truncated": self.truncated,
            "description": self.description,
            "agent_skill": self.agent_skill,
        }
        if self.directory:
            info["directory"] = self.directory
        if self.mcp_tools:
            info["mcp_servers"] = self.mcp_servers
            info["mcp_only"] = self.mcp_only
        return info

    def match(self, text: str) -> str | None:
        """The first trigger found in `text` as a whole word (case-insensitive), or None."""
        for trigger in self.triggers:
            if _trigger_pattern(trigger).search(text):
                return trigger
        return None


def tool_list(text: str) -> list[str]:
    """`allowed-tools` as Claude Code writes it: `Read, Grep, Bash(git add:*)` or `Read Grep`;
    commas and spaces separate tools except inside a tool's parentheses."""
    tools: list[str] = []
    current, depth = "", 0
    for char in text:
        depth += (char == "(") - (char == ")")
        if depth <= 0 and (char == "," or char.isspace()):
            depth = 0
            if current:
                tools.append(current)
            current = ""
        else:
            current += char
    if current:
        tools.append(current)
    return tools


def _unique(items: list[str]) -> list[str]:
    return list(dict.fromkeys(items))


_PATTERNS: dict[str, re.Pattern[str]] = {}


def _trigger_pattern(trigger: str) -> re.Pattern[str]:
    pattern = _PATTERNS.get(trigger)
    if pattern is None:
        # "Whole word" means not glued to other word characters; triggers may hold
        # punctuation ("c++", ".env", "/codereview"), so \b alone is not enough.
        pattern = re.compile(rf"(?<![\w]){re.escape(trigger)}(?![\w])", re.IGNORECASE)
        _PATTERNS[trigger] = pattern
    return pattern
