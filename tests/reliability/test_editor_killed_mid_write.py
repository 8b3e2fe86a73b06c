"""A file editor write cut short by the process dying leaves the workspace as it was: the old
file whole, and no half-written temporary beside it (a `kill -9` mid-edit used to leave a
`.*.tmp` of each file in the workspace for good)."""

from __future__ import annotations

import signal
import subprocess
import sys
from pathlib import Path

SCRIPT = Path(__file__).parent.parent / "fixtures" / "processes" / "dies_mid_write.py"


def test_a_write_cut_short_leaves_no_temporary_and_the_old_file_whole(tmp_path: Path) -> None:
    workspace = tmp_path / "workspace"
    workspace.mkdir()
    target = workspace / "notes.txt"
    target.write_text("the old content\n")
    died = subprocess.run([sys.executable, str(SCRIPT), str(target)], capture_output=True, timeout=60)
    assert died.returncode == -signal.SIGXFSZ, died.stderr.decode(errors="replace")
    assert sorted(p.name for p in workspace.iterdir()) == ["notes.txt"]
    assert target.read_text() == "the old content\n"
