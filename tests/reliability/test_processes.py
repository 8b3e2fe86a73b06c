"""One writer per session, nothing outliving `tui`, and every bad condition as one line: real
`tui` processes (forked from the pre-warmed launcher, or under bubblewrap to make a disk full
or a directory read-only), the scripted server, and the process table."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from openhands_tui.jail.bubblewrap import find_bubblewrap
from openhands_tui.sdk.facts.store import SessionStore
from openhands_tui.testing import Script, Turn
from tests.conftest import live_processes, model_args, run_tui
from tests.launcher import WarmLauncher

KEY = "sk-processes-test"


def _wait_for(predicate, timeout: float = 30.0) -> None:
    deadline = time.monotonic() + timeout
    while not predicate():
        assert time.monotonic() < deadline, "timed out"
        time.sleep(0.05)


def _one_line_error(result, *needles: str) -> None:
    lines = result.stderr.strip().splitlines()
    assert result.returncode == 2, result.stderr
    assert len(lines) == 1 and lines[0].startswith("tui: "), result.stderr
    for needle in needles:
        assert needle in lines[0], lines[0]


def test_a_session_has_one_writer(
    serve, workspace: Path, tmp_path: Path, forker: WarmLauncher, isolated_home: Path
) -> None:
    server = serve([Script(turns=[Turn.call("terminal", command="sleep 4"), Turn.finish("first")])])
    args = ["--headless", "--task", "wait", "--workspace", str(workspace), *model_args(server, KEY)]
    first = forker.start(args, tmp_path / "out1.txt", tmp_path / "err1.txt")
    store = SessionStore(isolated_home / "state" / "openhands-tui")
    _wait_for(lambda: bool(store.list_sessions()) and bool(server.requests))
    second = run_tui("--resume", "last", "--headless", "--task", "more", *model_args(server, KEY))
    _one_line_error(second, "in use by another tui", f"pid {first}")
    assert forker.ended() == "exit 0"  # the first run was not disturbed


@pytest.mark.parametrize("sig", [signal.SIGKILL, signal.SIGHUP])
def test_nothing_the_agent_started_outlives_a_killed_tui(
    serve, workspace: Path, tmp_path: Path, forker: WarmLauncher, sig: signal.Signals
) -> None:
    marker = f"sleep 71{sig.value}.5"
    command = f"setsid {marker} >/dev/null 2>&1 & nohup {marker} >/dev/null 2>&1 & {marker}"
    server = serve([Script(turns=[Turn.call("terminal", command=command), Turn.finish("after")])])
    args = ["--headless", "--task", "go", "--workspace", str(workspace), *model_args(server, KEY)]
    pid = forker.start(args, tmp_path / "out.txt", tmp_path / "err.txt")
    _wait_for(lambda: len(live_processes(marker)) == 3)
    os.kill(pid, sig)
    ended = forker.ended()
    assert ended == ("signal 9" if sig is signal.SIGKILL else "exit 130"), ended
    _wait_for(lambda: live_processes(marker) == [], timeout=10)
    if sig is signal.SIGHUP:  # a closed terminal is an interrupt: said, recorded, resumable
        assert "Traceback" not in (tmp_path / "err.txt").read_text()


def test_without_the_sandbox_a_clean_exit_still_ends_everything(
    serve, workspace: Path, tmp_path: Path, forker: WarmLauncher
) -> None:
    marker = "sleep 719.25"
    server = serve(
        [Script(turns=[Turn.call("terminal", command=f"setsid {marker} >/dev/null 2>&1 &"), Turn.finish("ok")])]
    )
    args = ["--headless", "--task", "go", "--sandbox", "off", "--workspace", str(workspace), *model_args(server, KEY)]
    result = forker.run(args, tmp_path)
    assert result.returncode == 0, result.stderr
    assert "Traceback" not in result.stderr and "Event loop is closed" not in result.stderr
    _wait_for(lambda: live_processes(marker) == [], timeout=10)


def test_git_never_waits_for_an_editor_or_a_pager(serve, workspace: Path, tmp_path: Path, forker: WarmLauncher) -> None:
    command = (
        "git init -q . && git -c user.email=a@b -c user.name=a commit -q --allow-empty; git log | cat; echo code=$?"
    )
    server = serve([Script(turns=[Turn.call("terminal", command=command, timeout=20), Turn.finish("ok")])])
    started = time.monotonic()
    result = forker.run(
        ["--headless", "--task", "go", "--workspace", str(workspace), *model_args(server, KEY)], tmp_path
    )
    assert result.returncode == 0 and time.monotonic() - started < 15, result.stderr
    assert "Aborting commit due to empty commit message" in result.stdout  # GIT_EDITOR=true, not vim


@pytest.mark.parametrize(
    ("setup", "needles"),
    [
        ("state-is-a-file", ["cannot keep sessions under", "is a file"]),
        ("config-not-utf8", ["config.toml: not UTF-8 text"]),
        ("rules-not-utf8", ["permissions.toml: cannot read permission rules (not UTF-8 text)"]),
        ("rule-not-array", ["write each rule as [[rule]]"]),
        ("task-file-missing", ["--task-file", "No such file"]),
        ("sandbox-typo", ["unknown setting 'mdoe' under [sandbox]"]),
    ],
)
def test_bad_conditions_are_one_line(
    serve, workspace: Path, tmp_path: Path, forker: WarmLauncher, isolated_home: Path, setup: str, needles: list[str]
) -> None:
    config = isolated_home / "config" / "openhands-tui"
    config.mkdir(parents=True, exist_ok=True)
    extra: list[str] = []
    env: dict[str, str] = {}
    if setup == "state-is-a-file":
        (tmp_path / "statefile").write_text("x")
        env["XDG_STATE_HOME"] = str(tmp_path / "statefile")
    elif setup == "config-not-utf8":
        (config / "config.toml").write_bytes(b'[llm]\nmodel = "\xff\xfe"\n')
    elif setup == "rules-not-utf8":
        (config / "permissions.toml").write_bytes(b"\xff\xfe\x00[[rule]]")
    elif setup == "rule-not-array":
        (config / "permissions.toml").write_text('[rule]\naction = "allow"\ncommand = "ls"\n')
    elif setup == "task-file-missing":
        extra = ["--task-file", str(tmp_path / "nope.md")]
    elif setup == "sandbox-typo":
        (config / "config.toml").write_text('[sandbox]\nmdoe = "off"\n')
    server = serve([Script(turns=[Turn.finish("never")])])
    task = [] if extra else ["--task", "go"]
    args = ["--headless", *task, *extra, "--workspace", str(workspace), *model_args(server, KEY)]
    _one_line_error(forker.run(args, tmp_path, env=env), *needles)


def test_a_long_task_comes_from_a_file_or_stdin(serve, workspace: Path, tmp_path: Path, forker: WarmLauncher) -> None:
    task = "Fix everything.\n" + "Details line. " * 20_000  # ~280 KB: more than one argument may hold
    (tmp_path / "task.md").write_text(task)
    server = serve([Script(turns=[Turn.finish("read it")]), Script(turns=[])])
    args = ["--headless", "--task-file", str(tmp_path / "task.md"), "--workspace", str(workspace)]
    result = forker.run([*args, *model_args(server, KEY)], tmp_path)
    assert result.returncode == 0, result.stderr
    assert server.requests[0].messages[1]["content"].startswith(task)
    piped_server = serve([Script(turns=[Turn.finish("piped")])])
    args = ["--headless", "--task", "-", "--workspace", str(workspace), *model_args(piped_server, KEY)]
    piped = forker.run(args, tmp_path, input="from stdin")
    assert piped.returncode == 0 and "piped" in piped.stdout, piped.stderr
    assert piped_server.requests[0].messages[1]["content"].startswith("from stdin")


pytestmark_bwrap = pytest.mark.skipif(find_bubblewrap().path is None, reason="needs bubblewrap")


def _in_jail(extra_binds: list[str], script: str) -> subprocess.CompletedProcess[str]:
    """Run `script` (sh) with the host read-only plus `extra_binds`, as a user would meet a full
    disk or a read-only directory."""
    bwrap = find_bubblewrap().path
    assert bwrap is not None
    command = [bwrap, "--dev-bind", "/", "/", *extra_binds, "--", "sh", "-c", script]
    return subprocess.run(command, capture_output=True, text=True, timeout=180)


def _tui_flags(server, workspace: Path) -> str:
    """A headless run's flags as shell words (the inner run has no sandbox: it is in one)."""
    flags = ["--headless", "--task", "go", "--sandbox", "off", "--workspace", str(workspace), *model_args(server, KEY)]
    return " ".join(f"'{flag}'" for flag in flags)


