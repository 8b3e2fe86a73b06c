"""What a flaky provider or a confused model does to a real headless run: every case either
continues and finishes or ends with a clear one-line status, and no traceback reaches the user.
(Each run is the real CLI in its own process, forked from a pre-warmed launcher: tests/warm_tui.py.)"""

from __future__ import annotations

import socket
from pathlib import Path

import pytest

from openhands_tui.testing import Script, ScriptedToolCall, Turn
from tests.conftest import model_args
from tests.launcher import WarmLauncher

FAST = {"LLM_TIMEOUT": "1", "LLM_NUM_RETRIES": "3", "LLM_RETRY_MIN_WAIT": "0.05", "LLM_RETRY_MAX_WAIT": "0.2"}


def _echo(n: int) -> Turn:
    return Turn(tool_calls=[ScriptedToolCall(name="terminal", arguments={"command": f"echo {n}"})])


SUMMARIZER = Script(name="summarizer", match="You condense the middle", turns=[Turn(text="Echoed 0-7.")])

CASES = {
    "429 twice, then an answer": [Turn(fault="429", retry_after=0.1, repeat=2), Turn.finish("done")],
    "a 500, then an answer": [Turn(fault="500"), Turn.finish("done")],
    "a hang past the timeout": [Turn(fault="hang"), Turn.finish("done")],
    "malformed tool-call JSON": [
        Turn(tool_calls=[ScriptedToolCall(name="terminal", arguments='{"command": "ls"')]),
        Turn.finish("done"),
    ],
    "an unknown tool": [Turn.call("browse_web", url="https://example.com"), Turn.finish("done")],
    "a context-window error": [*(_echo(n) for n in range(8)), Turn(fault="context_window"), Turn.finish("done")],
}


@pytest.mark.parametrize("case", list(CASES))
def test_each_fault_is_survived_without_a_traceback(
    serve, workspace: Path, tmp_path: Path, forker: WarmLauncher, case: str
) -> None:
    server = serve([SUMMARIZER, Script(turns=CASES[case])])
    args = ["--headless", "--task", "go", *model_args(server)]
    result = forker.run([*args, "--workspace", str(workspace)], tmp_path, env=FAST)
    shown = result.stdout + result.stderr
    assert "Traceback" not in shown
    assert result.returncode == 0, shown
    assert "done" in result.stdout and "finished · session" in result.stderr
    if case == "malformed tool-call JSON":
        assert "not valid JSON" in server.requests[1].messages[-1]["content"]
    if case == "an unknown tool":
        assert "There is no tool named 'browse_web'" in server.requests[1].messages[-1]["content"]
    if case == "a context-window error":
        assert len(server.requests_for("summarizer")) == 1


def test_a_provider_that_keeps_failing_ends_with_a_clear_status(
    serve, workspace: Path, tmp_path: Path, forker: WarmLauncher
) -> None:
    server = serve([Script(turns=[Turn(fault="500", repeat=10)])])
    args = ["--headless", "--task", "go", *model_args(server)]
    result = forker.run([*args, "--workspace", str(workspace)], tmp_path, env=FAST)
    assert "Traceback" not in result.stdout + result.stderr
    assert result.returncode == 1
    assert "the model call failed" in result.stdout + result.stderr and "error: the model call failed" in result.stderr
    assert len(server.requests) == 4  # one call and three retries: one retry layer, not three


@pytest.mark.parametrize("scheme", ["http", "https"])
def test_a_model_server_that_is_not_there_is_said_once_plainly_after_two_retries(
    workspace: Path, tmp_path: Path, forker: WarmLauncher, scheme: str
) -> None:
    with socket.socket() as held:  # a port that is ours and where nothing listens
        held.bind(("127.0.0.1", 0))
        port = held.getsockname()[1]
        args = ["--headless", "--task", "go", "--model", "openai/x", "--api-key", "k"]
        args += ["--base-url", f"{scheme}://127.0.0.1:{port}/v1", "--workspace", str(workspace)]
        result = forker.run(args, tmp_path, env={"LLM_RETRY_MIN_WAIT": "0.05", "LLM_RETRY_MAX_WAIT": "0.2"})
    shown = result.stdout + result.stderr
    assert result.returncode == 1 and "Traceback" not in shown
    said = f"cannot reach the model server at 127.0.0.1:{port} (connection refused)"
    assert f"error: the model call failed: {said}" in result.stderr
    assert shown.count(said) == 3  # two retries announced, then the closing line: not twice at the end
    assert "object at 0x" not in shown
