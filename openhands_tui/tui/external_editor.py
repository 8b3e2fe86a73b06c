"""The prompt's text edited in the user's own editor (Ctrl+G): `$VISUAL`, else `$EDITOR`, else
nano, else vi.

The editor is the user's program, chosen by the user, so it runs as they run it: unsandboxed, in
their terminal while the app is suspended. The text goes through a temporary file only they
can read (mode 600: a prompt may quote a secret), removed afterwards whatever happens.
"""

from __future__ import annotations

import os
import shlex
import shutil
import subprocess
import tempfile
from collections.abc import Mapping
from pathlib import Path

FALLBACKS = ("nano", "vi")


class EditorProblem(Exception):
    """The editor could not be run, or failed: said in one line."""


def editor_command(environ: Mapping[str, str] | None = None) -> list[str]:
    """The editor to run, as words (`code --wait` is two); EditorProblem if there is none."""
    environ = os.environ if environ is None else environ
    for variable in ("VISUAL", "EDITOR"):
        value = environ.get(variable, "").strip()
        if value:
            try:
                words = shlex.split(value)
            except ValueError as exc:
                raise EditorProblem(f"${variable} cannot be read ({exc})") from None
            if words:
                return words
    for fallback in FALLBACKS:
        if shutil.which(fallback):
            return [fallback]
    raise EditorProblem("No editor found: set $EDITOR (nano and vi are not installed)")


def edit_text(text: str, command: list[str]) -> str:
    """`text` as the user left it in `command`'s editor (one trailing newline, which editors add,
    taken off). EditorProblem if it cannot start or exits with an error."""
    descriptor, name = tempfile.mkstemp(prefix="openhands-prompt-", suffix=".md")  # mode 600
    path = Path(name)
    try:
        with os.fdopen(descriptor, "w", encoding="utf-8") as file:
            file.write(text)
        try:
            done = subprocess.run([*command, name], check=False)
        except OSError as exc:
            raise EditorProblem(f"Editor {command[0]!r} could not start: {exc.strerror or exc}") from None
        if done.returncode != 0:
            raise EditorProblem(f"Editor {command[0]!r} exited with {done.returncode}: the prompt is unchanged")
        edited = path.read_text(encoding="utf-8", errors="replace")
    finally:
        path.unlink(missing_ok=True)
    return edited[:-1] if edited.endswith("\n") else edited