@pytestmark_bwrap
@pytest.mark.subprocess
def test_a_full_disk_stops_the_run_cleanly_and_the_log_stays_loadable(serve, workspace: Path, tmp_path: Path) -> None:
    chatty = [Turn.call("terminal", command=f"seq {n} 3000 | head -c 20000") for n in range(30)]
    server = serve([Script(turns=[*chatty, Turn.finish("never")])])
    state = tmp_path / "state"
    state.mkdir()
    python, flags = sys.executable, _tui_flags(server, workspace)
    loader = (
        "from openhands_tui.sdk.facts.store import SessionStore; import os; "
        "s = SessionStore(); print('LOADED', len(s.open('last').load().events))"
    )
    script = (
        f"XDG_STATE_HOME={state} {python} -m openhands_tui {flags}; echo EXIT=$?; "
        f'XDG_STATE_HOME={state} {python} -c "{loader}"'
    )
    result = _in_jail(["--size", str(96 * 1024), "--tmpfs", str(state)], script)
    assert "Traceback" not in result.stderr, result.stderr
    assert "EXIT=1" in result.stdout, result.stdout + result.stderr
    assert "disk full: " in result.stderr
    assert "LOADED" in result.stdout and int(result.stdout.split("LOADED")[1].split()[0]) > 3


@pytestmark_bwrap
@pytest.mark.subprocess
def test_read_only_places_are_found_at_start(serve, workspace: Path, tmp_path: Path) -> None:
    server = serve([Script(turns=[Turn.finish("never")])])
    state = tmp_path / "ro-state"
    state.mkdir()
    writable = tmp_path / "writable"  # a workspace that can be written, so the state folder is what fails
    writable.mkdir()
    python, flags = sys.executable, _tui_flags(server, workspace)
    script = (
        f"{python} -m openhands_tui {flags}; echo EXIT=$?; "
        f"XDG_STATE_HOME={state} {python} -m openhands_tui {flags} --workspace {writable}; echo EXIT=$?"
    )
    result = _in_jail(["--ro-bind", str(workspace), str(workspace), "--ro-bind", str(state), str(state)], script)
    lines = [line for line in result.stderr.splitlines() if line.strip()]
    assert "Traceback" not in result.stderr and result.stdout.count("EXIT=2") == 2, result.stdout + result.stderr
    assert len(lines) == 2, lines  # one line each
    assert f"--workspace {workspace}: cannot write there" in lines[0]
    assert "cannot keep sessions under" in lines[1] and "Read-only file system" in lines[1]
