"""Background jobs through real `tui --headless` runs against the scripted model: a server the
agent starts in the background answers a later command of the same session and is gone when
the session ends, and no job outlives a `tui` killed with SIGKILL — in the jail (its PID
namespace dies with bwrap's `--die-with-parent`) and with `--sandbox off` (the job's guard
gets the shell's death as a parent-death signal and ends the job's tree)."""

from __future__ import annotations

import os
import signal
import socket
import time
from pathlib import Path

import pytest

from openhands_tui.jail.bubblewrap import find_bubblewrap
from openhands_tui.sdk.facts.event import JobEvent
from openhands_tui.sdk.facts.store import SessionStore
from openhands_tui.testing import Script, Turn
from tests.conftest import live_processes, model_args, still_running_after
from tests.launcher import WarmLauncher

BWRAP = find_bubblewrap().path is not None
SANDBOXES = [
    pytest.param("workspace-write", marks=pytest.mark.skipif(not BWRAP, reason="bubblewrap cannot run here")),
    "off",
]
#: A foreground command that fetches the page, retrying while the server starts.
FETCH = Path(__file__).with_name("fetch_page.py")


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def _wait_for(predicate, timeout: float = 30.0) -> None:
    deadline = time.monotonic() + timeout
    while not predicate():
        assert time.monotonic() < deadline, "timed out"
        time.sleep(0.05)


@pytest.mark.parametrize("mode", SANDBOXES)
def test_a_background_server_answers_a_later_command_and_ends_with_the_session(
    serve, workspace: Path, tmp_path: Path, forker: WarmLauncher, mode: str, isolated_home: Path
) -> None:
    port = _free_port()
    folder = f"site-{port}"  # in the server's command line: how its process is found
    (workspace / folder).mkdir()
    (workspace / folder / "index.html").write_text("<title>answered-by-the-job</title>")
    (workspace / "fetch_page.py").write_text(FETCH.read_text())
    server_command = f"python3 -m http.server {port} --bind 127.0.0.1 --directory {folder}"
    server = serve(
        [
            Script(
                turns=[
                    Turn.call("terminal", command=server_command, background=True),
                    Turn.call("terminal", command=f"python3 fetch_page.py {port}"),
                    Turn.call("jobs", action="list"),
                    Turn.finish("served"),
                ]
            )
        ]
    )
    args = ["--headless", "--task", "serve", "--sandbox", mode, "--workspace", str(workspace), *model_args(server)]
    result = forker.run(args, tmp_path)
    assert result.returncode == 0, result.stderr
    assert "answered-by-the-job" in result.stdout, result.stdout
    assert "job1 [running]" in result.stdout
    # headless says when the job started and that it ended with the session
    assert "⚙ job1 started in the background: $ python3 -m http.server" in result.stdout
    assert "⚙ job1 stopped" in result.stdout, result.stdout
    assert still_running_after(f"--directory {folder}") == []
    # the log holds the job's start and its end with its last lines, not every chunk of output
    events = SessionStore(isolated_home / "state" / "openhands-tui").open("last").load().events
    jobs = [e for e in events if isinstance(e, JobEvent)]
    assert [(e.job_id, e.state) for e in jobs] == [("job1", "running"), ("job1", "stopped")]
    assert '"GET / HTTP/1.1" 200' in jobs[-1].tail


@pytest.mark.parametrize("mode", SANDBOXES)
def test_no_background_job_outlives_a_tui_killed_with_sigkill(
    serve, workspace: Path, tmp_path: Path, forker: WarmLauncher, mode: str
) -> None:
    folder = f"killed-{_free_port()}"
    (workspace / folder).mkdir()
    server_command = f"python3 -m http.server 0 --bind 127.0.0.1 --directory {folder}"
    escapee = f"sleep 757.{len(mode)}"
    server = serve(
        [
            Script(
                turns=[
                    Turn.call("terminal", command=server_command, background=True),
                    Turn.call("terminal", command=f"setsid {escapee} & wait", background=True),
                    Turn.call("terminal", command="sleep 60"),
                    Turn.finish("never"),
                ]
            )
        ]
    )
    args = ["--headless", "--task", "go", "--sandbox", mode, "--workspace", str(workspace), *model_args(server)]
    pid = forker.start(args, tmp_path / "out.txt", tmp_path / "err.txt")
    _wait_for(lambda: bool(live_processes(f"--directory {folder}")) and bool(live_processes(escapee)))
    os.kill(pid, signal.SIGKILL)
    assert forker.ended() == f"signal {signal.SIGKILL}"
    assert still_running_after(f"--directory {folder}", 10) == []
    assert still_running_after(escapee, 10) == []
