"""A file that looks regular but blocks when read (/proc/kmsg waits for the kernel's next
message): the file editor read it in a worker thread that never returned, so the run hung, and
SIGTERM then waited on that thread at exit. It is refused at once, with the reason, and the run
goes on."""

from __future__ import annotations

import os
import stat
import subprocess
import sys
import time
from pathlib import Path

import pytest

from openhands_tui.sdk import Agent
from openhands_tui.sdk.detached import run_detached
from openhands_tui.testing import Script, Turn
from openhands_tui.tools.preset.default import get_default_tools
from tests.conftest import llm_for
from tests.sdk.helpers import run

KMSG = Path("/proc/kmsg")


def _blocks() -> bool:
    try:
        return stat.S_ISREG(KMSG.stat().st_mode) and os.access(KMSG, os.R_OK)
    except OSError:
        return False


@pytest.mark.skipif(not _blocks(), reason="needs a readable /proc/kmsg (root)")
async def test_a_kernel_file_that_would_block_is_refused_at_once(serve, workspace: Path) -> None:
    turns = [Turn.call("file_editor", command="view", path=str(KMSG)), Turn.finish("done")]
    server = serve([Script(turns=turns)])
    started = time.monotonic()
    result = await run(Agent(llm=llm_for(server), tools=get_default_tools()), workspace, "go")
    assert time.monotonic() - started < 10
    assert result.outcome.result == "done"
    told = str(server.requests[1].messages[-1]["content"])
    assert told == f"{KMSG} would block when read (a kernel file such as /proc/kmsg); the editor only reads files."


STUCK_THEN_CANCELLED = """
import asyncio, threading
from openhands_tui.sdk.detached import run_detached

async def main():
    stuck = asyncio.ensure_future(run_detached(threading.Event().wait))  # never returns
    await asyncio.sleep(0.2)
    stuck.cancel()
    try:
        await stuck
    except asyncio.CancelledError:
        print("cancelled", flush=True)

asyncio.run(main())
"""


def test_a_read_stuck_in_the_kernel_does_not_keep_the_process_alive() -> None:
    """What the file editor's work runs on: cancelled, it lets the process exit although its
    thread is still stuck (asyncio.to_thread's would be joined at exit, for ever)."""
    result = subprocess.run([sys.executable, "-c", STUCK_THEN_CANCELLED], capture_output=True, text=True, timeout=20)
    assert result.returncode == 0 and result.stdout == "cancelled\n", result.stderr


async def test_detached_work_returns_its_result_or_raises_its_error() -> None:
    assert await run_detached(sum, [1, 2, 3]) == 6
    with pytest.raises(ZeroDivisionError):
        await run_detached(lambda: 1 / 0)
