"""The files `tui` itself trusts outside the sandbox in one session, and why.

Rules decide whether to ask and the sandbox what a command can touch; both must know the files
whose change reaches past them: Python `tui` runs unconfined (a session's strategy, the modules
it imports, its own installation in a workspace venv), what an MCP server runs from the
workspace (its script and the modules it loads: `mcp_programs.py`), and text it hands every
later session (a file an instruction file imports). Whoever finds one records it in the
session's `TrustedFiles` (the strategy loader, the launcher, the MCP client); the path rules
rate writing it HIGH and the terminal's sandbox keeps it read-only. Each session has its own
record (`Runtime.trusted`), handed to each of them: two sessions in one process (an editor's
ACP agent serving two, a test run) do not see each other's.
"""

from __future__ import annotations

import os

RUNS_OUTSIDE = "code this tool runs outside the sandbox (a session's strategy or a module it imports)"
READ_AS_INSTRUCTIONS = "agent instructions (an instruction file imports it with @path)"
RUNS_AS_MCP_SERVER = "code an MCP server runs (its script or a module it loads; it starts again next session)"
RUNS_AS_HOOK = "code a hook runs outside the sandbox (a script a hooks file names)"
#: Reasons for code that runs: Python's compiled cache of such a file is the same code.
_RUNS_CODE = (RUNS_OUTSIDE, RUNS_AS_MCP_SERVER, RUNS_AS_HOOK)


class TrustedFiles:
    """Files `tui` trusts outside the sandbox in one session, by real path, with why: the Python
    it runs unconfined (the session's strategy file, the project modules it imported, the
    strategies of earlier sessions in this workspace, which a `--resume` loads again), what its
    MCP servers run, and the files an instruction file pulls into every later session
    (`@docs/rules.md` in CLAUDE.md). A command or edit that changes one changes what runs or
    what agents are told next time: writing one is rated HIGH and the sandbox binds it read-only.
    It only grows, for as long as the session lasts."""

    def __init__(self) -> None:
        self._reasons: dict[str, str] = {}

    def note(self, path: str, reason: str = RUNS_OUTSIDE) -> None:
        """Record a file (or a folder: everything below it) `tui` runs or reads as instructions
        outside the sandbox. A link is recorded as itself too: `tui --strategy ./s.py` follows
        whatever `s.py` points at next time."""
        self._reasons.setdefault(os.path.realpath(path), reason)
        if os.path.islink(path):
            self._reasons.setdefault(os.path.abspath(path), reason)

    def paths(self) -> frozenset[str]:
        """The real paths of every file recorded with `note`."""
        return frozenset(self._reasons.copy())  # one step: the MCP client may add while the jail reads

    def reason(self, resolved: str, workspace: str | None = None) -> str | None:
        """Why writing the real path `resolved` changes what `tui` runs or tells agents, or None.
        Python reads a module's `__pycache__/<name>.*.pyc` instead of its source when the pyc's
        recorded size and time match, so a forged pyc is the same code as the module.
        `workspace`: a trusted folder that holds it (a strategy that put `.` on the import path)
        does not make every file of the work trusted; the start of the session warns about that
        instead."""
        trusted = self._reasons
        if not trusted:
            return None
        if resolved in trusted:
            return trusted[resolved]
        for parent in _parents(resolved):  # a file inside a trusted folder (a package, an import path)
            if parent in trusted and not (workspace and (workspace + os.sep).startswith(parent + os.sep)):
                return trusted[parent]  # (never the workspace itself: that is where the work is)
        directory, name = os.path.split(resolved)
        if os.path.basename(directory) == "__pycache__" and name.endswith(".pyc"):
            source = os.path.join(os.path.dirname(directory), name.split(".", 1)[0] + ".py")
            if trusted.get(source) == RUNS_OUTSIDE:
                return (
                    "compiled code this tool runs outside the sandbox "
                    "(the cache of a session's strategy or its modules)"
                )
            if trusted.get(source) in _RUNS_CODE:
                return "compiled code an MCP server runs (the cache of its script or a module it loads)"
        return None


def _parents(path: str) -> list[str]:
    parents, current = [], os.path.dirname(path)
    while current and current != os.path.dirname(current):
        parents.append(current)
        current = os.path.dirname(current)
    return parents
