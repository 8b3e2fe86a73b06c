"""Which language server reads which files: one table, the user's `[lsp.NAME]` entries over it.

A server is found where the user would run it (PATH), or beside our own interpreter (a server
installed into the same environment as tui, as the development install does). Missing, it is
a one-line notice once per session, never an error.
"""

from __future__ import annotations

import os
import shutil
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Any


@dataclass(frozen=True)
class ServerSpec:
    language: str
    command: tuple[str, ...]
    extensions: tuple[str, ...]
    #: The LSP languageId sent with each document.
    language_id: str


#: The built-in table: a checker that reports type errors for Python (basedpyright, from PyPI),
#: TypeScript's own server for TypeScript and JavaScript (npm: typescript-language-server).
BUILT_IN = (
    ServerSpec("python", ("basedpyright-langserver", "--stdio"), (".py", ".pyi"), "python"),
    ServerSpec("typescript", ("typescript-language-server", "--stdio"), (".ts", ".tsx", ".js", ".jsx"), "typescript"),
)


def server_table(config: dict[str, Any]) -> tuple[list[ServerSpec], bool]:
    """The servers, with the user's `[lsp.NAME]` (`command`, `extensions`) over the built-in ones,
    and whether diagnostics are on (`[lsp] enabled = false` turns them off)."""
    section = config.get("lsp", {})
    section = section if isinstance(section, dict) else {}
    enabled = section.get("enabled", True) is not False
    table = {spec.language: spec for spec in BUILT_IN}
    for name, entry in section.items():
        if not isinstance(entry, dict):
            continue
        base = table.get(name)
        command = entry.get("command", list(base.command) if base else None)
        extensions = entry.get("extensions", list(base.extensions) if base else None)
        if isinstance(command, list) and command and isinstance(extensions, list):
            language_id = base.language_id if base else name
            table[name] = ServerSpec(name, tuple(map(str, command)), tuple(map(str, extensions)), language_id)
    return list(table.values()), enabled


def spec_for(path: Path, table: list[ServerSpec]) -> ServerSpec | None:
    return next((spec for spec in table if path.suffix in spec.extensions), None)


def find_program(name: str) -> str | None:
    """`name` on PATH, else beside our interpreter (the environment tui is installed in)."""
    if os.sep in name:
        return name if os.access(name, os.X_OK) else None
    found = shutil.which(name)
    if found:
        return found
    beside = Path(sys.executable).parent / name
    return str(beside) if beside.is_file() and os.access(beside, os.X_OK) else None
