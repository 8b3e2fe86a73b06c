"""The `file_editor` tool: view files and directories, create files, and make exact edits."""

from __future__ import annotations

import copy
import os
from pathlib import Path
from typing import Any, Literal

from pydantic import Field

from openhands_tui.sdk.detached import run_detached
from openhands_tui.sdk.facts.subject import FileChange, FileOperation
from openhands_tui.sdk.tool import Action, Observation, RiskyAction, ToolContext, ToolDefinition
from openhands_tui.tools.file_editor.editor import EditorError, EditResult, FileEditor

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


class FileEditorTool(ToolDefinition[FileEditorAction]):
    name = "file_editor"
    description = (
        "View, create and edit text files. Edits are exact string replacements or line inserts; "
        "each change reports the edited region so you can check it."
    )
    action_type: type[Action] = FileEditorAction

    @classmethod
    def create(cls, conv_state: Any = None, **params: Any) -> list[ToolDefinition[Any]]:
        """The SDK's factory: `register_tool(name, FileEditorTool)` works as in the SDK."""
        return list(create_file_editor(params, conv_state.context))

    def __init__(self, ctx: ToolContext, *, read_only: bool = False) -> None:
        if read_only:
            self.action_type = FileViewAction
            self.description = (
                "View text files (with line numbers) and list directories. This agent may not change files."
            )
        self.editor = FileEditor(ctx.workspace)
        #: The session's record of what its file editor wrote (the terminal's undo spares it).
        self.writes = ctx.editor_writes
        #: Where each action's path really pointed when it was rated (by the action's identity).
        self._rated: dict[int, str] = {}
        #: The session's language servers: what an edited file's checker says goes back with the edit.
        self.diagnostics: Any = ctx.services.get("diagnostics", lambda: _diagnostics(ctx))

    def _real(self, path: str) -> str | None:
        try:
            return os.path.realpath(self.editor.resolve(path))
        except (EditorError, OSError, ValueError):
            return None

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

    async def run(self, action: FileEditorAction) -> Observation:
        rated, real = self._rated.pop(id(action), None), self._real(action.path)
        if rated is not None and real != rated:
            # a symlink swapped in after the rating (by a process the agent left running, say)
            # would send the change somewhere nobody judged
            text = f"{action.path} now points to {real}, not to {rated} as when it was checked; nothing was done."
            return FileEditorObservation(text=text, is_error=True, command=action.command, path=action.path)
        try:
            # on a worker thread: a big file must not hold up Esc, signals or other agents, and
            # a read stuck in the kernel must not keep the process alive once the run has ended
            result = await run_detached(self._dispatch, action, real)
        except EditorError as exc:
            return FileEditorObservation(text=str(exc), is_error=True, command=action.command, path=action.path)
        except OSError as exc:
            return FileEditorObservation(
                text=f"{action.path}: {exc.strerror or exc}",
                is_error=True,
                command=action.command,
                path=action.path,
            )
        text = result.text
        if action.command != "view" and real is not None:
            # rated and confirmed: the sandbox must not undo it, while it holds what was written
            self.writes.note(real, self._written_digest(real))
            text += await self._diagnosed(real)
        return FileEditorObservation(text=text, command=action.command, path=result.path, diff=result.diff)

    async def _diagnosed(self, real: str) -> str:
        """The file's problems now, as its language server reports them ("" without one)."""
        try:
            with open(real, encoding="utf-8", errors="replace") as handle:
                content = handle.read(2 * 1024 * 1024)
        except OSError:  # undone to nothing, or not a file to read
            return ""
        said = await self.diagnostics.after_edit(Path(real), content)
        return f"\n\n{said}" if said else ""

    def _written_digest(self, real: str) -> bytes | None:
        """The digest of what the editor last wrote to `real` (None: it removed the file)."""
        for target, digest in self.editor.undo.written.items():
            if os.path.realpath(target) == real:
                return digest
        return None

    def _dispatch(self, action: FileEditorAction, real: str | None) -> EditResult:
        """Carry out `action`; a change lands where `real` (the path as rated) is, or nowhere."""
        editor = self.editor
        if action.command == "view":
            return editor.view(action.path, action.view_range, real)
        if action.command == "create":
            return editor.create(action.path, action.file_text, real)
        if action.command == "str_replace":
            return editor.str_replace(action.path, action.old_str, action.new_str, real)
        if action.command == "insert":
            return editor.insert(action.path, action.insert_line, action.new_str, real)
        return editor.undo_edit(action.path, real)

    async def close(self) -> None:
        self.editor.close()


def _diagnostics(ctx: ToolContext) -> Any:
    from openhands_tui.lsp.diagnostics import EditDiagnostics
    from openhands_tui.sdk.facts.event import AgentErrorEvent
    from openhands_tui.sdk.settings import load_config

    def notice(text: str) -> None:
        if ctx.report is not None:
            ctx.report(AgentErrorEvent(agent_id=ctx.agent_id, error=text))

    return EditDiagnostics(ctx.workspace, ctx.sandbox, ctx.trusted, load_config(), notice)


def create_file_editor(params: dict[str, Any], ctx: ToolContext) -> list[FileEditorTool]:
    unknown = sorted(set(params) - {"read_only"})
    if unknown:
        raise ValueError(f"FileEditorTool takes only the param read_only, not {unknown[0]!r}")
    return [FileEditorTool(ctx, read_only=bool(params.get("read_only", False)))]
