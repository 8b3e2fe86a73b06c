"""`python -m openhands_tui`, run in the workspace, does not import the workspace's modules:
a `typer.py` the model wrote there would otherwise run inside `tui`, outside the sandbox (the
`tui` script was never affected)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path


def test_a_module_planted_in_the_workspace_is_not_imported(workspace: Path) -> None:
    marker = workspace / "ran"
    for name in ("typer", "pydantic", "textual"):
        (workspace / f"{name}.py").write_text(f"open({str(marker)!r}, 'a').write('{name} ')\n")
    run = subprocess.run(
        [sys.executable, "-m", "openhands_tui", "--version"], cwd=workspace, capture_output=True, text=True, timeout=60
    )
    assert run.returncode == 0, run.stderr
    assert run.stdout.strip().endswith("0.1.0")
    assert not marker.exists(), marker.read_text()
