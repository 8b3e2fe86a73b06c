"""Nothing `tui` starts outlives it, even after `kill -9`: an MCP server in the middle of a call
(and the process that server started), jailed or unconfined; a hook still running. Each is
found in the process table by a marker on its command line."""

from __future__ import annotations

import json
import os
import shutil
import signal
import sys
import time
from pathlib import Path

import pytest

from openhands_tui.testing import Script, ScriptedToolCall, Turn
from tests.conftest import language_servers, live_processes, model_args
from tests.launcher import WarmLauncher
from tests.mcp.servers import slow_server


def _wait_for(predicate, timeout: float = 30.0) -> None:
    deadline = time.monotonic() + timeout
    while not predicate():
        assert time.monotonic() < deadline, "timed out"
        time.sleep(0.05)


@pytest.mark.parametrize("mode", ["jailed", "unconfined"])
def test_an_mcp_server_mid_call_dies_with_a_killed_tui(
    serve, workspace: Path, tmp_path: Path, forker: WarmLauncher, isolated_home: Path, mode: str
) -> None:
    marker = f"orphan-mcp-{mode}-{os.getpid()}"
    entry = slow_server(tmp_path / "server", marker, **({"sandbox": {"mode": "off"}} if mode == "unconfined" else {}))
    config = Path(os.environ["XDG_CONFIG_HOME"]) / "openhands-tui" / "mcp.json"
    config.parent.mkdir(parents=True, exist_ok=True)
    config.write_text(json.dumps({"mcpServers": {"slow": entry}}))
    call = ScriptedToolCall(name="slow__wait", arguments={"seconds": 60})
    server = serve([Script(turns=[Turn(tool_calls=[call]), Turn.finish("done")])])
    args = ["--headless", "--task", "wait", "--confirm", "never", "--workspace", str(workspace), *model_args(server)]
    pid = forker.start(args, tmp_path / "out.txt", tmp_path / "err.txt")
    _wait_for(lambda: len(live_processes(marker)) >= 2)  # the server and its helper, mid-call
    os.kill(pid, signal.SIGKILL)
    assert forker.ended(pid) == "signal 9"
    _wait_for(lambda: live_processes(marker) == [], timeout=10)


def test_a_hook_still_running_dies_with_a_killed_tui(
    serve, workspace: Path, tmp_path: Path, forker: WarmLauncher
) -> None:
    marker = f"orphan-hook-{os.getpid()}"
    hooks = workspace / ".openhands"
    hooks.mkdir()
    # the hook waits with a child of its own (one in the background too), as a slow linter would
    command = f"sh -c 'sleep 120; : {marker}' & sh -c 'sleep 120; : {marker}-fg'"
    config = {"PreToolUse": [{"matcher": "Bash", "hooks": [{"type": "command", "command": command, "timeout": 300}]}]}
    (hooks / "hooks.json").write_text(json.dumps(config))
    server = serve([Script(turns=[Turn.call("terminal", command="true"), Turn.finish("done")])])
    args = ["--headless", "--task", "go", "--trust-project", "--workspace", str(workspace), *model_args(server)]
    pid = forker.start(args, tmp_path / "out.txt", tmp_path / "err.txt")
    _wait_for(lambda: len(live_processes(marker)) >= 2)
    os.kill(pid, signal.SIGKILL)
    assert forker.ended(pid) == "signal 9"
    _wait_for(lambda: live_processes(marker) == [], timeout=10)


@pytest.mark.skipif(
    shutil.which("basedpyright-langserver") is None
    and not Path(sys.executable).with_name("basedpyright-langserver").exists(),
    reason="basedpyright is not installed",
)
def test_a_language_server_dies_with_a_killed_tui(serve, workspace: Path, tmp_path: Path, forker: WarmLauncher) -> None:
    marker = f"sleep 73.{os.getpid()}"
    turns = [
        Turn.call("file_editor", command="create", path=str(workspace / "a.py"), file_text="x: int = 'a'\n"),
        Turn.call("terminal", command=marker),
        Turn.finish("done"),
    ]
    server = serve([Script(turns=turns)])
    args = ["--headless", "--task", "go", "--confirm", "never", "--workspace", str(workspace), *model_args(server)]
    pid = forker.start(args, tmp_path / "out.txt", tmp_path / "err.txt")
    _wait_for(lambda: bool(live_processes(marker)) and bool(language_servers(workspace)), timeout=60)
    os.kill(pid, signal.SIGKILL)
    assert forker.ended(pid) == "signal 9"
    _wait_for(lambda: not language_servers(workspace) and not live_processes(marker), timeout=10)
