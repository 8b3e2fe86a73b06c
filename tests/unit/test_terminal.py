"""The persistent bash session behind the `terminal` tool."""

from __future__ import annotations

import asyncio
import os
import time
from pathlib import Path

import pytest

from openhands_tui.sdk.tool import ToolContext
from openhands_tui.tools.terminal import BashSession, TerminalAction, TerminalTool


@pytest.fixture
async def shell(workspace: Path):
    session = BashSession(workspace, max_output_bytes=2000)
    yield session
    await session.close()


async def test_cd_and_exports_persist(shell: BashSession, workspace: Path) -> None:
    (workspace / "sub").mkdir()
    await shell.run("cd sub && export GREETING=hello", 10)
    result = await shell.run("pwd; echo $GREETING", 10)
    assert result.output.splitlines() == [str(workspace / "sub"), "hello"]
    assert result.exit_code == 0 and result.cwd == str(workspace / "sub")


async def test_exit_codes_and_stderr(shell: BashSession) -> None:
    result = await shell.run("echo out; echo err >&2; exit_status() { return 7; }; exit_status", 10)
    assert result.exit_code == 7
    assert "out" in result.output and "err" in result.output


async def test_syntax_error_stays_inside_one_command(shell: BashSession) -> None:
    broken = await shell.run("echo 'unbalanced", 10)
    assert broken.exit_code not in (0, None)
    after = await shell.run("echo still-alive", 10)
    assert after.output == "still-alive" and after.exit_code == 0


async def test_stdin_is_closed(shell: BashSession) -> None:
    result = await shell.run("cat; echo done", 10)
    assert result.output == "done"


async def test_timeout_kills_the_process_group_and_restarts_in_cwd(shell: BashSession, workspace: Path) -> None:
    marker = workspace / "pid"
    await shell.run("cd /tmp", 10)
    started = time.monotonic()
    result = await shell.run(f"sleep 300 & echo $! > {marker}; sleep 300", 0.5)
    assert result.timed_out and time.monotonic() - started < 10
    child = int(marker.read_text())
    await asyncio.sleep(0.1)
    assert not _alive(child), "the background child of a timed-out command must be killed"
    after = await shell.run("pwd", 10)
    assert after.output == "/tmp" and after.shell_restarted is False


async def test_cancellation_kills_the_command(shell: BashSession, workspace: Path) -> None:
    marker = workspace / "pid"
    task = asyncio.create_task(shell.run(f"sleep 300 & echo $! > {marker}; wait", 30))
    for _ in range(100):
        if marker.exists() and marker.read_text().strip():
            break
        await asyncio.sleep(0.02)
    task.cancel()
    with pytest.raises(asyncio.CancelledError):
        await task
    await asyncio.sleep(0.1)
    assert not _alive(int(marker.read_text()))


async def test_exit_restarts_the_shell(shell: BashSession) -> None:
    gone = await shell.run("exit 4", 10)
    assert gone.exit_code == 4 and gone.shell_restarted
    again = await shell.run("echo back", 10)
    assert again.output == "back"


async def test_long_output_keeps_head_and_tail(shell: BashSession) -> None:
    result = await shell.run("seq 1 100000", 20)
    assert result.output.startswith("1\n2\n3\n")
    assert result.output.endswith("99999\n100000")
    assert "bytes of output omitted" in result.output
    assert len(result.output) < 2000 + 200


async def test_colour_codes_and_carriage_returns_are_cleaned(shell: BashSession) -> None:
    result = await shell.run(r"printf '\033[31mred\033[0m\n'; printf '10%%\r50%%\r100%%\n'", 10)
    assert result.output.splitlines() == ["red", "100%"]


async def test_tool_reports_exit_code_and_cwd(workspace: Path) -> None:
    tool = TerminalTool(ToolContext(workspace=workspace, agent_id="root"))
    try:
        observation = await tool.run(TerminalAction(command="echo hi; false"))
        assert observation.is_error
        assert observation.text.endswith(f"[exit code 1 · cwd {workspace}]")
        assert observation.data()["exit_code"] == 1
        empty = await tool.run(TerminalAction(command="  "))
        assert empty.is_error and "empty" in empty.text
    finally:
        await tool.close()


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    try:  # a zombie is dead for our purposes
        with open(f"/proc/{pid}/stat") as f:
            return f.read().split()[2] != "Z"
    except FileNotFoundError:
        return False


async def test_a_shell_leaves_no_scratch_directory_behind(workspace: Path, tmp_path: Path, monkeypatch) -> None:
    import tempfile

    scratch = tmp_path / "tmp"
    scratch.mkdir()
    monkeypatch.setattr(tempfile, "tempdir", str(scratch))
    idle = BashSession(workspace)  # an agent that never runs a command: no directory at all
    assert list(scratch.iterdir()) == []
    await idle.close()
    used = BashSession(workspace)
    assert (await used.run("echo hi", 10)).output.strip() == "hi"
    assert [p.name[:9] for p in scratch.iterdir()] == ["oht-bash-"]
    await used.close()
    assert list(scratch.iterdir()) == []
