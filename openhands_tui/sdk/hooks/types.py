"""The SDK's hook value types, for Python hooks written against it: a callback is given a
`HookEvent` and may return a `HookResult` (or a dict in the JSON output format, or None)."""

from __future__ import annotations

from enum import StrEnum
from typing import Any

from pydantic import ConfigDict, Field

from openhands_tui.sdk.model import Model


class HookEventType(StrEnum):
    PRE_TOOL_USE = "PreToolUse"
    POST_TOOL_USE = "PostToolUse"
    USER_PROMPT_SUBMIT = "UserPromptSubmit"
    SESSION_START = "SessionStart"
    SESSION_END = "SessionEnd"
    STOP = "Stop"
    SUBAGENT_STOP = "SubagentStop"
    PRE_COMPACT = "PreCompact"
    NOTIFICATION = "Notification"


class HookDecision(StrEnum):
    ALLOW = "allow"
    DENY = "deny"
    ASK = "ask"


class HookEvent(Model):
    """What a Python hook is given: the SDK's fields, and the whole JSON input as `payload`."""

    model_config = ConfigDict(defer_build=True, use_enum_values=True)

    event_type: HookEventType
    tool_name: str | None = None
    tool_input: dict[str, Any] | None = None
    tool_response: dict[str, Any] | None = None
    message: str | None = None
    session_id: str | None = None
    working_dir: str | None = None
    metadata: dict[str, Any] = Field(default_factory=dict)
    payload: dict[str, Any] = Field(default_factory=dict, description="The JSON a command hook reads on stdin.")


class HookResult(Model):
    """What a Python hook may return (the SDK's shape)."""

    success: bool = True
    blocked: bool = False
    decision: HookDecision | None = None
    reason: str | None = None
    additional_context: str | None = None
    error: str | None = None

    def as_output(self) -> dict[str, Any]:
        """The same answer in the JSON output format a command hook prints."""
        output: dict[str, Any] = {}
        if self.blocked and self.decision is None:
            output["decision"] = "deny"
        elif self.decision is not None:
            output["decision"] = str(self.decision)
        if self.reason:
            output["reason"] = self.reason
        if self.additional_context:
            output["additionalContext"] = self.additional_context
        return output
