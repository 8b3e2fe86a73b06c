"""What a stdio MCP server runs from the workspace, so that the agent cannot change it unasked.

A server's program is code that starts again at every session, with the rights its entry gives
it (network, a writable workspace, or none of the sandbox at all). If the model could edit that
code — the script (`python tools/server.py`), a module it imports (`from tools import helpers`),
a file it `require`s (`node ./srv/index.js` -> `./lib.js`), the package folder a launcher runs
(`uv run --directory srv`) — it would choose what runs there next time, and what the tool's
annotations claim. Both walls cover these files, chosen together:

- **Registered among the session's trusted files** (`trusted.py`) when the server starts: an
  edit or a command that writes one is rated HIGH (so it is asked), and the terminal's jail
  binds it read-only, so project code the model runs cannot change it either. This holds
  during the session.
- **The trust digest covers their content** (`mcp_config._digest_with_programs`): a project's
  `.mcp.json` (or microagent) is trusted with these files as they were, so a change made
  anyway — approved in a hurry, or arriving with `git pull` — asks again before the server
  starts unjailed-by-trust at the next session. This holds across sessions.

Found by reading, never by running: Python's `import`s (absolute ones against the script's
folder and the server's folder, relative ones against the package), JavaScript's relative
`require`/`import`, and, in a shell script, words that name a workspace file. Only files inside
the workspace count (outside it the jail keeps everything read-only), never a virtual
environment's or `node_modules`' (installed packages, the sandbox's own business), and at most
`MAX_FILES` of them, so a huge project cannot make the start slow.
"""

from __future__ import annotations

import ast
import os
import re
from collections.abc import Iterable
from pathlib import Path
from typing import Protocol

from openhands_tui.sdk.files.read import read_regular
from openhands_tui.sdk.security.trusted import RUNS_AS_MCP_SERVER, TrustedFiles


class MCPServerConfig(Protocol):
    """What is read of a server's entry (`sdk.mcp_config.MCPServerConfig`, which imports this)."""

    @property
    def command(self) -> str | None: ...
    @property
    def args(self) -> list[str]: ...
    @property
    def cwd(self) -> str | None: ...


#: Most files followed for one server; the rest are not looked at.
MAX_FILES = 300
#: Largest file read to follow its imports.
_MAX_BYTES = 2 * 1024 * 1024
_PYTHON = (".py", ".pyw")
_JAVASCRIPT = (".js", ".mjs", ".cjs", ".ts", ".mts", ".cts", ".jsx", ".tsx")
_JS_IMPORT = re.compile(
    r"""(?:\brequire\s*\(\s*|\bimport\s*\(\s*|\bfrom\s*|\bimport\s+)(['"])(\.{1,2}/[^'"\n]{1,300})\1"""
)
_JS_SUFFIXES = ("", ".js", ".mjs", ".cjs", ".ts", ".mts", ".json", "/index.js", "/index.mjs", "/index.ts")
_SHELL_WORD = re.compile(r"""[\w./~-]+\.(?:py|js|mjs|cjs|ts|sh|bash)\b""")
_INSTALLED = {"site-packages", "dist-packages", "node_modules", ".venv", "venv", ".tox", ".nox"}


def server_programs(config: MCPServerConfig, workspace: Path) -> list[Path]:
    """The workspace files (and package folders) a stdio server runs, by real path, sorted."""
    if config.command is None:
        return []
    top = Path(os.path.realpath(workspace))
    base = _base(config, workspace)
    words = [config.command, *config.args]
    found: dict[Path, None] = {}
    queue: list[Path] = []
    for index, word in enumerate(words):
        if not word or "\0" in word:
            continue
        if index > 0 and words[index - 1] == "-m":  # `python -m tools.server`: the module is a file here
            queue += _python_module(word, [base], top)
            continue
        if word.startswith("-"):
            word = word.partition("=")[2]  # `--directory=srv`, `--from=./tools/mcp`
            if not word:
                continue
        candidate = _inside(base / os.path.expanduser(word), top)
        if candidate is not None:
            queue.append(candidate)
    while queue and len(found) < MAX_FILES:
        path = queue.pop(0)
        if path in found:
            continue
        found[path] = None
        if path.is_file():
            queue += [p for p in _loads(path, base, top) if p not in found]
    return sorted(found)


