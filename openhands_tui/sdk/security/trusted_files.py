"""Files `tui` trusts outside the sandbox that only the session's start can find: what a
session's instruction files pull in with `@path`, and `tui`'s own installation when it lives
inside the workspace.

CLAUDE.md and GEMINI.md may say `@docs/conventions.md` on a line of its own; the loader puts
that file's text into every later session's first message (`context/imports.py`). It is then as
much an instruction file as CLAUDE.md itself, though its name says nothing: a command that
rewrites it (or creates it, when the import names a file not there yet) tells every later agent
what to do. Each is recorded in the session's `TrustedFiles`, so writing it is HIGH and the
sandbox keeps it read-only, like the instruction file that imports it.
"""

from __future__ import annotations

import os
import re
import sys
from collections.abc import Iterable
from pathlib import Path
from types import ModuleType

from openhands_tui.sdk.files.read import read_regular
from openhands_tui.sdk.security.trusted import READ_AS_INSTRUCTIONS, TrustedFiles

OWN_INSTALLATION = "this tool's own installation (it runs this code outside the sandbox at every start)"
_INSTALLED = ("site-packages", "dist-packages")

#: The same lines the loader reads as imports: only `@path` on the line, outside code fences.
_IMPORT = re.compile(r"^[ \t]*@([^\s@`]+)[ \t]*$")
_FENCE = re.compile(r"^[ \t]*(```|~~~)")
MAX_DEPTH = 5
MAX_BYTES = 64 * 1024


def note_instruction_imports(instruction_files: list[Path], workspace: Path, trusted: TrustedFiles) -> list[Path]:
    """Record in `trusted` (the session's) every file inside `workspace` the given instruction
    files import (and what those import, as deep as the loader follows); returns them."""
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
            trusted.note(resolved, READ_AS_INSTRUCTIONS)
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


def note_own_installation(
    workspace: Path, trusted: TrustedFiles, modules: Iterable[ModuleType] | None = None
) -> list[str]:
    """When `tui` runs from a virtualenv inside the workspace (`.venv`, the project's own), the
    packages it has loaded (itself, litellm, pydantic...), the venv's `pyvenv.cfg` and the entry
    script are code it runs unconfined at the next start: each is recorded in `trusted` (HIGH to write,
    read-only to commands). Returns a warning for the user, or none: such an installation
    shares its packages with the project, and a `pip install` there (MEDIUM, like any install
    from the registry) can still add start-up code; `pipx` or `uv tool` keep `tui` apart."""
    top = os.path.realpath(workspace)
    inside = lambda path: path.startswith(top + os.sep)  # noqa: E731
    found: set[str] = set()
    # only an import-path folder inside the workspace can hold what was loaded from there: a
    # few realpaths, not one per loaded module (thousands, half a second at start)
    places = [entry for entry in sys.path if os.path.isabs(entry) and inside(os.path.realpath(entry))]
    installed = [entry for entry in places if any(part in _INSTALLED for part in Path(entry).parts)]
    for module in (list(sys.modules.values()) if modules is None else modules) if installed else []:
        filename = getattr(module, "__file__", None)
        if not isinstance(filename, str) or not any(filename.startswith(entry + os.sep) for entry in installed):
            continue
        parts = Path(os.path.realpath(filename)).parts
        place = next((i for i, part in enumerate(parts) if part in _INSTALLED), None)
        if place is not None and place + 1 < len(parts) and inside(str(Path(*parts))):
            found.add(str(Path(*parts[: place + 2])))  # site-packages/<package> or the module file
    own = sys.modules.get("openhands_tui")
    own_file = getattr(own, "__file__", None) or ""
    editable = bool(own_file) and inside(os.path.realpath(own_file)) and not installed
    for path in (os.path.join(sys.prefix, "pyvenv.cfg"), sys.argv[0] if sys.argv else ""):
        if path and os.path.isfile(path) and inside(os.path.realpath(path)):
            found.add(os.path.realpath(path))
    for path in sorted(found):
        trusted.note(path, OWN_INSTALLATION)
    if found:
        return [
            f"tui is installed inside the workspace ({os.path.relpath(sys.prefix, top)}): its packages are kept "
            "read-only to commands, but an install there can still change what tui runs; install it with pipx "
            "or uv tool to keep the two apart"
        ]
    if editable:
        return [
            "tui runs from source inside the workspace (an editable install): what the agent changes there "
            "runs, unconfined, at tui's next start"
        ]
    return []
