"""`@path` imports in instruction files, as Claude Code (CLAUDE.md) and Gemini CLI (GEMINI.md)
read them.

Many repositories keep one AGENTS.md and a CLAUDE.md that says `@AGENTS.md`, or split their
rules into `@docs/conventions.md`. A line holding only `@path` is replaced by that file's text,
as those tools do, so the agent is told the rules and not a file name. An import of an
instruction file that is always on anyway (`@AGENTS.md` beside AGENTS.md) is not repeated.

Imports are the repository's to choose: a path outside the repository (`@~/.ssh/id_rsa`,
`@../../etc/passwd`, a link out) is not read, nor a file inside it that holds credentials
(`@.env`, a key: the rules would ask before the agent read it, and an import would send it in
every request), and neither is anything big, unreadable, or nested deeper than Claude Code's
five levels; each such line stays as written, with a warning.
"""

from __future__ import annotations

import os
import re
from pathlib import Path

from openhands_tui.sdk.files.read import read_regular
from openhands_tui.sdk.security.files import credentials_reason

MAX_DEPTH = 5
MAX_IMPORT_BYTES = 64 * 1024
_IMPORT = re.compile(r"^[ \t]*@([^\s@`]+)[ \t]*$")
_FENCE = re.compile(r"^[ \t]*(```|~~~)")


def expand_imports(
    text: str, path: Path, root: Path, always_on: set[str], warnings: list[str], *, base: Path | None = None
) -> str:
    """`text` (from `path`, in repository `root`) with its `@path` lines replaced by the files
    they name. `always_on`: real paths of files the agent gets anyway. `base`: what the paths
    are relative to, when not `path`'s folder (a command's `@src/x.md` names a file of the
    project, as Claude Code and Cursor read it)."""
    return _expand(text, path, root, always_on, warnings, depth=1, seen={os.path.realpath(path)}, base=base)


def _expand(
    text: str,
    path: Path,
    root: Path,
    always_on: set[str],
    warnings: list[str],
    *,
    depth: int,
    seen: set[str],
    base: Path | None = None,
) -> str:
    lines = text.splitlines(keepends=True)
    fenced = False
    for index, line in enumerate(lines):
        if _FENCE.match(line):
            fenced = not fenced
            continue
        match = None if fenced else _IMPORT.match(line)
        if match is None:
            continue
        target = ((base or path.parent) / match.group(1)).resolve() if not match.group(1).startswith("~") else None
        replacement = _imported(match.group(1), target, path, root, always_on, warnings, depth=depth, seen=seen)
        if replacement is not None:
            lines[index] = replacement if replacement.endswith("\n") else replacement + "\n"
    return "".join(lines)


def _imported(
    written: str,
    target: Path | None,
    path: Path,
    root: Path,
    always_on: set[str],
    warnings: list[str],
    *,
    depth: int,
    seen: set[str],
) -> str | None:
    """The text an import stands for, or None to leave the line as written."""
    if target is None or not _inside(target, root):
        warnings.append(f"{path}: @{written} not imported, it is outside the repository")
        return None
    secret = credentials_reason(str(target), str(root))
    if secret is not None:
        warnings.append(f"{path}: @{written} not imported, {secret}")
        return None
    real = os.path.realpath(target)
    if real not in seen and real in always_on:
        return f"(@{written}: given above)"
    if not target.is_file():
        return None  # `@someone` in prose, or a file that is not there: text, as written
    if real in seen or depth > MAX_DEPTH:
        warnings.append(f"{path}: @{written} not imported, imports nest too deep or loop")
        return None
    try:
        imported = read_regular(target, MAX_IMPORT_BYTES).decode("utf-8-sig")
    except (OSError, UnicodeDecodeError) as exc:
        warnings.append(f"{path}: @{written} not imported ({getattr(exc, 'strerror', None) or exc})")
        return None
    return _expand(imported, target, root, always_on, warnings, depth=depth + 1, seen={*seen, real}).strip()


def _inside(target: Path, root: Path) -> bool:
    real, inside = os.path.realpath(target), os.path.realpath(root)
    return real == inside or real.startswith(inside.rstrip(os.sep) + os.sep)
