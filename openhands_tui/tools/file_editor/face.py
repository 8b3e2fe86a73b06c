"""What the `file_editor` is, wherever it edits: its arguments, its observation, and how an action
is described to the rules and the user (its subject and summary, and the plan-mode schema). The
local editor (`tool.py`) and the agent-server's (`remote.py`) are both this face, so an edit is
rated and approved the same way on either.
"""

from __future__ import annotations

import copy
from typing import Any, Literal

from pydantic import Field

from openhands_tui.sdk.facts.subject import FileChange, FileOperation
from openhands_tui.sdk.tool import Action, Observation, RiskyAction, ToolDefinition

Command = Literal["view", "create", "str_replace", "insert", "undo_edit"]
_OPERATIONS: dict[str, FileOperation] = {
    "view": "view",
    "create": "create",
    "str_replace": "edit",
    "insert": "insert",
    "undo_edit": "undo",
}


class FileEditorAction(RiskyAction):
    command: Command = Field(
        description=(
            "view: show a file with line numbers, or list a directory two levels deep. "
            "create: write a new file (never overwrites). str_replace: replace `old_str`, which must "
            "occur exactly once, with `new_str`. insert: add `new_str` after line `insert_line`. "
            "undo_edit: restore the file as it was before your last edit of it."
        )
    )
    path: str = Field(description="File or directory path, absolute or relative to the workspace.")
    file_text: str | None = Field(default=None, description="create: the full content of the new file.")
    old_str: str | None = Field(
        default=None,
        description="str_replace: the exact text to replace (whitespace included); must occur exactly once.",
    )
    new_str: str | None = Field(
        default=None, description="str_replace: the replacement text. insert: the text to insert."
    )
    insert_line: int | None = Field(
        default=None, description="insert: the line after which `new_str` goes (0 inserts at the top)."
    )
    view_range: list[int] | None = Field(
        default=None,
        description="view: [start, end] line numbers, 1-based and inclusive; end -1 means the last line.",
    )


class FileViewAction(Action):
    """The arguments of a file editor that may only look (`params={"read_only": True}`): an agent
    file that names only Read, Grep or Glob gets this one, and cannot be talked into writing."""

    command: Literal["view"] = Field(description="view: show a file with line numbers, or list a directory.")
    path: str = Field(description="File or directory path, absolute or relative to the workspace.")
    view_range: list[int] | None = Field(
        default=None,
        description="[start, end] line numbers, 1-based and inclusive; end -1 means the last line.",
    )


class FileEditorObservation(Observation):
    command: str
    path: str
    diff: str = ""


class FileEditorFace(ToolDefinition[FileEditorAction]):
    name = "file_editor"
    description = (
        "View, create and edit text files. Edits are exact string replacements or line inserts; "
        "each change reports the edited region so you can check it."
    )
    action_type: type[Action] = FileEditorAction
    #: Where each action's path really pointed when it was rated (by the action's identity).
    _rated: dict[int, str]

    def _real(self, path: str) -> str | None:
        """Where `path` really points (None: nowhere that can be named)."""
        raise NotImplementedError

    def plan_schema(self) -> dict[str, Any]:
        """In plan mode the model is offered `view` alone, with only the arguments it takes."""
        schema = copy.deepcopy(self.schema)
        parameters = schema["function"]["parameters"]
        kept = {"command", "path", "view_range", "security_risk"}
        parameters["properties"] = {k: v for k, v in parameters["properties"].items() if k in kept}
        parameters["properties"]["command"] = {
            "type": "string",
            "enum": ["view"],
            "description": "view: show a file with line numbers, or list a directory two levels deep.",
        }
        if "required" in parameters:
            parameters["required"] = [name for name in parameters["required"] if name in kept]
        schema["function"]["description"] = "View text files and list directories (plan mode: read-only)."
        return schema

    def subject(self, action: FileEditorAction) -> FileChange:
        real = self._real(action.path)
        if real is not None:
            self._rated[id(action)] = real
        operation: FileOperation = _OPERATIONS[action.command]
        before, after = {
            "create": (None, getattr(action, "file_text", None)),
            "str_replace": (getattr(action, "old_str", None), getattr(action, "new_str", None)),
            "insert": (None, getattr(action, "new_str", None)),
        }.get(action.command, (None, None))
        return FileChange(path=action.path, operation=operation, before=before, after=after)

    def summarize(self, action: FileEditorAction) -> str:
        verb = {"str_replace": "edit", "undo_edit": "undo edit of"}.get(action.command, action.command)
        return f"{verb} {action.path}"
