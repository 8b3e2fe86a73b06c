"""A folder as the file editor's `view` shows it: two levels, hidden entries skipped, the first
entries by name however many there are, and each name shown so that it cannot pass for
something else (a line break in a name made up an entry)."""

from __future__ import annotations

import heapq
import os
from collections.abc import Iterator
from pathlib import Path

from openhands_tui.executors.local.files import EditorError

MAX_LISTING = 400
#: Entries shown per directory inside a listing (the rest are counted).
MAX_CHILDREN = 50


def folder_listing(root: Path) -> str:
    """What `view` shows of a folder: two levels, hidden entries skipped, bounded however big."""
    entries: list[str] = []
    children, more, problem = _first_entries(root, MAX_LISTING)
    if problem:  # not "(empty directory)": the model would believe it
        raise EditorError(f"{root}: cannot list it ({problem}).")
    for child in children:
        is_dir = _is_dir(child)
        entries.append(_shown_name(child.name) + ("/" if is_dir else ""))
        if is_dir and len(entries) < MAX_LISTING:
            grandchildren, hidden, problem = _first_entries(Path(child.path), MAX_CHILDREN)
            if problem:
                entries.append(f"{_shown_name(child.name)}/[cannot list it: {problem}]")
            entries += [
                f"{_shown_name(child.name)}/{_shown_name(g.name)}" + ("/" if _is_dir(g) else "") for g in grandchildren
            ]
            if hidden:
                entries.append(f"{_shown_name(child.name)}/[... {hidden:,} more entries ...]")
        if len(entries) >= MAX_LISTING:
            break
    if more or len(entries) >= MAX_LISTING:
        entries.append(f"[... listing cut at {MAX_LISTING} entries; view a subdirectory for the rest ...]")
    body = "\n".join(entries) if entries else "(empty directory)"
    return f"Files and directories in {root} (two levels, hidden items skipped):\n{body}"


def _first_entries(directory: Path, limit: int) -> tuple[list[os.DirEntry[str]], int, str]:
    """The first `limit` visible entries by name, how many more there are, and why the
    directory could not be listed ('' if it could), without sorting (or holding) all of a
    directory of 100,000 names."""
    total = 0

    def visible(scan: Iterator[os.DirEntry[str]]) -> Iterator[os.DirEntry[str]]:
        nonlocal total
        for entry in scan:
            if not entry.name.startswith("."):
                total += 1
                yield entry

    try:
        with os.scandir(directory) as scan:
            chosen = heapq.nsmallest(limit, visible(scan), key=lambda entry: entry.name)
    except OSError as exc:
        return [], 0, exc.strerror or str(exc)
    return chosen, total - len(chosen), ""


def _is_dir(entry: os.DirEntry[str]) -> bool:
    try:
        return entry.is_dir(follow_symlinks=False)
    except OSError:
        return False


def _shown_name(name: str) -> str:
    """A file name as text: bytes that are not UTF-8 become U+FFFD instead of breaking the result,
    and a name holding a line break or another control character is shown quoted, escapes
    visible (`'a\\nb'`): a repository's `x\\nsrc/secret_plan.md` was two entries of the listing,
    the second one made up."""
    text = name.encode("utf-8", errors="surrogateescape").decode("utf-8", errors="replace")
    if any(ord(c) < 32 or 127 <= ord(c) < 160 or c in "\u2028\u2029" for c in text):
        return repr(text)
    return text
