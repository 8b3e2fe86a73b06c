"""The real app in a real terminal (tmux): the tree grows, a HIGH action is approved with `y`,
the run finishes."""

from __future__ import annotations

import os
import shlex
import shutil
import signal
import subprocess
import sys
import time
import uuid
from pathlib import Path

import pytest

from openhands_tui.demo import demo_scripts
from openhands_tui.sdk.facts.store import SessionStore
from openhands_tui.testing import Script, Turn
from openhands_tui.tui.screens.arming import ARMING_DELAY
from tests.conftest import REPO, live_processes, model_args

pytestmark = pytest.mark.skipif(shutil.which("tmux") is None, reason="tmux is not installed (.ci/run installs it)")


def _pane(session: str) -> str:
    return subprocess.run(["tmux", "capture-pane", "-t", session, "-p"], capture_output=True, text=True).stdout


def _wait_for(session: str, *needles: str, timeout: float = 60.0) -> str:
    deadline = time.monotonic() + timeout
    screen = ""
    while time.monotonic() < deadline:
        screen = _pane(session)
        if all(needle in screen for needle in needles):
            return screen
        time.sleep(0.2)
    raise AssertionError(f"never saw {needles!r} on screen; last screen:\n{screen}")


def _start(args: list[str], home: Path, then: str = "", redirect: str = "") -> str:
    """Start `tui ARGS` in a detached 140x40 tmux session; returns the session name. `then`:
    a shell line run after it in the same terminal (as the user's shell would go on);
    `redirect`: the shell's redirections for `tui` (`2>log`)."""
    session = f"oht-{uuid.uuid4().hex[:8]}"
    env = {
        "XDG_STATE_HOME": str(home / "state"),
        "XDG_CONFIG_HOME": str(home / "config"),
        "HOME": str(home),
        "TERM": "xterm-256color",
        "PATH": os.environ["PATH"],
    }
    # COLUMNS/LINES from the test runner would override the terminal's real size
    shell = "env -u COLUMNS -u LINES " + " ".join(f"{k}={shlex.quote(v)}" for k, v in env.items())
    shell += " " + shlex.join([sys.executable, "-m", "openhands_tui", *args])
    shell += f" {redirect}" if redirect else ""
    shell += f"; {then}" if then else ""
    subprocess.run(["tmux", "new-session", "-d", "-s", session, "-x", "140", "-y", "40", shell], check=True)
    subprocess.run(["tmux", "resize-window", "-t", session, "-x", "140", "-y", "40"], capture_output=True)
    return session


def _approve_and_finish(session: str) -> str:
    grown = _wait_for(session, "designer", "coder")  # the tree grows as delegations open
    assert "designer" in grown
    asked = _wait_for(session, "wants to run terminal", "rm -rf build")
    assert "HIGH" in asked and "waterfall → coder" in asked
    time.sleep(ARMING_DELAY)  # a key the moment the dialog opens is not taken as approval
    subprocess.run(["tmux", "send-keys", "-t", session, "y"], check=True)
    done = _wait_for(session, "● finished", timeout=90)
    assert "coder finished" in done and "waterfall finished" in done
    return done


def _close_terminal_and_wait(session: str, timeout: float = 20) -> None:
    """Close the app's terminal (as closing its window does: SIGHUP, then no terminal) and
    wait for the app's process to be gone."""
    pane_pid = subprocess.run(
        ["tmux", "display-message", "-p", "-t", session, "#{pane_pid}"], capture_output=True, text=True
    ).stdout.strip()
    subprocess.run(["tmux", "kill-session", "-t", session], capture_output=True)
    deadline = time.monotonic() + timeout
    while _running(pane_pid):
        assert time.monotonic() < deadline, "the app outlived its terminal"
        time.sleep(0.1)


def _running(pid: str) -> bool:
    try:
        return Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0] != "Z"
    except (OSError, IndexError):
        return False


