"""Whoever reads a headless run's output may stop reading, go away, or have no room left: a pipe
nobody empties (`tui ... | less` left on its first page), a standard error whose reader closed,
an output file on a full disk. The run must still answer its signals, finish on its own terms,
and say in its exit code when its output was lost.

Each run is a real `tui` forked from the warm launcher; its standard streams are a FIFO we
hold open but never read, a FIFO we close, or /dev/full."""

from __future__ import annotations

import contextlib
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from openhands_tui.sdk.facts.store import decode_line
from openhands_tui.testing import Script, ScriptedToolCall, Turn
from tests.conftest import model_args
from tests.launcher import WarmLauncher


def _log(state: Path) -> Path | None:
    found = list((state / "openhands-tui" / "sessions").glob("*/events.jsonl"))
    return found[0] if found else None


def _wait_for(condition, what: str, timeout: float = 60) -> None:
    deadline = time.monotonic() + timeout
    while not condition():
        assert time.monotonic() < deadline, f"timed out waiting for {what}"
        time.sleep(0.05)


def _kinds(log: Path) -> list[str]:
    return [decode_line(line).kind for line in log.read_bytes().splitlines()]


@pytest.mark.subprocess
@pytest.mark.parametrize("sig", [signal.SIGTERM, signal.SIGINT, signal.SIGHUP], ids=["TERM", "INT", "HUP"])
def test_a_reader_that_stops_reading_does_not_stop_the_signals(
    serve, workspace: Path, isolated_home: Path, tmp_path: Path, forker: WarmLauncher, sig: signal.Signals
) -> None:
    """The transcript was written on the event loop: once the pipe was full, `write()` blocked
    it, and SIGTERM, SIGINT and SIGHUP waited behind that write for ever."""
    turns = [Turn.call("terminal", command="seq 1 300000"), Turn.call("terminal", command="sleep 30"), Turn.finish()]
    server = serve([Script(turns=turns)])
    fifo = tmp_path / "stdout"
    os.mkfifo(fifo)
    reader = os.open(fifo, os.O_RDONLY | os.O_NONBLOCK)  # held open, never read: a pager left alone
    try:
        args = ["--headless", "--json", "--task", "go", *model_args(server), "--workspace", str(workspace)]
        pid = forker.start(args, fifo)
        # the first command's output (100,000 characters as JSON) is more than a pipe holds
        _wait_for(lambda: (log := _log(isolated_home / "state")) is not None and "observation" in _kinds(log), "seq")
        time.sleep(0.5)
        os.kill(pid, sig)
        assert forker.ended(pid, timeout=15) == "exit 130"
    finally:
        os.close(reader)
    log = _log(isolated_home / "state")
    assert log is not None and _kinds(log)[-1] == "status"  # the interruption is recorded: resumable


@pytest.mark.subprocess
@pytest.mark.parametrize("json_output", [True, False], ids=["json", "transcript"])
def test_output_lost_to_a_full_disk_is_said_and_is_not_exit_0(
    serve, workspace: Path, tmp_path: Path, forker: WarmLauncher, json_output: bool
) -> None:
    """`tui --headless ... > out.jsonl` on a full disk: the transcript ended in an ENOSPC
    traceback, and with --json every line was lost and the run still exited 0."""
    server = serve([Script(turns=[Turn.call("terminal", command="echo hi"), Turn.finish("all done")])])
    args = ["--headless", "--task", "go", *model_args(server), "--workspace", str(workspace)]
    err = tmp_path / "stderr"
    pid = forker.start([*args, "--json"] if json_output else args, Path("/dev/full"), err)
    assert forker.ended(pid) == "exit 1"
    said = err.read_text()
    assert "Traceback" not in said
    session = said.split("finished · session ", 1)[1].split(" ", 1)[0]  # the run itself finished
    assert said.splitlines()[-1] == (
        f"tui: standard output: cannot write (No space left on device); "
        f"the whole run is in the session: tui view {session}"
    )


@pytest.mark.subprocess
@pytest.mark.parametrize("broken", ["full", "closed"])
def test_a_standard_error_that_cannot_be_written_is_not_an_error(
    serve, workspace: Path, tmp_path: Path, forker: WarmLauncher, broken: str
) -> None:
    """`2>` a full disk, or `2>&1 | reader` whose reader ended: the run's own lines on standard
    error raised (BrokenPipeError, ENOSPC), and a finished run exited 1."""
    slow = Turn(tool_calls=[ScriptedToolCall(name="terminal", arguments={"command": "echo hi"})], delay=1.0)
    server = serve([Script(turns=[slow, Turn.finish("all done")])])
    args = ["--headless", "--task", "go", *model_args(server), "--workspace", str(workspace)]
    out = tmp_path / "stdout"
    if broken == "full":
        pid = forker.start(args, out, Path("/dev/full"))
    else:
        fifo = tmp_path / "stderr"
        os.mkfifo(fifo)
        reader = os.open(fifo, os.O_RDONLY | os.O_NONBLOCK)
        pid = forker.start(args, out, fifo)
        _wait_for(lambda: out.exists() and "go" in out.read_text(), "the run to start")
        with contextlib.suppress(OSError):
            os.read(reader, 1 << 16)
        os.close(reader)  # the reader goes away while the run still has lines to say
    assert forker.ended(pid) == "exit 0"
    assert out.read_text().rstrip().endswith("all done")


@pytest.mark.subprocess
@pytest.mark.parametrize("command", [["--version"], ["--help"], ["sessions"], ["mcp", "list"]])
def test_any_command_whose_output_is_lost_says_so_in_one_line(
    tmp_path: Path, forker: WarmLauncher, command: list[str]
) -> None:
    """Every command, not only a run: `tui sessions > list.txt` on a full disk was a traceback."""
    err = tmp_path / "stderr"
    pid = forker.start(command, Path("/dev/full"), err)
    assert forker.ended(pid) == "exit 1"
    assert err.read_text().splitlines() == ["tui: standard output: cannot write (No space left on device)"]


@pytest.mark.subprocess
@pytest.mark.parametrize("command", [["--version"], ["sessions"]])
def test_a_reader_that_went_away_ends_a_command_quietly(command: list[str]) -> None:
    """`tui sessions | head -1`: the reader's choice, not a failure — exit 0, nothing on stderr."""
    read_end, write_end = os.pipe()
    os.close(read_end)  # gone before the first write
    try:
        result = subprocess.run(
            [sys.executable, "-m", "openhands_tui", *command],
            stdout=write_end,
            stderr=subprocess.PIPE,
            stdin=subprocess.DEVNULL,
            timeout=60,
        )
    finally:
        os.close(write_end)
    assert (result.returncode, result.stderr.decode()) == (0, "")
