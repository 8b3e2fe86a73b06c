from __future__ import annotations

from pathlib import Path

import pytest

from openhands_tui.sdk.facts.event import Risk
from openhands_tui.sdk.security.analyzer import Assessment
from openhands_tui.sdk.security.commands import assess_command


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


def rate(command: str, workspace: Path) -> Risk:
    return Assessment.from_findings(assess_command(command, str(workspace))).risk
