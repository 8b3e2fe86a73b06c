"""The jail's /tmp is its own, an empty tmpfs; yet a project checked out under the host's /tmp
(its venv there), a PATH entry or `[sandbox] readable` path there, or tui's own interpreter
there must still show in the jail, bound back on top of that tmpfs, while nothing else of the
host's /tmp does. Against real bubblewrap, with folders made under the real /tmp."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import tempfile
from collections.abc import Iterator
from pathlib import Path

import pytest

import openhands_tui
from openhands_tui.jail.bubblewrap import find_bubblewrap
from openhands_tui.jail.jail import Jail
from openhands_tui.jail.view import build_view
from openhands_tui.sdk.sandbox import SandboxPolicy
from openhands_tui.sdk.tool import ToolContext
from openhands_tui.tools.terminal import TerminalAction, TerminalTool

needs_bwrap = pytest.mark.skipif(find_bubblewrap().path is None, reason=f"no bubblewrap: {find_bubblewrap().problem}")

#: Beside the toolchain under /tmp: must never show in the jail.
_SIBLING_SECRET = "tmp-sibling-secret-21"

#: Run by the venv's interpreter under /tmp: starts that very interpreter (its `sys.executable`,
#: as an MCP server entry names it) inside a jail, PATH naming nothing under /tmp.
_STARTS_ITSELF_JAILED = """\
import os, subprocess, sys
from pathlib import Path
from openhands_tui.jail.bubblewrap import find_bubblewrap
from openhands_tui.jail.jail import Jail
from openhands_tui.sdk.sandbox import SandboxPolicy

workspace = Path(sys.argv[1])
jail = Jail(SandboxPolicy(mode="read-only"), workspace, find_bubblewrap().path, environ={"PATH": "/usr/bin:/bin"})
argv = jail.argv(str(workspace), []) + [sys.executable, "-c", "import sys; print('jailed', sys.prefix)"]
env = {key: value for key, value in os.environ.items() if key != "PYTHONPATH"}
done = subprocess.run(argv, capture_output=True, text=True, env=env, timeout=60)
print(done.stdout + done.stderr)
sys.exit(done.returncode)
"""


@pytest.fixture
def under_tmp() -> Iterator[Path]:
    """A folder under the host's real /tmp (not pytest's basetemp, which may lie elsewhere)."""
    base = Path(tempfile.mkdtemp(dir="/tmp", prefix="oht-tmp-tools-"))
    (base / "sibling.txt").write_text(f"{_SIBLING_SECRET}\n")
    yield base
    shutil.rmtree(base, ignore_errors=True)


def _venv(folder: Path) -> Path:
    """A venv without pip (fast), made from the interpreter running the tests."""
    subprocess.run([sys.executable, "-m", "venv", "--without-pip", str(folder)], check=True, timeout=120)
    return folder


def _probe(folder: Path) -> Path:
    """A program in `folder/bin` that says it ran."""
    tool = folder / "bin" / "oht-tmp-probe"
    tool.parent.mkdir(parents=True)
    tool.write_text("#!/bin/sh\necho tmp-toolchain-ran\n")
    tool.chmod(0o755)
    return tool


def test_what_lies_under_tmp_is_bound_back_after_the_private_tmp_and_tmp_itself_never(under_tmp: Path) -> None:
    tools = _probe(under_tmp / "tools").parent
    data = under_tmp / "data"
    data.mkdir()
    workspace = under_tmp / "project"
    workspace.mkdir()
    home = Path(tempfile.mkdtemp(dir="/var/tmp", prefix="oht-home-"))
    try:
        environ = {"PATH": f"{tools}{os.pathsep}/tmp{os.pathsep}{under_tmp}{os.pathsep}/usr/bin"}
        view = build_view(home, workspace, [str(data)], environ, None)
        assert tools in view.bound and data in view.bound
        # /tmp whole, or the workspace's parent whole (its siblings), is never bound back
        assert Path("/tmp") not in view.bound and under_tmp not in view.bound
        policy = SandboxPolicy(readable=[str(data)])
        argv = Jail(policy, workspace, "bwrap", home=str(home), environ=environ).argv(str(workspace), [])
    finally:
        shutil.rmtree(home, ignore_errors=True)
    private = argv.index("/tmp", argv.index("--tmpfs"))
    assert argv[private - 1] == "--tmpfs"
    for shown in (tools, data, workspace):  # bound beneath it: after it, or the tmpfs would cover them
        assert argv.index(str(shown)) > private


@needs_bwrap
async def test_a_toolchain_and_workspace_under_tmp_run_while_the_rest_of_tmp_stays_hidden(
    under_tmp: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    workspace = under_tmp / "project"
    workspace.mkdir()
    (workspace / "notes.txt").write_text("in-the-workspace\n")
    tools = _probe(under_tmp / "tools").parent
    venv = _venv(under_tmp / "venv")
    monkeypatch.setenv("PATH", f"{tools}{os.pathsep}{venv / 'bin'}{os.pathsep}{os.environ['PATH']}")
    host_file = Path(tempfile.mkstemp(prefix="oht-host-tmp-")[1])
    host_file.write_text(f"{_SIBLING_SECRET}\n")
    tool = TerminalTool(ToolContext(workspace, "root"))
    try:
        command = "oht-tmp-probe && python -c 'import sys; print(\"venv\", sys.prefix)' && cat notes.txt"
        ran = await tool.run(TerminalAction(command=command))
        hidden = await tool.run(TerminalAction(command=f"cat {under_tmp}/sibling.txt {host_file} 2>&1"))
        listed = await tool.run(TerminalAction(command=f"ls -a {under_tmp} /tmp"))
    finally:
        await tool.close()
        host_file.unlink()
    assert ran.exit_code == 0, ran.text
    assert "tmp-toolchain-ran" in ran.text and f"venv {venv}" in ran.text and "in-the-workspace" in ran.text
    assert _SIBLING_SECRET not in hidden.text and "No such file" in hidden.text
    # only what was bound back shows: the workspace, the toolchain, the venv (mount points)
    assert "sibling.txt" not in listed.text and host_file.name not in listed.text, listed.text


@needs_bwrap
def test_the_interpreter_running_tui_from_under_tmp_starts_in_the_jail(under_tmp: Path) -> None:
    """As an MCP server entry names `sys.executable`: a checkout under /tmp, its venv there."""
    venv = _venv(under_tmp / "checkout" / ".venv-ci")
    workspace = under_tmp / "project"
    workspace.mkdir()
    script = under_tmp / "starts_itself_jailed.py"
    script.write_text(_STARTS_ITSELF_JAILED)
    # the venv is bare: it imports tui and its dependencies from where this test does
    imports = [str(Path(openhands_tui.__file__).parents[1]), *(p for p in sys.path if p and os.path.isdir(p))]
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(imports), "PATH": "/usr/bin:/bin"}
    argv = [str(venv / "bin" / "python"), str(script), str(workspace)]
    done = subprocess.run(argv, capture_output=True, text=True, env=env, timeout=120)
    assert done.returncode == 0, done.stdout + done.stderr
    assert f"jailed {venv}" in done.stdout
