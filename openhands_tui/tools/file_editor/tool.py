"""The `file_editor` tool: view files and directories, create files, and make exact edits."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

from openhands_tui.executors import executor_for
from openhands_tui.executors.local import LocalExecutor
from openhands_tui.sdk.detached import run_detached
from openhands_tui.sdk.tool import Observation, ToolContext, ToolDefinition
from openhands_tui.tools.file_editor.editor import EditorError, EditResult, FileEditor
from openhands_tui.tools.file_editor.face import FileEditorAction as FileEditorAction
from openhands_tui.tools.file_editor.face import FileEditorFace
from openhands_tui.tools.file_editor.face import FileEditorObservation as FileEditorObservation
from openhands_tui.tools.file_editor.face import FileViewAction as FileViewAction


class FileEditorTool(FileEditorFace):
    name = "file_editor"

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


def create_file_editor(params: dict[str, Any], ctx: ToolContext) -> list[FileEditorFace]:
    unknown = sorted(set(params) - {"read_only"})
    if unknown:
        raise ValueError(f"FileEditorTool takes only the param read_only, not {unknown[0]!r}")
    read_only = bool(params.get("read_only", False))
    executor = executor_for(ctx)
    if isinstance(executor, LocalExecutor):  # this machine's files: the editor pinned against raced-in links
        return [FileEditorTool(ctx, read_only=read_only)]
    from openhands_tui.tools.file_editor.over_executor import ExecutorFileEditorTool

    return [ExecutorFileEditorTool(executor, read_only=read_only)]
