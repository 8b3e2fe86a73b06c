"""File operations behind the `file_editor` tool: view, create, str_replace, insert, undo.

Edits keep earlier versions (on disk, see files.py) so `undo_edit` can restore the version
before the last edit (and remove a file that `create` made). Every change reports a unified
diff, which UIs show before and after the fact. Every result is bounded: a directory of
100,000 files, a string found 200,000 times or a 200 MB file each give a short answer that
says what was left out, never a result that fills the model's context.
"""

from __future__ import annotations

import difflib
import re
from dataclasses import dataclass, field
from pathlib import Path

from openhands_tui.executors.local.files import (
    MAX_EDIT_BYTES,
    EditorError,
    TextFile,
    UndoStore,
    bounded_lines,
    check_regular,
    make_parents_pinned,
    open_rated,
    remove_pinned,
    write_atomically,
)
from openhands_tui.tools.file_editor.listing import folder_listing

MAX_VIEW_CHARS = 30_000
SNIPPET_CONTEXT = 4
#: Line numbers named when `old_str` appears more than once.
MAX_OCCURRENCES_NAMED = 20
#: Longest diff kept for display (events, the app); the file itself is always written whole.
MAX_DIFF_CHARS = 50_000
#: Largest `file_text` a `create` accepts (bigger: write it in parts, or generate it).
MAX_CREATE_CHARS = 1_000_000

__all__ = ["EditResult", "EditorError", "FileEditor", "insert_lines", "replace_once"]


@dataclass
class EditResult:
    text: str
    path: str
    diff: str = ""


