"""What a hook is told: the JSON on its standard input, in the dialect of the file it came from.

Claude Code's hooks expect its tool names and argument names (`Bash` with `command`, `Edit`
with `file_path`/`old_string`/`new_string`); OpenHands' expect the SDK's (`terminal`,
`file_editor` with `path`). A hook from `.claude/settings.json` is told the first, one from
`.openhands/hooks.json` or our own config the second; both get every common field
(`session_id`, `transcript_path`, `cwd`, `hook_event_name`, and OpenHands' `event_type`,
`working_dir`). The Claude Code name of a call comes from its subject (what it touches), never
from the tool's name: `tool_names.py`.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Literal

Dialect = Literal["claude", "openhands"]


@dataclass(frozen=True)
class ToolView:
    """A tool call as hooks see it: our name and arguments, and Claude Code's (if it has them)."""

    tool_use_id: str
    name: str
    input: dict[str, Any]
    claude_name: str | None = None
    claude_input: dict[str, Any] | None = None
    #: After the call ran: {"output": ..., "success": ...}.
    response: dict[str, Any] | None = None

    def names(self) -> tuple[str, ...]:
        return (self.name, self.claude_name) if self.claude_name else (self.name,)


@dataclass(frozen=True)
class HookInput:
    """One occurrence of a hook event, before it is rendered for a hook's dialect."""

    event: str
    session_id: str
    cwd: str
    transcript_path: str = ""
    permission_mode: str = "default"
    #: Event-specific fields: prompt, stop_hook_active, source, reason, trigger, message...
    fields: dict[str, Any] = field(default_factory=dict)
    tool: ToolView | None = None
    #: What a matcher is matched against when the event has no tool (source, trigger...).
    match_value: str | None = None

    def match_names(self) -> tuple[str, ...]:
        if self.tool is not None:
            return self.tool.names()
        return (self.match_value,) if self.match_value else ()

    def payload(self, dialect: Dialect) -> dict[str, Any]:
        data: dict[str, Any] = {
            "session_id": self.session_id,
            "transcript_path": self.transcript_path,
            "cwd": self.cwd,
            "permission_mode": self.permission_mode,
            "hook_event_name": self.event,
            "event_type": self.event,
            "working_dir": self.cwd,
            **self.fields,
        }
        tool = self.tool
        if tool is not None:
            claude = dialect == "claude" and tool.claude_name is not None
            data["tool_name"] = tool.claude_name if claude else tool.name
            data["tool_input"] = (tool.claude_input if claude else None) or tool.input
            data["tool_use_id"] = tool.tool_use_id
            if tool.response is not None:
                data["tool_response"] = tool.response
        return data
