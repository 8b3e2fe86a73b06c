"""Budgets from the command line stop a run cleanly, with exit 3 and which limit it was."""

from __future__ import annotations

from pathlib import Path

import pytest

from openhands_tui.testing import Script, ScriptedToolCall, Turn
from tests.conftest import model_args
from tests.launcher import WarmLauncher


def _busy(n: int) -> Turn:
    return Turn(tool_calls=[ScriptedToolCall(name="think", arguments={"thought": f"step {n}" * 200})])


@pytest.mark.parametrize(
    ("flags", "model", "said"),
    [
        (["--max-iterations", "3"], "openai/scripted", "iteration limit reached (3 model calls)"),
        (["--max-budget", "0.001"], "openai/gpt-4o-mini", "budget limit reached ($0.00"),
    ],
)
def test_a_budget_stops_the_run_with_exit_3(
    serve, workspace: Path, tmp_path: Path, forker: WarmLauncher, flags: list[str], model: str, said: str
) -> None:
    server = serve([Script(turns=[*(_busy(n) for n in range(40)), Turn.finish()])])
    args = ["--headless", "--task", "go", *model_args(server, model=model)]
    result = forker.run([*args, *flags, "--workspace", str(workspace)], tmp_path)
    assert result.returncode == 3, result.stderr
    assert said in result.stdout + result.stderr and "Traceback" not in result.stderr
    assert (
        f"paused: {said}" in result.stderr and "· session" in result.stderr
    )  # resumable: the budget can be raised and the run continued
