"""Hook configuration: the format Claude Code and OpenHands share, as typed models.

`{"hooks": {"PreToolUse": [{"matcher": "Bash", "hooks": [{"type": "command", "command": "...",
"timeout": 60}]}]}}` — or the same without the `hooks` wrapper, or with the SDK's snake_case
keys (`pre_tool_use`). A strategy builds a `HookConfig` in code (the SDK's `HookConfig`,
`HookMatcher`, `HookDefinition`), where a hook may also be a Python callback.

Which events exist, and what their matcher is matched against, is one table (`EVENTS`).
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass
from enum import StrEnum
from typing import Any, Literal

from pydantic import Field, PrivateAttr, field_validator, model_validator

from openhands_tui.sdk.model import StrictModel, UnsupportedArgument


@dataclass(frozen=True)
class HookEventSpec:
    """One hook event: its name in files, its field in `HookConfig`, and what its matcher matches."""

    name: str
    field: str
    #: "tool": the tool's name; "source"/"trigger"/"notification": that field of the input;
    #: None: the event has no matcher (every hook of it runs).
    matches: Literal["tool", "source", "trigger", "notification"] | None
    #: What blocking (exit 2, or a `decision`) does here; "" if it cannot block.
    blocks: str


EVENTS: tuple[HookEventSpec, ...] = (
    HookEventSpec("PreToolUse", "pre_tool_use", "tool", "the call is refused; the model reads the reason"),
    HookEventSpec("PostToolUse", "post_tool_use", "tool", "the reason is added to the result the model reads"),
    HookEventSpec("UserPromptSubmit", "user_prompt_submit", None, "the prompt is not sent; the user reads why"),
    HookEventSpec("Stop", "stop", None, "the agent goes on, told the reason (once per user message)"),
    HookEventSpec("SubagentStop", "subagent_stop", None, "the sub-agent goes on, told the reason (once per task)"),
    HookEventSpec("SessionStart", "session_start", "source", ""),
    HookEventSpec("SessionEnd", "session_end", None, ""),
    HookEventSpec("PreCompact", "pre_compact", "trigger", ""),
    HookEventSpec("Notification", "notification", "notification", ""),
)
EVENT_BY_NAME = {spec.name: spec for spec in EVENTS}
EVENT_BY_FIELD = {spec.field: spec for spec in EVENTS}

#: Events other tools have that are not run here: read without error, said once.
KNOWN_ELSEWHERE = frozenset(
    {"PermissionRequest", "PostToolUseFailure", "SubagentStart", "PreToolUseFailure", "Setup", "ConfigChange"}
)


class HookType(StrEnum):
    COMMAND = "command"
    CALLBACK = "callback"


#: A Python hook: given the input as a `HookEvent` (its `payload` is the JSON a command reads),
#: returns a dict in the hook output format, a `HookResult`, or None ("nothing to say"); may be async.
HookCallback = Callable[[Any], Any]


class HookDefinition(StrictModel):
    """One hook: a shell command (run as the user, outside the sandbox) or a Python callback."""

    sdk_instead = {
        "prompt": "prompt hooks (a model judging the event) are not supported; use a command or a callback",
        "system_prompt": "prompt hooks are not supported; use a command or a callback",
        "tools": "agent hooks are not supported; use a command or a callback",
        "max_iterations": "agent hooks are not supported; use a command or a callback",
    }

    type: HookType = HookType.COMMAND
    name: str | None = Field(default=None, description="Shown in the transcript instead of the command.")
    command: str = Field(default="", description="Run with bash in the workspace; the input JSON on stdin.")
    callback: HookCallback | None = Field(default=None, exclude=True, description="A Python hook (type callback).")
    timeout: float = Field(default=60, gt=0, le=3600, description="Seconds before the hook is stopped.")
    async_: bool = Field(
        default=False, alias="async", description="Run in the background; its answer is not waited for."
    )
    status_message: str | None = Field(default=None, alias="statusMessage")

    @model_validator(mode="before")
    @classmethod
    def _callback_means_callback(cls, data: Any) -> Any:
        if isinstance(data, dict) and data.get("callback") is not None and "type" not in data:
            data = {**data, "type": HookType.CALLBACK}
        if isinstance(data, dict) and data.get("type") in ("prompt", "agent"):
            raise UnsupportedArgument(
                f"HookDefinition(type={data['type']!r}) is not supported by openhands_tui: "
                "use type 'command' (a shell command) or a Python callback"
            )
        return data

    @model_validator(mode="after")
    def _has_something_to_run(self) -> HookDefinition:
        if self.type is HookType.COMMAND and not self.command.strip():
            raise UnsupportedArgument("HookDefinition(type='command') needs a command")
        if self.type is HookType.CALLBACK and self.callback is None:
            raise UnsupportedArgument("HookDefinition(type='callback') needs callback=<a function>")
        return self

    def label(self) -> str:
        if self.name:
            return self.name
        if self.type is HookType.CALLBACK:
            return getattr(self.callback, "__qualname__", "a Python callback")
        return self.command


class HookMatcher(StrictModel):
    """Hooks for the events whose tool (or source, trigger...) the matcher matches: `*` or empty
    for all, an exact name, or a regular expression (`Edit|Write`, `mcp__github__.*`, `/re/`)."""

    matcher: str = "*"
    hooks: list[HookDefinition] = Field(default_factory=list)
    _pattern: re.Pattern[str] | None = PrivateAttr(default=None)

    @field_validator("matcher", mode="before")
    @classmethod
    def _none_is_all(cls, value: Any) -> Any:
        return "*" if value is None else value

    @model_validator(mode="after")
    def _compile(self) -> HookMatcher:
        text = self.matcher.strip()
        if text in ("", "*"):
            return self
        if len(text) > 2 and text.startswith("/") and text.endswith("/"):
            text = text[1:-1]
        try:
            self._pattern = re.compile(text)
        except re.error as exc:
            raise UnsupportedArgument(f"matcher {self.matcher!r} is not a valid regular expression ({exc})") from None
        return self

    def matches(self, names: tuple[str, ...]) -> bool:
        """Whether any of `names` (a tool's own name and its Claude Code name) is matched."""
        if self._pattern is None:
            return True
        return any(self._pattern.fullmatch(name) for name in names)


class HookConfig(StrictModel):
    """Every hook, by event. Accepts `{"hooks": {...}}`, PascalCase event names and snake_case."""

    pre_tool_use: list[HookMatcher] = Field(default_factory=list)
    post_tool_use: list[HookMatcher] = Field(default_factory=list)
    user_prompt_submit: list[HookMatcher] = Field(default_factory=list)
    stop: list[HookMatcher] = Field(default_factory=list)
    subagent_stop: list[HookMatcher] = Field(default_factory=list)
    session_start: list[HookMatcher] = Field(default_factory=list)
    session_end: list[HookMatcher] = Field(default_factory=list)
    pre_compact: list[HookMatcher] = Field(default_factory=list)
    notification: list[HookMatcher] = Field(default_factory=list)

    @model_validator(mode="before")
    @classmethod
    def _normalize(cls, data: Any) -> Any:
        if not isinstance(data, dict):
            return data
        if set(data) == {"hooks"} and isinstance(data["hooks"], dict):
            data = data["hooks"]
        normalized: dict[str, Any] = {}
        for key, value in data.items():
            spec = EVENT_BY_NAME.get(key) or EVENT_BY_FIELD.get(key)
            if spec is None:
                known = ", ".join(s.name for s in EVENTS)
                raise UnsupportedArgument(f"unknown hook event {key!r}; known: {known}")
            if spec.field in normalized:
                raise UnsupportedArgument(f"hook event {spec.name} is given twice")
            normalized[spec.field] = value
        return normalized

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> HookConfig:
        return cls.model_validate(data)

    def matchers(self, event: str) -> list[HookMatcher]:
        matchers: list[HookMatcher] = getattr(self, EVENT_BY_NAME[event].field)
        return matchers

    def is_empty(self) -> bool:
        return not any(self.matchers(spec.name) for spec in EVENTS)


def without_unsupported_events(data: dict[str, Any]) -> tuple[dict[str, Any], list[str]]:
    """A hooks mapping (wrapper removed) without the events other tools have and we do not run,
    and their names: a user's Claude Code settings with a `PermissionRequest` hook still load."""
    skipped = [key for key in data if key in KNOWN_ELSEWHERE]
    return {k: v for k, v in data.items() if k not in KNOWN_ELSEWHERE}, skipped
