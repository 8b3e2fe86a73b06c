"""A state directory that fills up at the start of a run or just as it finishes (the middle of a
run is test_processes.py's): the run ends with one line naming the full disk and exit 1, nothing
prints a traceback — not even `logging` failing to write tui.log — and what was written loads.
The state directory is a small tmpfs inside bubblewrap; at the finish, the model's own command
fills it, in the same answer as its `finish`."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

from openhands_tui.testing import Script, ScriptedToolCall, Turn
from tests.reliability.test_processes import _in_jail, _tui_flags, pytestmark_bwrap

pytestmark = [pytestmark_bwrap, pytest.mark.subprocess]

LOADER = (
    "from openhands_tui.sdk.facts.store import SessionStore;"
    " print('LOADED', len(SessionStore().open('last').load().events))"
)


def _run_then_load(server, workspace: Path, state: Path, size: int) -> tuple[str, str]:
    python, flags = sys.executable, _tui_flags(server, workspace)
    script = (
        f"XDG_STATE_HOME={state} {python} -m openhands_tui {flags}; echo EXIT=$?; "
        f'XDG_STATE_HOME={state} {python} -c "{LOADER}"'
    )
    result = _in_jail(["--size", str(size), "--tmpfs", str(state)], script)
    assert "Traceback" not in result.stderr and "Logging error" not in result.stderr, result.stderr
    assert "EXIT=1" in result.stdout, result.stdout + result.stderr
    return result.stdout, result.stderr


def test_a_disk_full_at_the_start_is_one_line(serve, workspace: Path, tmp_path: Path) -> None:
    server = serve([Script(turns=[Turn.finish("never")])])
    state = tmp_path / "state"
    state.mkdir()
    _, stderr = _run_then_load(server, workspace, state, 4096)
    lines = [line for line in stderr.splitlines() if line.startswith("tui: ")]
    assert len(lines) == 1 and lines[0].startswith(f"tui: disk full: {state}/"), stderr
    assert not server.requests


def test_a_disk_full_as_the_run_finishes_ends_it_with_the_usual_last_line(
    serve, workspace: Path, tmp_path: Path
) -> None:
    fill = ScriptedToolCall(name="terminal", arguments={"command": 'head -c 5000000 /dev/zero > "$XDG_STATE_HOME/x"'})
    finish = ScriptedToolCall(name="finish", arguments={"message": "done"})
    server = serve([Script(turns=[Turn.call("terminal", command="seq 500"), Turn(tool_calls=[fill, finish])])])
    state = tmp_path / "state"
    state.mkdir()
    stdout, stderr = _run_then_load(server, workspace, state, 1 << 20)
    last = stderr.strip().splitlines()[-1]
    assert last.startswith("error: disk full: ") and "(resume with: tui --resume " in last, stderr
    assert int(stdout.split("LOADED")[1].split()[0]) > 3
