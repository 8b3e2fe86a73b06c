"""File operations behind the `file_editor` tool: view, create, str_replace, insert, undo.

Edits keep a per-file history so `undo_edit` can restore the version before the last edit
(and remove a file that `create` made). Every change reports a unified diff, which UIs show
before and after the fact.
"""

from __future__ import annotations

import difflib
from dataclasses import dataclass, field
from pathlib import Path

MAX_VIEW_CHARS = 30_000
MAX_LISTING = 400
SNIPPET_CONTEXT = 4


class EditorError(Exception):
    """A request the editor refuses; the message is written for the model to act on."""


@dataclass
class EditResult:
    text: str
    path: str
    diff: str = ""


@dataclass
class FileEditor:
    workspace: Path
    history: dict[Path, list[str | None]] = field(default_factory=dict)

    def resolve(self, path: str) -> Path:
        if not path.strip():
            raise EditorError("`path` is empty.")
        candidate = Path(path).expanduser()
        return candidate if candidate.is_absolute() else self.workspace / candidate

    # -- view ------------------------------------------------------------------------------

    def view(self, path: str, view_range: list[int] | None = None) -> EditResult:
        target = self.resolve(path)
        if target.is_dir():
            if view_range:
                raise EditorError("`view_range` only applies to files, not directories.")
            return EditResult(self._listing(target), str(target))
        lines = self._read(target).split("\n")
        if lines and lines[-1] == "":
            lines.pop()
        start, end = 1, len(lines)
        if view_range:
            start, end = self._check_range(view_range, len(lines))
        numbered = [f"{n:6}\t{lines[n - 1]}" for n in range(start, end + 1)]
        text = "\n".join(numbered)
        if len(text) > MAX_VIEW_CHARS:
            shown = text[:MAX_VIEW_CHARS].rsplit("\n", 1)[0]
            last = shown.count("\n") + start
            text = shown + f"\n[... output cut at line {last} of {len(lines)}; use view_range to see more ...]"
        header = f"{target} ({len(lines)} lines)" if not view_range else f"{target} lines {start}-{end} of {len(lines)}"
        return EditResult(f"{header}\n{text}" if text else f"{header}\n(empty file)", str(target))

    def _check_range(self, view_range: list[int], total: int) -> tuple[int, int]:
        if len(view_range) != 2:
            raise EditorError("`view_range` must be two numbers: [start, end] (end -1 means the last line).")
        start, end = view_range
        end = total if end == -1 else end
        if start < 1 or start > max(total, 1):
            raise EditorError(f"`view_range` start {start} is outside the file (1-{total}).")
        if end < start:
            raise EditorError(f"`view_range` end {end} is before start {start}.")
        return start, min(end, total)

    def _listing(self, root: Path) -> str:
        entries: list[str] = []
        for child in sorted(root.iterdir()):
            if child.name.startswith("."):
                continue
            entries.append(child.name + ("/" if child.is_dir() else ""))
            if child.is_dir():
                try:
                    grandchildren = sorted(c for c in child.iterdir() if not c.name.startswith("."))
                except OSError:
                    continue
                entries += [f"{child.name}/{g.name}" + ("/" if g.is_dir() else "") for g in grandchildren]
            if len(entries) >= MAX_LISTING:
                entries.append(f"[... listing cut at {MAX_LISTING} entries ...]")
                break
        body = "\n".join(entries) if entries else "(empty directory)"
        return f"Files and directories in {root} (two levels, hidden items skipped):\n{body}"

    # -- changes ---------------------------------------------------------------------------

    def create(self, path: str, file_text: str | None) -> EditResult:
        target = self.resolve(path)
        if file_text is None:
            raise EditorError("`create` needs `file_text`, the full content of the new file.")
        if target.exists():
            raise EditorError(
                f"{target} already exists; `create` never overwrites. Use `str_replace` to change it "
                "(or `view` it first)."
            )
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text(file_text)
        self.history.setdefault(target, []).append(None)
        lines = file_text.count("\n") + (0 if file_text.endswith("\n") or not file_text else 1)
        return EditResult(f"Created {target} ({lines} lines).", str(target), _diff(target, "", file_text))

    def str_replace(self, path: str, old_str: str | None, new_str: str | None) -> EditResult:
        target = self.resolve(path)
        if not old_str:
            raise EditorError("`str_replace` needs a non-empty `old_str` copied exactly from the file.")
        content = self._read(target)
        count = content.count(old_str)
        if count == 0:
            raise EditorError(
                f"No replacement made: `old_str` does not appear in {target}. It must match exactly, "
                "including whitespace and indentation; `view` the file to copy it."
            )
        if count > 1:
            lines = _occurrence_lines(content, old_str)
            raise EditorError(
                f"No replacement made: `old_str` appears {count} times in {target} (lines "
                f"{', '.join(map(str, lines))}). Include more surrounding lines so it matches exactly once."
            )
        updated = content.replace(old_str, new_str or "", 1)
        start_line = content[: content.index(old_str)].count("\n") + 1
        self._write(target, content, updated)
        snippet = _snippet(updated, start_line, (new_str or "").count("\n") + 1)
        return EditResult(
            f"Edited {target}. The changed region now reads:\n{snippet}\nCheck it is what you meant.",
            str(target),
            _diff(target, content, updated),
        )

    def insert(self, path: str, insert_line: int | None, new_str: str | None) -> EditResult:
        target = self.resolve(path)
        if insert_line is None or new_str is None:
            raise EditorError("`insert` needs `insert_line` (0 = top of file) and `new_str`.")
        content = self._read(target)
        lines = content.split("\n")
        trailing_newline = content.endswith("\n")
        if trailing_newline:
            lines.pop()
        if not 0 <= insert_line <= len(lines):
            raise EditorError(f"`insert_line` {insert_line} is outside the file (0-{len(lines)}).")
        new_lines = new_str.split("\n")
        updated_lines = lines[:insert_line] + new_lines + lines[insert_line:]
        updated = "\n".join(updated_lines) + ("\n" if trailing_newline or not content else "")
        self._write(target, content, updated)
        snippet = _snippet(updated, insert_line + 1, len(new_lines))
        return EditResult(
            f"Inserted {len(new_lines)} line(s) after line {insert_line} of {target}:\n{snippet}",
            str(target),
            _diff(target, content, updated),
        )

    def undo(self, path: str) -> EditResult:
        target = self.resolve(path)
        versions = self.history.get(target)
        if not versions:
            raise EditorError(f"There is no edit of {target} to undo.")
        previous = versions.pop()
        current = target.read_text() if target.exists() else ""
        if previous is None:
            target.unlink(missing_ok=True)
            return EditResult(
                f"Undid the creation of {target}; the file is removed.",
                str(target),
                _diff(target, current, ""),
            )
        target.write_text(previous)
        return EditResult(
            f"Restored {target} to its version before the last edit.",
            str(target),
            _diff(target, current, previous),
        )

    def _read(self, target: Path) -> str:
        if not target.exists():
            raise EditorError(f"{target} does not exist. Use `create` to make a new file.")
        if target.is_dir():
            raise EditorError(f"{target} is a directory; `view` lists it.")
        data = target.read_bytes()
        if b"\0" in data[:8192]:
            raise EditorError(f"{target} looks binary; the editor only handles text files.")
        try:
            return data.decode("utf-8")
        except UnicodeDecodeError:
            raise EditorError(f"{target} is not UTF-8 text; the editor only handles UTF-8.") from None

    def _write(self, target: Path, before: str, after: str) -> None:
        target.write_text(after)
        self.history.setdefault(target, []).append(before)


def _occurrence_lines(content: str, needle: str) -> list[int]:
    lines, start = [], 0
    while (index := content.find(needle, start)) >= 0:
        lines.append(content[:index].count("\n") + 1)
        start = index + 1
    return lines


def _snippet(content: str, first_changed: int, changed_count: int) -> str:
    lines = content.split("\n")
    start = max(1, first_changed - SNIPPET_CONTEXT)
    end = min(len(lines), first_changed + changed_count - 1 + SNIPPET_CONTEXT)
    return "\n".join(f"{n:6}\t{lines[n - 1]}" for n in range(start, end + 1))


def _diff(path: Path, before: str, after: str) -> str:
    return "".join(
        difflib.unified_diff(
            before.splitlines(keepends=True),
            after.splitlines(keepends=True),
            fromfile=f"a/{path.name}",
            tofile=f"b/{path.name}",
        )
    )
