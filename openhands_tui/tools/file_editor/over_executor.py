"""The `file_editor` over an executor's file operations (`executors/base.py`), for an agent
whose files are not on this machine (an agent-server: sdk/executor.py). It has the local
editor's schema, subject and summary, so edits are rated and approved as local ones are; files
are read and written whole through the executor, folders listed and created files removed by
it. The undo history is kept in memory for the session; diagnostics after edits are not
offered there. (Local files have their own editor, `editor.py`, pinned against links raced in.)
"""

from __future__ import annotations

from pathlib import Path

from openhands_tui.executors import Executor, ExecutorError
from openhands_tui.sdk.tool import Observation
from openhands_tui.tools.file_editor.editor import EditorError, _diff, _snippet, insert_lines, replace_once
from openhands_tui.tools.file_editor.face import FileEditorAction, FileEditorFace, FileEditorObservation, FileViewAction

#: Longest view given back.
MAX_VIEW_CHARS = 30_000


class ExecutorFileEditorTool(FileEditorFace):
    """The file editor on an executor's files (the local one's schema, subject and summary)."""

    name = "file_editor"

    def __init__(self, executor: Executor, *, read_only: bool = False) -> None:
        # not the parent's __init__: that opens the local editor, with its undo folder on this machine
        if read_only:
            self.action_type = FileViewAction
            self.description = f"View text files (with line numbers) and list folders ({executor.describe()})."
        self.executor = executor
        #: Earlier contents for `undo_edit`, per path (None: the edit created the file).
        self.history: dict[str, list[bytes | None]] = {}
        self._rated: dict[int, str] = {}

    def _real(self, path: str) -> str | None:
        return self.resolve(path)

    def resolve(self, path: str) -> str:
        return self.executor.resolve(path)

    async def run(self, action: FileEditorAction) -> Observation:
        target = self.resolve(action.path)
        try:
            text, diff = await self._carry_out(action, target)
        except (ExecutorError, EditorError, ValueError) as exc:
            return FileEditorObservation(text=str(exc), is_error=True, command=action.command, path=target)
        return FileEditorObservation(text=text, command=action.command, path=target, diff=diff)

    async def _carry_out(self, action: FileEditorAction, target: str) -> tuple[str, str]:
        command = action.command
        if command == "view":
            return await self._view(target, getattr(action, "view_range", None)), ""
        current = await self.executor.read(target)
        if command == "create":
            if current is not None:
                raise ValueError(f"{target} already exists; `create` never overwrites. Use `str_replace` to change it.")
            new = action.file_text
            if new is None:
                raise ValueError("`create` needs `file_text`, the full content of the new file.")
            await self._write(target, None, new)
            lines = new.count("\n") + (0 if new.endswith("\n") or not new else 1)
            return f"Created {target} ({lines} lines).", _diff(Path(target), "", new)
        if current is None:
            raise ValueError(f"{target} does not exist (or is not a file).")
        content = current.decode("utf-8", errors="replace")
        if command == "str_replace":
            return await self._replace(target, current, content, action.old_str, action.new_str or "")
        if command == "insert":
            return await self._insert(target, current, content, action.insert_line, action.new_str)
        return await self._undo(target, content)

    async def _view(self, target: str, view_range: list[int] | None) -> str:
        data = await self._read_or_list(target)
        if isinstance(data, str):
            return data
        lines = data.decode("utf-8", errors="replace").split("\n")
        if lines and lines[-1] == "":
            lines.pop()
        start, end = (view_range or [1, -1]) + [-1] * (2 - len(view_range or [1, -1]))
        end = len(lines) if end == -1 else min(end, len(lines))
        shown = "\n".join(f"{n:6}\t{lines[n - 1]}" for n in range(max(1, start), end + 1))
        if len(shown) > MAX_VIEW_CHARS:
            shown = shown[:MAX_VIEW_CHARS] + "\n[... cut; use view_range to see more ...]"
        return f"{target} ({len(lines)} lines)\n{shown or '(empty file)'}"

    async def _read_or_list(self, target: str) -> bytes | str:
        try:
            data = await self.executor.read(target)
        except ExecutorError:  # a folder: the server will not send it, so list it
            data = None
        if data is not None:
            return data
        found = await self.executor.stat(target)
        if found is None or found.kind != "folder":
            raise ValueError(f"{target}: no such file or folder")
        listed = await self.executor.list(target, depth=2)
        shown = "\n".join(listed[:500]) + (f"\n[... {len(listed) - 500} more ...]" if len(listed) > 500 else "")
        return f"Files and folders up to 2 levels deep in {target}:\n{target}\n{shown}"

    async def _replace(self, target: str, current: bytes, content: str, old: str | None, new: str) -> tuple[str, str]:
        if not old:
            raise ValueError("`str_replace` needs a non-empty `old_str` copied exactly from the file.")
        updated, first = replace_once(content, old, new, target)
        await self._write(target, current, updated)
        snippet = _snippet(updated, content.count("\n", 0, first) + 1, new.count("\n") + 1)
        return (
            f"Edited {target}. The changed region now reads:\n{snippet}\nCheck it is what you meant.",
            _diff(Path(target), content, updated),
        )

    async def _insert(
        self, target: str, current: bytes, content: str, line: int | None, new: str | None
    ) -> tuple[str, str]:
        if line is None or new is None:
            raise ValueError("`insert` needs `insert_line` (0 = top of file) and `new_str`.")
        updated, added = insert_lines(content, line, new)
        await self._write(target, current, updated)
        return (
            f"Inserted {added} line(s) after line {line} of {target}:\n{_snippet(updated, line + 1, added)}",
            _diff(Path(target), content, updated),
        )

    async def _undo(self, target: str, content: str) -> tuple[str, str]:
        earlier = self.history.get(target)
        if not earlier:
            raise ValueError(f"There is no edit of {target} to undo.")
        previous = earlier.pop()
        if previous is None:
            await self.executor.remove(target)
            return f"Undid the creation of {target}; the file is removed.", _diff(Path(target), content, "")
        await self.executor.write(target, previous)
        restored = previous.decode("utf-8", errors="replace")
        return f"Restored {target} to its version before the last edit.", _diff(Path(target), content, restored)

    async def _write(self, target: str, before: bytes | None, text: str) -> None:
        await self.executor.write(target, text.encode("utf-8", errors="surrogateescape"))
        self.history.setdefault(target, []).append(before)
