"""Commands that take the persistent shell's own output away: the next command's end is still
seen at once, not after the timeout."""

from __future__ import annotations

import time
from pathlib import Path

import pytest

from openhands_tui.executors.local.shell import BashSession


@pytest.mark.parametrize("hostile", ["exec >/dev/null 2>&1", "exec 1>&-", "exec 19>&- >/dev/null", "exec </dev/null"])
async def test_a_command_that_redirects_the_shell_does_not_freeze_the_next(workspace: Path, hostile: str) -> None:
    session = BashSession(workspace)
    try:
        started = time.monotonic()
        await session.run(hostile, timeout=20)
        after = await session.run("echo still here; pwd", timeout=20)
        assert time.monotonic() - started < 10
        assert "still here" in after.output and after.exit_code == 0 and after.cwd == str(workspace)
    finally:
        await session.close()
