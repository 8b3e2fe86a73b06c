"""How far below the workspace `tui` looks for what nested folders hold: the terminal sandbox
(nested repositories' hooks and config, nested instruction files: kept read-only) and the
context loader (a monorepo's package skills: read). One set of bounds for both, so the loader
never reads a folder the sandbox's look did not reach (and left writable)."""

from __future__ import annotations

#: How deep (`a/b/c/.git` is depth 3; a monorepo vendors at `packages/web/vendor/lib/x`, depth 5)
#: and how many folders one look may open: the look is breadth first, so the budget bounds its
#: cost however deep it may go (~20 ms on a 2,000-folder site-packages, the same at depth 3 and 6).
DEPTH = 6
MAX_DIRECTORIES = 2000
#: Trees that hold nothing the user works in, and can be huge; build output too, where tools
#: clone dependencies (CMake's `build/_deps/x-src/.git`) that `rm -rf build` must still delete
#: (a protected path is a mount point: it cannot be removed).
SKIPPED = frozenset(
    {
        "build",
        "_deps",
        "dist",
        "out",
        ".build",
        ".git",
        "node_modules",
        ".venv",
        "venv",
        "__pycache__",
        ".tox",
        ".nox",
        ".mypy_cache",
        ".ruff_cache",
        ".pytest_cache",
        ".cache",
        "site-packages",
        "target",
        ".gradle",
        ".terraform",
    }
)