def test_waterfall_in_tmux(serve, workspace: Path, isolated_home: Path) -> None:
    server = serve(demo_scripts())
    args = ["--strategy", str(REPO / "strategies" / "waterfall.py"), "--task", "Build a todo module"]
    args += model_args(server)
    session = _start([*args, "--workspace", str(workspace)], isolated_home)
    try:
        _wait_for(session, "waterfall", "Build a todo module")
        _approve_and_finish(session)
        assert (workspace / "todos.py").exists() and (workspace / "test_todos.py").exists()
        _close_terminal_and_wait(session)  # a closed terminal ends the app (it once hung on its way out)
    finally:
        subprocess.run(["tmux", "kill-session", "-t", session], capture_output=True)


def test_demo_needs_no_key(workspace: Path, isolated_home: Path) -> None:
    """What the README's first command runs: the whole product, labelled DEMO, no key."""
    session = _start(["--demo", "--workspace", str(workspace)], isolated_home, then="sleep 60")
    try:
        _wait_for(session, "DEMO")
        done = _approve_and_finish(session)
        assert "DEMO" in done
        assert (workspace / "todos.py").exists()
        # the demo claims only what ran: the check's own line and exit code, no "tests pass"
        assert "$ python3 test_todos.py [MEDIUM]  ✓ exit 0" in done and "tests pass" not in done
        subprocess.run(
            ["tmux", "send-keys", "-t", session, "C-q"], check=True
        )  # the shell goes on: what tui printed stays
        _wait_for(session, "(resume with: tui --demo --resume ")  # a hint that works for a demo
    finally:
        subprocess.run(["tmux", "kill-session", "-t", session], capture_output=True)


def test_sigterm_interrupts_the_app_and_leaves_a_resumable_session(serve, workspace: Path, isolated_home: Path) -> None:
    """What `kill PID` (or a closing terminal emulator's supervisor) does to a running app."""
    pid_file = workspace / "sleeper.pid"
    long = Turn.call("terminal", command=f"sleep 309.25 & echo $! > {pid_file}; wait")
    server = serve([Script(turns=[long, Turn.finish("after resume")])])
    args = ["--task", "wait", *model_args(server)]
    session = _start([*args, "--workspace", str(workspace)], isolated_home)
    try:
        deadline = time.monotonic() + 60
        while not (pid_file.exists() and pid_file.read_text().strip()):
            assert time.monotonic() < deadline, _pane(session)
            time.sleep(0.1)
        app_pid = subprocess.run(
            ["tmux", "display-message", "-p", "-t", session, "#{pane_pid}"], capture_output=True, text=True
        ).stdout.strip()
        os.kill(int(app_pid), signal.SIGTERM)
        deadline = time.monotonic() + 30
        while Path(f"/proc/{app_pid}").exists():
            assert time.monotonic() < deadline, "the app did not exit on SIGTERM"
            time.sleep(0.1)
    finally:
        subprocess.run(["tmux", "kill-session", "-t", session], capture_output=True)
    assert live_processes("sleep 309.25") == []  # the command's pid is the sandbox's; look for it by name
    events = SessionStore(isolated_home / "state" / "openhands-tui").open("last").load().events
    assert [e.outcome for e in events if e.kind == "observation"] == ["interrupted"]
    assert events[-1].kind == "status" and events[-1].detail == "interrupted"


def _exit_line(session: str, timeout: float = 30) -> tuple[int, list[str]]:
    """For a session started with `then=EXIT_THEN`: the program's exit status, once it ended, and
    the screen's non-empty lines before the status line."""
    screen = _wait_for(session, "exit status ", timeout=timeout)
    lines = [line for line in screen.splitlines() if line.strip()]
    status = next(i for i, line in enumerate(lines) if line.startswith("exit status "))
    return int(lines[status].split()[-1]), lines[:status]


EXIT_THEN = 'echo "exit status $?"; sleep 60'


def test_a_strategy_that_cannot_load_leaves_one_line_and_exit_2(workspace: Path, isolated_home: Path) -> None:
    """The app draws before the strategy loads; a broken one still ends in one line, exit 2,
    on a terminal given back whole (no alternate screen left behind)."""
    broken = REPO / "tests" / "fixtures" / "strategies" / "syntax_error.py"
    args = ["--strategy", str(broken), "--model", "openai/x", "--workspace", str(workspace)]
    session = _start(args, isolated_home, then=EXIT_THEN)
    try:
        status, lines = _exit_line(session)
        assert status == 2 and lines == [f"tui: {broken}: syntax error at line 4: expected ':'"], lines
    finally:
        subprocess.run(["tmux", "kill-session", "-t", session], capture_output=True)


