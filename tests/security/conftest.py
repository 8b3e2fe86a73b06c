from __future__ import annotations

from pathlib import Path

import pytest

from openhands_tui.jail.bubblewrap import find_bubblewrap
from openhands_tui.sdk.facts.event import Risk
from openhands_tui.sdk.security.analyzer import Assessment
from openhands_tui.sdk.security.commands import assess_command
from openhands_tui.sdk.security.trusted import TrustedFiles

#: For a test that runs commands in the sandbox (real bubblewrap).
needs_bwrap = pytest.mark.skipif(find_bubblewrap().path is None, reason=f"no bubblewrap: {find_bubblewrap().problem}")


@pytest.fixture
def project(tmp_path: Path) -> Path:
    path = tmp_path / "project"
    (path / "src").mkdir(parents=True)
    return path


@pytest.fixture
def secret_project(tmp_path: Path) -> Path:
    """A workspace with a `.env` holding a token and an ordinary file beside it."""
    path = tmp_path / "project"
    path.mkdir()
    (path / ".env").write_text("TOKEN=abcdefgh12345678\n")
    (path / "notes.txt").write_text("TODO\n")
    return path


@pytest.fixture
def hooked_project(tmp_path: Path) -> Path:
    """A workspace with git's hooks folder and a `.env` holding a token."""
    path = tmp_path / "project"
    (path / ".git" / "hooks").mkdir(parents=True)
    (path / ".env").write_text("TOKEN=abcdefgh12345678\n")
    return path


def rate(command: str, workspace: Path, trusted: TrustedFiles | None = None) -> Risk:
    """`trusted`: the session's trusted files the command is judged with (None: none)."""
    return Assessment.from_findings(assess_command(command, str(workspace), trusted=trusted)).risk
