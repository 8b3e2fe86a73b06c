"""`tui` itself runs git on the workspace, unconfined (finding the repository's root and its
instruction files at start): a repository that arrived with a `.git/config` naming programs
(`core.fsmonitor`, which `git ls-files` runs) must not get them run."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest

from openhands_tui.sdk.context.rules import nested_instructions

pytestmark = pytest.mark.skipif(shutil.which("git") is None, reason="needs git")


def test_a_repositorys_fsmonitor_and_hooks_do_not_run_when_tui_reads_it(workspace: Path, tmp_path: Path) -> None:
    marker = tmp_path / "ran"
    program = tmp_path / "program.sh"
    program.write_text(f"#!/bin/sh\necho ran >> {marker}\nexit 1\n")
    program.chmod(0o755)
    subprocess.run(["git", "init", "-q", str(workspace)], check=True)
    (workspace / "AGENTS.md").write_text("Be brief.\n")
    (workspace / "pkg").mkdir()
    (workspace / "pkg" / "AGENTS.md").write_text("Nested.\n")
    for key in ("core.fsmonitor", "core.hooksPath", "core.pager"):
        subprocess.run(["git", "-C", str(workspace), "config", key, str(program)], check=True)
    listed = nested_instructions(workspace, {"agents.md": "AGENTS.md"}, [])
    assert not marker.exists()
    assert listed is not None and "pkg/AGENTS.md" in listed.content  # git still answered
    # the same call without the hardening runs it: the test would notice if git stopped doing so
    subprocess.run(["git", "-C", str(workspace), "ls-files", "--others"], capture_output=True, check=False)
    assert marker.exists()
