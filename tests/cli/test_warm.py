"""`tui warm`: runs forked from a resident server behave as cold runs do (output, exit codes,
signals) and are used only by the environment that started the server."""

from __future__ import annotations

import contextlib
import os
import re
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from openhands_tui.testing import Script, Turn
from openhands_tui.warm.client import hand_over
from openhands_tui.warm.key import socket_path
from tests.conftest import live_processes, model_args, run_tui

pytestmark = pytest.mark.subprocess


@pytest.fixture
def warm_server(monkeypatch: pytest.MonkeyPatch) -> Iterator[Callable[[], int]]:
    """`warm_server()` starts a warm server for the test's environment as it is then (pytest
    changes PYTEST_CURRENT_TEST between setup and call) in a runtime directory of its own, and
    returns its pid; it is stopped after the test."""
    runtime = Path(tempfile.mkdtemp(prefix="w", dir="/tmp"))  # short: socket paths max 107 bytes
    monkeypatch.setenv("XDG_RUNTIME_DIR", str(runtime))
    pids: list[int] = []

    def start() -> int:
        started = run_tui("warm", "--idle", "5")
        assert started.returncode == 0, started.stderr
        match = re.search(r"pid (\d+)", started.stdout)
        assert match, started.stdout
        pids.append(int(match.group(1)))
        return pids[-1]

    yield start
    for pid in pids:
        with contextlib.suppress(ProcessLookupError):
            os.kill(pid, signal.SIGTERM)
            for _ in range(100):
                os.kill(pid, 0)
                time.sleep(0.05)
            raise AssertionError(f"warm server {pid} did not exit")
    shutil.rmtree(runtime, ignore_errors=True)


def test_warm_starts_from_a_folder_holding_another_copy_of_the_package(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """As the README has it, run in a checkout: a folder `openhands_tui/` there (the source tree
    beside a regular install) is not what the server imports, so it answers where `tui` looks."""
    runtime = Path(tempfile.mkdtemp(prefix="w", dir="/tmp"))
    monkeypatch.setenv("XDG_RUNTIME_DIR", str(runtime))
    decoy = tmp_path / "checkout" / "openhands_tui"
    decoy.mkdir(parents=True)
    (decoy / "__init__.py").write_text('raise SystemExit("the decoy package was imported")\n')
    tui = [str(Path(sys.executable).with_name("tui"))]  # the installed program, as a user runs it
    try:
        started = subprocess.run([*tui, "warm", "--idle", "1"], cwd=decoy.parent, capture_output=True, text=True)
        assert started.returncode == 0 and "ready" in started.stdout, started.stderr
        stopped = subprocess.run([*tui, "warm", "--stop"], cwd=decoy.parent, capture_output=True, text=True)
        assert stopped.returncode == 0 and "stopped" in stopped.stdout, stopped.stderr
    finally:
        shutil.rmtree(runtime, ignore_errors=True)


def test_runs_hand_over_to_the_server_and_exit_as_cold_runs_do(
    warm_server: Callable[[], int],
    serve,
    workspace: Path,
    capfd: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    warm_server()
    assert os.path.exists(socket_path(os.environ))
    assert run_tui("warm").stdout.startswith("warm start: already running")
    # in this process: an exit code (not None) means the server's child ran it
    assert hand_over(["--version"]) == 0
    assert capfd.readouterr().out.strip().startswith("openhands-tui ")
    assert hand_over(["--no-such-flag"]) == 2
    assert "No such option" in capfd.readouterr().err

    server = serve([Script(turns=[Turn.call("terminal", command="echo warm-$((6*7))"), Turn.finish("all done")])])
    args = ["--headless", "--task", "go", "--confirm", "never", "--workspace", str(workspace), *model_args(server)]
    ran = run_tui(*args, cwd=workspace)
    assert ran.returncode == 0, ran.stderr
    assert "warm-42" in ran.stdout and "all done" in ran.stdout
    assert len(server.requests) == 2

    # another environment, or OPENHANDS_TUI_COLD, never reaches this server
    monkeypatch.setenv("SOME_SETTING", "other")
    assert hand_over(["--version"]) is None
    monkeypatch.delenv("SOME_SETTING")
    monkeypatch.setenv("OPENHANDS_TUI_COLD", "1")
    assert hand_over(["--version"]) is None
    monkeypatch.delenv("OPENHANDS_TUI_COLD")

    stopped = run_tui("warm", "--stop")
    assert stopped.stdout.strip() == "warm start: stopped"
    assert not os.path.exists(socket_path(os.environ))
    assert hand_over(["--version"]) is None
    assert run_tui("warm", "--stop").stdout.strip() == "warm start: not running for this environment"


def _ancestors(pid: int) -> list[int]:
    chain = []
    while pid > 1:
        pid = int(Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[1])
        chain.append(pid)
    return chain


def test_a_signal_to_the_run_reaches_its_forked_child(warm_server: Callable[[], int], serve, workspace: Path) -> None:
    server_pid = warm_server()
    pid_file = workspace / "sleeper.pid"
    marker = "3019.321"  # a sleep only this test starts
    long = Turn.call("terminal", command=f"sleep {marker} & echo $! > {pid_file}; wait")
    server = serve([Script(turns=[long, Turn.finish("never reached")])])
    args = ["--headless", "--task", "wait", "--confirm", "never", "--workspace", str(workspace), *model_args(server)]
    client = subprocess.Popen(
        [sys.executable, "-m", "openhands_tui", *args], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True
    )
    deadline = time.monotonic() + 60
    while not (pid_file.exists() and pid_file.read_text().strip()) and time.monotonic() < deadline:
        time.sleep(0.05)
    (sleeper,) = live_processes(f"sleep {marker}")
    assert server_pid in _ancestors(sleeper) and client.pid not in _ancestors(sleeper)
    client.send_signal(signal.SIGINT)
    _, stderr = client.communicate(timeout=30)
    assert client.returncode == 130, stderr
    assert "Traceback" not in stderr
    assert live_processes(f"sleep {marker}") == []
