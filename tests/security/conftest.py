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


#: A project's own strategy importing a helper module beside it (`{helper}`: its name).
STRATEGY_WITH_HELPER = '''\
"""A project's own strategy: solo, with a prompt kept in a helper module beside it."""
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))
import {helper} as helper

from openhands_tui.sdk import Agent, AgentContext
from openhands_tui.sdk.strategy import Strategy
from openhands_tui.tools.preset.default import get_default_tools


class Mine(Strategy):
    name = "mine"

    def build_agent(self, llm, params=None):
        context = AgentContext(system_message_suffix=helper.PROMPT)
        return Agent(llm=llm, tools=get_default_tools(), agent_context=context)
'''


def strategy_project(workspace: Path, helper: str) -> Path:
    """`strategies/mine.py` importing `strategies/<helper>.py`; the helper's name differs per test
    (the import system keeps a module by name for the whole process)."""
    folder = workspace / "strategies"
    folder.mkdir()
    (folder / f"{helper}.py").write_text('PROMPT = "be careful"\n')
    strategy = folder / "mine.py"
    strategy.write_text(STRATEGY_WITH_HELPER.replace("{helper}", helper))
    (workspace / "notes.txt").write_text("ordinary\n")
    return strategy
