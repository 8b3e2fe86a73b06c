"""Files a session's instruction files pull in with `@path`, found when the session starts.

CLAUDE.md and GEMINI.md may say `@docs/conventions.md` on a line of its own; the loader puts
that file's text into every later session's first message (`context/imports.py`). It is then as
much an instruction file as CLAUDE.md itself, though its name says nothing: a command that
rewrites it (or creates it, when the import names a file not there yet) tells every later agent
what to do. Each is recorded with `note_trusted_file`, so writing it is HIGH and the sandbox
keeps it read-only, like the instruction file that imports it.
"""

from __future__ import annotations

import os
import re
from pathlib import Path

from openhands_tui.sdk.file_read import read_regular
from openhands_tui.sdk.sandbox import READ_AS_INSTRUCTIONS, note_trusted_file

#: The same lines the loader reads as imports: only `@path` on the line, outside code fences.
_IMPORT = re.compile(r"^[ \t]*@([^\s@`]+)[ \t]*$")
_FENCE = re.compile(r"^[ \t]*(```|~~~)")
MAX_DEPTH = 5
MAX_BYTES = 64 * 1024


def note_instruction_imports(instruction_files: list[Path], workspace: Path) -> list[Path]:
    """Record every file inside `workspace` the given instruction files import (and what those
    import, as deep as the loader follows); returns them."""
    top = os.path.realpath(workspace)
    found: list[Path] = []
    pending = [(path, 1) for path in instruction_files]
    seen: set[str] = set()
    while pending:
        path, depth = pending.pop()
        real = os.path.realpath(path)
        if real in seen or depth > MAX_DEPTH:
            continue
        seen.add(real)
        for target in _imports_of(path):
            resolved = os.path.realpath(target)
            if not resolved.startswith(top + os.sep):
                continue  # outside: the sandbox keeps it read-only anyway, and the loader skips it
            note_trusted_file(resolved, READ_AS_INSTRUCTIONS)
            found.append(Path(resolved))
            pending.append((Path(resolved), depth + 1))
    return found


def _imports_of(path: Path) -> list[Path]:
    try:
        text = read_regular(path, MAX_BYTES).decode("utf-8-sig", "replace")
    except OSError:
        return []
    targets, fenced = [], False
    for line in text.splitlines():
        if _FENCE.match(line):
            fenced = not fenced
            continue
        match = None if fenced else _IMPORT.match(line)
        if match is not None and not match.group(1).startswith("~"):
            targets.append(path.parent / match.group(1))
    return targets