def note_server_programs(config: MCPServerConfig, workspace: Path, trusted: TrustedFiles) -> list[Path]:
    """Register what a starting server runs from the workspace among the session's `trusted`
    files (HIGH to write, read-only in the terminal's jail) for the rest of it; returns them."""
    programs = server_programs(config, workspace)
    for program in programs:
        trusted.note(str(program), RUNS_AS_MCP_SERVER)
    return programs


def program_files(programs: Iterable[Path]) -> list[Path]:
    """The files behind `programs` (a package folder's files, bounded), for a content digest."""
    files: list[Path] = []
    for program in programs:
        if not program.is_dir():
            files.append(program)
            continue
        for root, folders, names in os.walk(program):
            folders[:] = sorted(f for f in folders if f not in _INSTALLED and f != "__pycache__" and f != ".git")
            files += [Path(root) / name for name in sorted(names)]
            if len(files) > MAX_FILES * 4:
                return files
    return files


def _base(config: MCPServerConfig, workspace: Path) -> Path:
    """Where the server runs: its `cwd` (relative to the workspace), else the workspace."""
    if not config.cwd:
        return workspace
    return workspace / os.path.expanduser(config.cwd)


def _inside(path: Path, top: Path) -> Path | None:
    """`path`'s real path if it exists inside the workspace (never the workspace itself, nor an
    installed package's files), else None."""
    try:
        real = Path(os.path.realpath(path))
    except (OSError, ValueError):
        return None
    if real == top or not real.is_relative_to(top) or not real.exists():
        return None
    if _INSTALLED & set(real.relative_to(top).parts):
        return None
    return real


def _loads(path: Path, base: Path, top: Path) -> list[Path]:
    """The workspace files `path` imports, requires or names."""
    try:
        text = read_regular(path, _MAX_BYTES).decode("utf-8", errors="replace")
    except (OSError, ValueError):
        return []
    first = text.split("\n", 1)[0]
    if path.suffix in _PYTHON or (first.startswith("#!") and "python" in first):
        return _python_imports(text, path, base, top)
    if path.suffix in _JAVASCRIPT or (first.startswith("#!") and ("node" in first or "deno" in first)):
        return _javascript_imports(text, path, top)
    if path.suffix in (".sh", ".bash") or (first.startswith("#!") and "sh" in first):
        named = [_inside(root / word, top) for word in _SHELL_WORD.findall(text) for root in (path.parent, base)]
        return [p for p in named if p is not None]
    return []


def _python_imports(text: str, path: Path, base: Path, top: Path) -> list[Path]:
    try:
        tree = ast.parse(text)
    except (SyntaxError, ValueError, RecursionError, MemoryError):
        return []
    roots = [path.parent, base]
    found: list[Path] = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            for alias in node.names:
                found += _python_module(alias.name, roots, top)
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                package = path.parent
                for _ in range(node.level - 1):
                    package = package.parent
                search = [package]
                module = node.module or ""
            else:
                search, module = roots, node.module or ""
            if module:
                found += _python_module(module, search, top)
            for alias in node.names:  # `from tools import helpers`: a module, not a name
                found += _python_module(f"{module}.{alias.name}" if module else alias.name, search, top)
    return found


def _python_module(name: str, roots: list[Path], top: Path) -> list[Path]:
    """The files of module `a.b.c` under each root: `a/__init__.py`, `a/b/__init__.py` and
    `a/b/c.py` or `a/b/c/__init__.py` (what `import a.b.c` runs), where they are in the workspace."""
    parts = [p for p in name.split(".") if p]
    if not parts or not all(p.isidentifier() for p in parts):
        return []
    found: list[Path] = []
    for root in roots:
        for depth in range(1, len(parts) + 1):
            folder = root.joinpath(*parts[:depth])
            for candidate in (folder / "__init__.py", folder.with_suffix(".py"), folder / "__main__.py"):
                if depth < len(parts) and candidate.name != "__init__.py":
                    continue
                inside = _inside(candidate, top)
                if inside is not None and inside not in found:
                    found.append(inside)
    return found


def _javascript_imports(text: str, path: Path, top: Path) -> list[Path]:
    found: list[Path] = []
    for match in _JS_IMPORT.finditer(text):
        target = path.parent / match.group(2)
        for suffix in _JS_SUFFIXES:
            inside = _inside(Path(str(target) + suffix), top)
            if inside is not None and inside.is_file():
                found.append(inside)
                break
    return found
