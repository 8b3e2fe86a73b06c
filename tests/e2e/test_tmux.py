"""The real app in a real terminal (tmux): the tree grows, a HIGH action is approved with `y`,
the run finishes."""

from __future__ import annotations

import os
import shlex
import shutil
import subprocess
import sys
import time
import uuid
from pathlib import Path

import pytest

from openhands_tui.demo import demo_scripts
from tests.conftest import REPO

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


def test_waterfall_in_tmux(serve, workspace: Path, isolated_home: Path) -> None:
    server = serve(demo_scripts())
    session = f"oht-{uuid.uuid4().hex[:8]}"
    env = {
        "XDG_STATE_HOME": str(isolated_home / "state"),
        "XDG_CONFIG_HOME": str(isolated_home / "config"),
        "HOME": str(isolated_home),
        "TERM": "xterm-256color",
        "PATH": os.environ["PATH"],
    }
    command = [
        sys.executable,
        "-m",
        "openhands_tui",
        "--strategy",
        str(REPO / "strategies" / "waterfall.py"),
        "--task",
        "Build a todo module",
        "--model",
        "openai/scripted",
        "--base-url",
        server.base_url,
        "--api-key",
        "k",
        "--workspace",
        str(workspace),
    ]
    # COLUMNS/LINES from the test runner would override the terminal's real size
    shell = "env -u COLUMNS -u LINES " + " ".join(f"{k}={shlex.quote(v)}" for k, v in env.items())
    shell += " " + shlex.join(command)
    subprocess.run(["tmux", "new-session", "-d", "-s", session, "-x", "140", "-y", "40", shell], check=True)
    subprocess.run(["tmux", "resize-window", "-t", session, "-x", "140", "-y", "40"], capture_output=True)
    try:
        _wait_for(session, "waterfall", "Build a todo module")
        grown = _wait_for(session, "designer", "coder")  # the tree grows as delegations open
        assert "designer finished" in grown or "designer" in grown
        asked = _wait_for(session, "wants to run terminal", "rm -rf build")
        assert "HIGH" in asked and "waterfall → coder" in asked
        subprocess.run(["tmux", "send-keys", "-t", session, "y"], check=True)
        done = _wait_for(session, "● finished", timeout=90)
        assert "coder finished" in done and "waterfall finished" in done
        assert (workspace / "todos.py").exists() and (workspace / "test_todos.py").exists()
    finally:
        subprocess.run(["tmux", "kill-session", "-t", session], capture_output=True)
