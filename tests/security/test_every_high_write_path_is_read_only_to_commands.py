"""The two walls keep one list: every path of the protected-paths table that the risk rules rate
HIGH to write is, against real bubblewrap, read-only to commands where it exists and removed
after a command that creates it. Project code runs unasked, so a path the rules guard but the
jail does not is a path any test the model writes can plant."""

from __future__ import annotations

from pathlib import Path

import pytest

from openhands_tui.jail.bubblewrap import find_bubblewrap
from openhands_tui.sdk.facts.event import Risk
from openhands_tui.sdk.security.files import assess_edit
from openhands_tui.sdk.security.protected_paths import TABLE, ProtectedPath
from openhands_tui.sdk.tool import ToolContext
from openhands_tui.tools.terminal import TerminalAction, TerminalTool

pytestmark = pytest.mark.skipif(find_bubblewrap().path is None, reason=f"no bubblewrap: {find_bubblewrap().problem}")


def _concrete(pattern: str) -> str:
    """A path a pattern matches: `*.code-workspace` -> `sample.code-workspace`."""
    path = pattern.replace("lib/*/", "lib/python3.11/")
    return path.replace("*", "sample")


def _places(entry: ProtectedPath) -> list[str]:
    """Where an entry counts, relative to the workspace: the top, a nested folder, a virtualenv."""
    path = _concrete(entry.pattern)
    if entry.scope == "root":
        return [path]
    if entry.scope == "venv":
        return [f".venv/{path}"]
    return [path, f"pkg/sub/{path}"]


GUARDED = [e for e in TABLE if not e.commands_write]
PLACES = sorted({place for entry in GUARDED for place in _places(entry)})


def test_the_table_leaves_commands_only_what_git_writes_itself() -> None:
    exempt = {e.id: e.commands_write for e in TABLE if e.commands_write}
    assert set(exempt) == {"vcs.git", "vcs.hg", "vcs.svn"}, exempt
    assert len(GUARDED) > 150


@pytest.mark.parametrize("place", PLACES)
def test_the_rules_rate_a_write_there_high(place: str, workspace: Path) -> None:
    findings = assess_edit(str(workspace / place), str(workspace))
    assert max(f.risk.severity for f in findings) == Risk.HIGH.severity, (place, findings)


def _command(places: list[str], action: str) -> str:
    quoted = " ".join(f"'{p}'" for p in places)
    return f"for f in {quoted}; do {action}; done 2>/dev/null; echo done"


async def test_an_existing_one_cannot_be_changed_or_removed(workspace: Path) -> None:
    (workspace / ".venv" / "pyvenv.cfg").parent.mkdir(parents=True)
    for place in PLACES:
        target = workspace / place
        target.parent.mkdir(parents=True, exist_ok=True)
        if not target.exists():
            target.write_text("original\n")
    (workspace / "control.txt").write_text("original\n")  # an ordinary file: the loop did run
    tool = TerminalTool(ToolContext(workspace, "root"))
    try:
        await tool.run(TerminalAction(command=_command([*PLACES, "control.txt"], 'echo planted >> "$f"')))
        await tool.run(TerminalAction(command=_command(PLACES, 'rm -f "$f"; mv "$f" "$f.moved"')))
    finally:
        await tool.close()
    assert (workspace / "control.txt").read_text() == "original\nplanted\n"
    changed = [p for p in PLACES if not (workspace / p).is_file() or (workspace / p).read_text() != "original\n"]
    assert changed == []


async def test_a_new_one_a_command_makes_is_removed_after_it(workspace: Path) -> None:
    (workspace / ".venv").mkdir()
    (workspace / ".venv" / "pyvenv.cfg").write_text("home = /usr/bin\n")
    made = [p for p in PLACES if p != ".venv/pyvenv.cfg"]
    tool = TerminalTool(ToolContext(workspace, "root"))
    try:
        await tool.run(
            TerminalAction(
                command=_command([*made, "src/control.txt"], 'mkdir -p "$(dirname "$f")"; echo planted > "$f"')
            )
        )
    finally:
        await tool.close()
    assert (workspace / "src" / "control.txt").read_text() == "planted\n"  # the loop did run
    kept = [p for p in made if (workspace / p).exists() and "planted" in (workspace / p).read_text(errors="replace")]
    assert kept == []
