from __future__ import annotations

from pathlib import Path

import pytest

from openhands_tui.sdk.event import Risk
from openhands_tui.sdk.security.analyzer import Assessment
from openhands_tui.sdk.security.commands import assess_command


@pytest.fixture
def project(tmp_path: Path) -> Path:
    path = tmp_path / "project"
    (path / "src").mkdir(parents=True)
    return path


def rate(command: str, workspace: Path) -> Risk:
    return Assessment.from_findings(assess_command(command, str(workspace))).risk
