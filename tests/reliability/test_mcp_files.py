"""`tui mcp add/remove` against an MCP file it cannot read or write: a FIFO in its place blocked
the command for ever (the engine read it safely, `tui mcp` did not), and a full disk was an
ENOSPC traceback. Now one line each, and the file is as it was."""

from __future__ import annotations

import json
import os
import sys
from pathlib import Path

import pytest

from tests.conftest import run_tui
from tests.reliability.test_processes import _in_jail, pytestmark_bwrap


@pytest.mark.parametrize("command", [["add", "x", "--", "echo"], ["remove", "x"], ["list"]])
def test_a_fifo_for_the_mcp_file_is_refused_not_waited_on(isolated_home: Path, command: list[str]) -> None:
    mcp_file = isolated_home / "config" / "openhands-tui" / "mcp.json"
    mcp_file.parent.mkdir(parents=True)
    os.mkfifo(mcp_file)
    result = run_tui("mcp", *command, timeout=20)
    said = [line for line in result.stderr.splitlines() if line.strip()]
    assert said and "not a regular file" in said[-1] and str(mcp_file) in said[-1]
    assert result.returncode == (0 if command == ["list"] else 2)  # `list` warns and lists the rest


@pytestmark_bwrap
@pytest.mark.subprocess
def test_a_full_disk_leaves_the_mcp_file_as_it_was(tmp_path: Path) -> None:
    config = tmp_path / "config"
    config.mkdir()
    kept = {"mcpServers": {"keep": {"command": "echo"}}}
    tui = f"XDG_CONFIG_HOME={config} {sys.executable} -m openhands_tui mcp"
    script = (
        f"mkdir -p {config}/openhands-tui && echo '{json.dumps(kept)}' > {config}/openhands-tui/mcp.json && "
        f"head -c 1000000 /dev/zero > {config}/filler 2>/dev/null; "
        f"{tui} add more -- echo hi; echo EXIT=$?; {tui} remove keep; echo EXIT=$?; "
        f"cat {config}/openhands-tui/mcp.json"
    )
    result = _in_jail(["--size", "65536", "--tmpfs", str(config)], script)
    assert "Traceback" not in result.stderr, result.stderr
    assert result.stdout.count("EXIT=1") == 2, result.stdout + result.stderr
    assert result.stderr.splitlines() == [f"tui mcp: {config}/openhands-tui/mcp.json: disk full; it is unchanged"] * 2
    assert json.loads(result.stdout.split("EXIT=1")[-1]) == kept
