"""The workspace deleted, replaced, or mounted read-only while the run goes on: each later call
is an error the model reads that says what happened, the run still finishes, and nothing
recreates the deleted workspace as if it had been there all along."""

from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path

import pytest

from openhands_tui.sdk import Agent
from openhands_tui.sdk.sandbox import SandboxPolicy
from openhands_tui.testing import Script, Turn
from openhands_tui.tools.preset.default import get_default_tools
from tests.conftest import llm_for
from tests.sdk.helpers import run

#: Unconfined: inside the sandbox the workspace is a mount point, which `rm -rf` cannot remove.
OFF = SandboxPolicy(mode="off")
AFTERWARDS = [
    Turn.call("file_editor", command="create", path="new.txt", file_text="hi\n"),
    Turn.call("file_editor", command="str_replace", path="a.txt", old_str="a", new_str="b"),
    Turn.finish("done"),
]


@pytest.mark.parametrize("how", ["rm -rf", "replaced by a file"])
async def test_a_workspace_gone_mid_run_is_said_and_never_recreated(serve, workspace: Path, how: str) -> None:
    (workspace / "a.txt").write_text("a\n")
    command = 'rm -rf "$PWD"' if how == "rm -rf" else 'd="$PWD"; cd /; rm -rf "$d"; echo x > "$d"'
    server = serve([Script(turns=[Turn.call("terminal", command=command), *AFTERWARDS])])
    result = await run(Agent(llm=llm_for(server), tools=get_default_tools()), workspace, "go", sandbox=OFF)
    assert result.outcome.result == "done"
    told = [str(request.messages[-1]["content"]) for request in server.requests[2:]]
    assert (
        told
        == [
            f"The workspace {workspace} is gone (deleted or replaced during the run); "
            "nothing in it can be viewed or changed. Tell the user."
        ]
        * 2
    )
    assert not workspace.is_dir()


@pytest.mark.skipif(os.geteuid() != 0 or shutil.which("mount") is None, reason="needs root to mount")
async def test_a_workspace_mounted_read_only_mid_run_names_the_cause(serve, workspace: Path) -> None:
    (workspace / "a.txt").write_text("a\n")
    remount = f"mount --bind '{workspace}' '{workspace}' && mount -o remount,ro,bind '{workspace}'"
    server = serve([Script(turns=[Turn.call("terminal", command=remount), *AFTERWARDS])])
    try:
        result = await run(Agent(llm=llm_for(server), tools=get_default_tools()), workspace, "go", sandbox=OFF)
    finally:
        subprocess.run(["umount", str(workspace)], capture_output=True, check=False)
    assert result.outcome.result == "done"
    told = [str(request.messages[-1]["content"]) for request in server.requests[2:]]
    assert told == ["new.txt: Read-only file system", "a.txt: Read-only file system"]
    assert (workspace / "a.txt").read_text() == "a\n"