@dataclass
class FileEditor:
    workspace: Path
    undo: UndoStore = field(default_factory=UndoStore)

    def resolve(self, path: str) -> Path:
        if not path.strip():
            raise EditorError("`path` is empty.")
        candidate = Path(path).expanduser()
        target = candidate if candidate.is_absolute() else self.workspace / candidate
        if target.is_relative_to(self.workspace) and not _is_directory(self.workspace):
            raise EditorError(  # never recreated by `create`'s mkdir, as if nothing had happened
                f"The workspace {self.workspace} is gone (deleted or replaced during the run); "
                "nothing in it can be viewed or changed. Tell the user."
            )
        return target

    def close(self) -> None:
        self.undo.close()

    # -- view ------------------------------------------------------------------------------

    def view(self, path: str, view_range: list[int] | None = None, real: str | None = None) -> EditResult:
        target = self.resolve(path)
        if target.is_dir():
            if view_range:
                raise EditorError("`view_range` only applies to files, not directories.")
            return EditResult(folder_listing(target), str(target))
        if view_range:
            return EditResult(self._view_range(target, view_range, real), str(target))
        lines = TextFile.read(target, real=real).text.split("\n")
        if lines and lines[-1] == "":
            lines.pop()
        numbered = [f"{n:6}\t{line}" for n, line in enumerate(lines, start=1)]
        text = "\n".join(numbered)
        if len(text) > MAX_VIEW_CHARS:
            shown = text[:MAX_VIEW_CHARS].rsplit("\n", 1)[0]
            last = shown.count("\n") + 1
            text = shown + f"\n[... output cut at line {last} of {len(lines)}; use view_range to see more ...]"
        header = f"{target} ({len(lines)} lines)"
        return EditResult(f"{header}\n{text}" if text else f"{header}\n(empty file)", str(target))

    def _view_range(self, target: Path, view_range: list[int], real: str | None) -> str:
        """Lines `start..end` of a file of any size, read as a stream (a 200 MB log is fine)."""
        if len(view_range) != 2:
            raise EditorError("`view_range` must be two numbers: [start, end] (end -1 means the last line).")
        start, end = view_range
        if start < 1 or (end != -1 and end < start):
            raise EditorError(f"`view_range` [{start}, {end}] is not a range of lines (1-based, end >= start or -1).")
        check_regular(target)
        shown: list[str] = []
        chars, total = 0, 0
        with open_rated(target, real) as handle:
            for number, (raw, longer) in enumerate(bounded_lines(handle, MAX_VIEW_CHARS + 1), start=1):
                total = number
                if number < start or (end != -1 and number > end) or chars > MAX_VIEW_CHARS:
                    continue
                line = raw.decode("utf-8", errors="replace").rstrip("\r\n")
                shown.append(f"{number:6}\t{line}" + (" [... rest of this line not shown ...]" if longer else ""))
                chars += len(shown[-1]) + 1
        if start > max(total, 1):
            raise EditorError(f"`view_range` start {start} is outside the file (1-{total}).")
        last = min(total, end) if end != -1 else total
        text = "\n".join(shown)
        if chars > MAX_VIEW_CHARS:
            text += f"\n[... cut at {MAX_VIEW_CHARS:,} characters; ask for a smaller range ...]"
        return f"{target} lines {start}-{last} of {total}\n{text}"

    # -- changes ---------------------------------------------------------------------------

    def create(self, path: str, file_text: str | None, real: str | None = None) -> EditResult:
        target = self.resolve(path)
        if file_text is None:
            raise EditorError("`create` needs `file_text`, the full content of the new file.")
        if len(file_text) > MAX_CREATE_CHARS:
            raise EditorError(
                f"`file_text` is {len(file_text):,} characters; `create` takes at most {MAX_CREATE_CHARS:,}. "
                "Create a smaller file and add to it, or generate the content with a script."
            )
        if target.exists() or target.is_symlink():
            raise EditorError(
                f"{target} already exists; `create` never overwrites. Use `str_replace` to change it "
                "(or `view` it first)."
            )
        make_parents_pinned(target, real)
        data = file_text.encode("utf-8", errors="surrogateescape")
        write_atomically(target, data, real)
        self.undo.push(target, None)
        self.undo.wrote(target, data)
        lines = file_text.count("\n") + (0 if file_text.endswith("\n") or not file_text else 1)
        return EditResult(f"Created {target} ({lines} lines).", str(target), _diff(target, "", file_text))

    def str_replace(self, path: str, old_str: str | None, new_str: str | None, real: str | None = None) -> EditResult:
        target = self.resolve(path)
        if not old_str:
            raise EditorError("`str_replace` needs a non-empty `old_str` copied exactly from the file.")
        file = TextFile.read(target, real=real)
        content, old = file.text, old_str.replace("\r\n", "\n") if file.crlf else old_str
        new = (new_str or "").replace("\r\n", "\n") if file.crlf else (new_str or "")
        updated, first = replace_once(content, old, new, target)
        start_line = content.count("\n", 0, first) + 1
        self._write(target, file, updated, real)
        snippet = _snippet(updated, start_line, new.count("\n") + 1)
        return EditResult(
            f"Edited {target}. The changed region now reads:\n{snippet}\nCheck it is what you meant.",
            str(target),
            _diff(target, content, updated),
        )

    def insert(self, path: str, insert_line: int | None, new_str: str | None, real: str | None = None) -> EditResult:
        target = self.resolve(path)
        if insert_line is None or new_str is None:
            raise EditorError("`insert` needs `insert_line` (0 = top of file) and `new_str`.")
        file = TextFile.read(target, real=real)
        content = file.text
        updated, added = insert_lines(content, insert_line, new_str)
        self._write(target, file, updated, real)
        snippet = _snippet(updated, insert_line + 1, added)
        return EditResult(
            f"Inserted {added} line(s) after line {insert_line} of {target}:\n{snippet}",
            str(target),
            _diff(target, content, updated),
        )

    def undo_edit(self, path: str, real: str | None = None) -> EditResult:
        target = self.resolve(path)
        if self.undo.changed_since_written(target):
            self.undo.forget(target)
            raise EditorError(
                f"Nothing undone: {target} changed after your last edit of it (a command, the user or another "
                "program wrote it), and restoring the earlier version would throw that change away. `view` it "
                "and edit what you need."
            )
        found, previous = self.undo.pop(target)
        if not found:
            raise EditorError(f"There is no edit of {target} to undo.")
        current = _readable(target, real)
        if previous is None:
            remove_pinned(target, real)
            self.undo.wrote(target, None)
            return EditResult(
                f"Undid the creation of {target}; the file is removed.", str(target), _diff(target, current, "")
            )
        write_atomically(target, previous, real)
        self.undo.wrote(target, previous)
        return EditResult(
            f"Restored {target} to its version before the last edit.",
            str(target),
            _diff(target, current, previous.decode("utf-8", errors="replace")),
        )

    def _write(self, target: Path, file: TextFile, updated: str, real: str | None) -> None:
        """`real`: where `target` pointed when the change was rated (the write goes there or nowhere)."""
        with open_rated(target, real) as handle:
            self.undo.push(target, handle.read(MAX_EDIT_BYTES + 1))
        data = file.encode(updated)
        write_atomically(target, data, real)
        self.undo.wrote(target, data)


def _is_directory(path: Path) -> bool:
    try:
        return path.is_dir()
    except OSError:
        return False


def _readable(target: Path, real: str | None) -> str:
    try:
        with open_rated(target, real) as handle:
            return handle.read(MAX_EDIT_BYTES).decode("utf-8", errors="replace")
    except OSError:
        return ""


def replace_once(content: str, old: str, new: str, target: object) -> tuple[str, int]:
    """`content` with its one occurrence of `old` replaced, and where it was; EditorError when
    `old` is missing or appears more than once (naming the lines), for the editor here and the
    agent-server's alike."""
    first = content.find(old)
    if first < 0:
        raise EditorError(
            f"No replacement made: `old_str` does not appear in {target}. It must match exactly, "
            "including whitespace and indentation; `view` the file to copy it."
        )
    if content.find(old, first + 1) >= 0:
        count, lines = _occurrences(content, old)
        named = ", ".join(map(str, lines)) + (f", … ({count - len(lines):,} more)" if count > len(lines) else "")
        raise EditorError(
            f"No replacement made: `old_str` appears {count:,} times in {target} (lines {named}). "
            "Include more surrounding lines so it matches exactly once."
        )
    return content[:first] + new + content[first + len(old) :], first


