"""A call's Claude Code name and arguments, read from its subject (what it touches).

Claude Code's hooks match `Bash`, `Read`, `Write`, `Edit`, `Task` and `mcp__server__tool` and
read `tool_input.command` or `tool_input.file_path`. Which of ours is which is decided by the
subject, as everywhere else — no tool is recognised by its name. The argument names a Claude
Code hook may hand back in `updatedInput` map onto the OpenHands SDK's (`ARGUMENTS_FROM_CLAUDE`).
"""

from __future__ import annotations

from typing import Any

from openhands_tui.sdk.facts.subject import Delegation, FileChange, MCPCall, ShellCommand, Subject

#: Claude Code's file tool for each file operation.
FILE_TOOLS = {"view": "Read", "create": "Write", "edit": "Edit", "insert": "Edit", "undo": "Edit"}
#: Claude Code's name of a shell command, of a delegation, and the prefix of an MCP call
#: (`mcp__server__tool`); agent files name tools by the same words (sdk/context/agent_formats.py).
SHELL_TOOL, DELEGATE_TOOL, MCP_PREFIX = "Bash", "Task", "mcp__"
#: Claude Code's argument name -> the OpenHands SDK's, for `updatedInput`.
ARGUMENTS_FROM_CLAUDE = {"file_path": "path", "content": "file_text", "old_string": "old_str", "new_string": "new_str"}


def claude_view(subject: Subject | None, arguments: dict[str, Any]) -> tuple[str | None, dict[str, Any] | None]:
    """(Claude Code's tool name, its tool_input) for a call, or (None, None) if it has none."""
    if isinstance(subject, ShellCommand):
        return SHELL_TOOL, {**arguments, "command": subject.command}
    if isinstance(subject, FileChange):
        shown: dict[str, Any] = {**arguments, "file_path": subject.path}
        if subject.operation == "create" and subject.after is not None:
            shown["content"] = subject.after
        elif subject.operation in ("edit", "insert"):
            shown.update(old_string=subject.before or "", new_string=subject.after or "")
        return FILE_TOOLS[subject.operation], shown
    if isinstance(subject, MCPCall):
        return f"{MCP_PREFIX}{subject.server}__{subject.tool}", dict(subject.arguments)
    if isinstance(subject, Delegation):
        return DELEGATE_TOOL, dict(arguments)
    return None, None


def arguments_from_claude(updated: dict[str, Any], known: set[str]) -> dict[str, Any]:
    """An `updatedInput` in Claude Code's argument names, in ours (names we take stay as they are)."""
    return {key if key in known else ARGUMENTS_FROM_CLAUDE.get(key, key): value for key, value in updated.items()}
