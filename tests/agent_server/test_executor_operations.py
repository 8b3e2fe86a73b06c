"""Every executor offers the same operations with the same meaning (`executors/base.py`): this
machine's, with its shell in the sandbox, and a real OpenHands agent-server's. The tools are
written once against them, so a difference here would be a tool that works in one place only."""

from __future__ import annotations

import subprocess
from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from openhands_tui.executors import Executor, executor_for
from openhands_tui.sdk.executor import parse_executor
from openhands_tui.sdk.sandbox import SandboxPolicy
from openhands_tui.sdk.tool import ToolContext
from tests.agent_server_fixture import AgentServer

pytestmark = pytest.mark.subprocess


def _repository(folder: Path) -> Path:
    """A git repository with one committed file, `tracked.txt`."""
    folder.mkdir()
    (folder / "tracked.txt").write_text("old line\n")
    git = ["git", "-C", str(folder), "-c", "user.name=t", "-c", "user.email=t@example.invalid"]
    for args in (["init", "-q"], ["add", "tracked.txt"], ["commit", "-q", "-m", "start"]):
        subprocess.run([*git, *args], check=True, capture_output=True)
    return folder


@pytest.fixture(params=["local", "agent-server"])
async def executor(request: pytest.FixtureRequest, tmp_path: Path) -> AsyncIterator[Executor]:
    workspace = _repository(tmp_path / "workspace")
    if request.param == "local":
        ctx = ToolContext(workspace=workspace, agent_id="root", sandbox=SandboxPolicy())
    else:
        server: AgentServer = request.getfixturevalue("agent_server")
        spec = parse_executor(f"agent-server:{server.url}", environ={"SESSION_API_KEY": server.key})
        ctx = ToolContext(workspace=workspace, agent_id="root", executor=spec)
    yield executor_for(ctx)
    await ctx.services.aclose()


async def test_files_are_written_whole_read_back_described_listed_and_removed(executor: Executor) -> None:
    root = executor.workspace
    await executor.write("notes/deep/a.txt", b"alpha\n")  # its folders are made
    assert await executor.read("notes/deep/a.txt") == b"alpha\n"
    assert await executor.read(f"{root}/notes/deep/a.txt") == b"alpha\n"  # absolute paths too
    assert await executor.read("notes/missing.txt") is None
    file, folder = await executor.stat("notes/deep/a.txt"), await executor.stat("notes")
    assert file is not None and (file.kind, file.size) == ("file", 6)
    assert folder is not None and folder.kind == "folder"
    assert await executor.stat("nothing/here") is None
    await executor.make_folders("empty/one")
    assert await executor.list("notes", depth=2) == [f"{root}/notes/deep", f"{root}/notes/deep/a.txt"]
    assert await executor.list("notes", depth=1) == [f"{root}/notes/deep"]
    await executor.remove("notes/deep/a.txt")
    await executor.remove("notes/deep/a.txt")  # nothing there: nothing happens
    assert await executor.read("notes/deep/a.txt") is None
    assert (await executor.stat("empty/one")) is not None
    assert executor.resolve("x/../y.txt") == f"{root}/y.txt"


async def test_the_shell_keeps_its_folder_and_exports_between_commands(executor: Executor) -> None:
    shell = executor.open_shell()
    try:
        first = await shell.run("mkdir -p sub && cd sub && export GREETING=hi", 30)
        assert first.exit_code == 0, first.output
        second = await shell.run('echo "$GREETING from $(pwd)"; exit 3', 30)
        assert second.output.strip() == f"hi from {executor.workspace}/sub"
        assert (second.exit_code, second.cwd) == (3, f"{executor.workspace}/sub")
    finally:
        await shell.close()


async def test_the_changes_come_back_as_one_patch_new_files_included(executor: Executor) -> None:
    assert await executor.changes() == ""  # a repository with nothing changed
    await executor.write("tracked.txt", b"new line\n")
    await executor.write("brand new.txt", b"x\n")
    diff = await executor.changes()
    assert "-old line\n+new line\n" in diff
    assert "+++ b/brand new.txt" in diff and diff.endswith("\n+x\n")  # a new file, as a patch of its own


async def test_a_workspace_that_is_no_repository_has_no_changes_to_show(executor: Executor) -> None:
    subprocess.run(["rm", "-rf", f"{executor.workspace}/.git"], check=True)
    await executor.write("a.txt", b"a\n")
    assert await executor.changes() is None