def insert_lines(content: str, insert_line: int, new_str: str) -> tuple[str, int]:
    """`content` with `new_str`'s lines after line `insert_line` (0: at the top), and how many
    lines went in; EditorError for a line outside the file."""
    lines = content.split("\n")
    trailing_newline = content.endswith("\n")
    if trailing_newline:
        lines.pop()
    if not 0 <= insert_line <= len(lines):
        raise EditorError(f"`insert_line` {insert_line} is outside the file (0-{len(lines)}).")
    new_lines = new_str.replace("\r\n", "\n").split("\n")
    updated = "\n".join(lines[:insert_line] + new_lines + lines[insert_line:])
    return updated + ("\n" if trailing_newline or not content else ""), len(new_lines)


def _occurrences(content: str, needle: str) -> tuple[int, list[int]]:
    """How many times `needle` occurs, and the line numbers of the first few: one pass."""
    count, line, last = 0, 1, 0
    lines: list[int] = []
    index = content.find(needle)
    while index >= 0:
        count += 1
        if len(lines) < MAX_OCCURRENCES_NAMED:
            line += content.count("\n", last, index)
            last = index
            lines.append(line)
        index = content.find(needle, index + max(len(needle), 1))
    return count, lines


def _snippet(content: str, first_changed: int, changed_count: int) -> str:
    lines = content.split("\n")
    start = max(1, first_changed - SNIPPET_CONTEXT)
    end = min(len(lines), first_changed + min(changed_count, 40) - 1 + SNIPPET_CONTEXT)
    return "\n".join(f"{n:6}\t{lines[n - 1][:500]}" for n in range(start, end + 1))


def _diff(path: Path, before: str, after: str) -> str:
    """A unified diff for display, bounded: only the changed region (with context) is compared,
    and that region is found by comparing the texts in C (slices), not line by line in Python,
    so a one-line insert into a 2 MB file costs milliseconds."""
    prefix = _common_length(before, after, from_end=False)
    suffix = _common_length(before, after, from_end=True, limit=min(len(before), len(after)) - prefix)
    start = before.rfind("\n", 0, prefix) + 1  # the start of the first line that differs...
    for _ in range(DIFF_CONTEXT):  # ...and the lines of context above it (the same in both)
        if start == 0:
            break
        start = before.rfind("\n", 0, start - 1) + 1
    end_old = len(before) - suffix
    for _ in range(DIFF_CONTEXT + 1):  # the end of the last line that differs, then context
        newline = before.find("\n", end_old)
        end_old = len(before) if newline < 0 else newline + 1
    end_new = len(after) - (len(before) - end_old)
    offset = before.count("\n", 0, start)
    lines = difflib.unified_diff(
        _with_ends(before[start:end_old]),
        _with_ends(after[start:end_new]),
        fromfile=f"a/{path.name}",
        tofile=f"b/{path.name}",
        n=DIFF_CONTEXT,
    )
    text = "".join(_shift_hunk(line, offset) for line in lines)
    if len(text) > MAX_DIFF_CHARS:
        text = text[:MAX_DIFF_CHARS].rsplit("\n", 1)[0] + f"\n[... diff cut at {MAX_DIFF_CHARS:,} characters ...]\n"
    return text


DIFF_CONTEXT = 3


def _common_length(a: str, b: str, from_end: bool, limit: int | None = None) -> int:
    """How many characters `a` and `b` share at their start (or end), by bisection over slice
    comparisons: log2(n) comparisons done in C."""
    low, high = 0, min(len(a), len(b)) if limit is None else max(0, limit)
    while low < high:
        middle = (low + high + 1) // 2
        same = a[len(a) - middle :] == b[len(b) - middle :] if from_end else a[:middle] == b[:middle]
        if same:
            low = middle
        else:
            high = middle - 1
    return low


def _with_ends(text: str) -> list[str]:
    """Lines with their newlines, split on `\n` only (as the line numbers are counted)."""
    parts = text.split("\n")
    lines = [part + "\n" for part in parts[:-1]]
    if parts[-1]:
        lines.append(parts[-1])
    return lines


_HUNK = re.compile(r"^@@ -(\d+)(,\d+)? \+(\d+)(,\d+)? @@")


def _shift_hunk(line: str, offset: int) -> str:
    """Hunk headers of a diff of a window name the lines of the whole file."""
    match = _HUNK.match(line)
    if match is None or offset == 0:
        return line
    old, new = int(match.group(1)), int(match.group(3))
    old = old + offset if old else old
    new = new + offset if new else new
    return f"@@ -{old}{match.group(2) or ''} +{new}{match.group(4) or ''} @@{line[match.end() :]}"
