"""What a strategy does in its own process cannot hold `tui` or spoil its output: a worker
thread it never stopped does not keep a finished run from exiting, and what it prints does not
reach `--json`'s stdout, which carries events only."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from openhands_tui.testing import Script, Turn
from tests.conftest import model_args, run_tui

STRATEGIES = Path(__file__).parent.parent / "fixtures" / "strategies"


@pytest.mark.subprocess
def test_a_thread_the_strategy_left_running_does_not_hold_tui(serve, workspace: Path) -> None:
    server = serve([Script(turns=[Turn.finish("done")])])
    strategy = str(STRATEGIES / "leaves_a_thread.py")
    args = ["--headless", "--strategy", strategy, "--task", "go", *model_args(server), "--workspace", str(workspace)]
    result = run_tui(*args, fresh=True, timeout=90)  # a fresh interpreter: its own exit is what is tested
    assert result.returncode == 0, result.stderr
    assert "not waiting for threads still running after the run ended (strategy-poller)" in result.stderr


def test_json_stdout_holds_events_only_when_the_strategy_prints(serve, workspace: Path) -> None:
    server = serve([Script(turns=[Turn.finish("done")])])
    strategy = str(STRATEGIES / "prints.py")
    args = ["--headless", "--json", "--strategy", strategy, "--task", "go", *model_args(server)]
    result = run_tui(*args, "--workspace", str(workspace), timeout=90)
    assert result.returncode == 0, result.stderr
    lines = result.stdout.splitlines()
    assert lines and all(isinstance(json.loads(line), dict) for line in lines), result.stdout[:500]
    assert "setting up the printing strategy" in result.stderr
    assert "building the printing strategy's agent" in result.stderr