def test_quitting_while_the_session_opens(workspace: Path, isolated_home: Path) -> None:
    """Ctrl+Q as the prompt shows, while a slow strategy still loads: the app leaves, and the
    process ends once the load does (the session opened for nobody is released, not handed to
    an app that has gone)."""
    slow = REPO / "tests" / "fixtures" / "strategies" / "slow_to_load.py"
    args = ["--strategy", str(slow), "--model", "openai/x", "--workspace", str(workspace)]
    session = _start(args, isolated_home, then=EXIT_THEN)
    try:
        _wait_for(session, "Starting the session")
        subprocess.run(["tmux", "send-keys", "-t", session, "C-q"], check=True)
        status, lines = _exit_line(session, timeout=15)
        assert status == 0 and not any("Traceback" in line for line in lines), lines
    finally:
        subprocess.run(["tmux", "kill-session", "-t", session], capture_output=True)


def _pane_flags(session: str) -> dict[str, str]:
    names = ["alternate_on", "cursor_flag", "mouse_any_flag", "mouse_standard_flag", "mouse_sgr_flag"]
    shown = subprocess.run(
        ["tmux", "display-message", "-p", "-t", session, " ".join(f"#{{{n}}}" for n in names)],
        capture_output=True,
        text=True,
    ).stdout.split()
    return dict(zip(names, shown, strict=True))


def test_sighup_with_the_terminal_still_open_gives_it_back(workspace: Path, isolated_home: Path) -> None:
    """`kill -HUP` (a supervisor, a multiplexer) while the terminal stays open: the app leaves
    as on a closed terminal, and the terminal is back on its normal screen with the cursor
    shown, mouse reporting off and line editing on (it was left on the app's screen, raw)."""
    line_mode = "stty -a | tr ' ' '\\n' | grep -x -e icanon -e -icanon"  # cooked (icanon) or raw
    args = ["--model", "openai/x", "--workspace", str(workspace)]
    session = _start(args, isolated_home, then=f'code=$?; {line_mode}; echo "exit status $code"; sleep 60')
    try:
        _wait_for(session, "Type a task")
        assert _pane_flags(session)["alternate_on"] == "1"
        app_pid = subprocess.run(
            ["tmux", "display-message", "-p", "-t", session, "#{pane_pid}"], capture_output=True, text=True
        ).stdout.strip()  # the shell running `tui; echo`: the app is its child
        children = Path(f"/proc/{app_pid}/task/{app_pid}/children").read_text().split()
        os.kill(int(children[0]), signal.SIGHUP)
        status, lines = _exit_line(session)
        assert status == 130 and lines[-1] == "icanon", lines
        assert _pane_flags(session) == {
            "alternate_on": "0",
            "cursor_flag": "1",
            "mouse_any_flag": "0",
            "mouse_standard_flag": "0",
            "mouse_sgr_flag": "0",
        }
    finally:
        subprocess.run(["tmux", "kill-session", "-t", session], capture_output=True)


def test_the_app_draws_on_the_terminal_when_standard_error_is_redirected(
    serve, workspace: Path, isolated_home: Path, tmp_path: Path
) -> None:
    """`tui 2>log`: Textual draws on standard error, which went to the file and left the
    terminal blank. The app shows on the terminal, and what is printed after it leaves (how to
    resume) still goes where the user sent standard error."""
    server = serve([Script(turns=[Turn.finish("done")])])
    log = tmp_path / "stderr.log"
    args = [*model_args(server), "--workspace", str(workspace)]
    session = _start(args, isolated_home, then=EXIT_THEN, redirect=f"2>{shlex.quote(str(log))}")
    try:
        _wait_for(session, "Type a task", server.model)  # drawn, and the session open (its model shown)
        subprocess.run(["tmux", "send-keys", "-t", session, "C-q"], check=True)
        status, lines = _exit_line(session)
        assert status == 0 and lines == [], lines  # nothing left on the terminal once it is given back
        written = log.read_text()
        assert "resume with: tui" in written and "\x1b[" not in written, written[:500]
    finally:
        subprocess.run(["tmux", "kill-session", "-t", session], capture_output=True)
