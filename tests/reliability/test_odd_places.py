"""The commands other than a run, started from places they cannot use: a current directory
deleted under the shell (`tui microagents`, `tui risk`, `tui mcp` ended in a FileNotFoundError
traceback; a run already said it in one line), and `tui acp` with standard input or output that
is no pipe (a regular file was a ValueError traceback; /dev/null, which epoll refuses, a
traceback and then a wait for ever)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest


def _tui_in(directory: Path, *args: str, redirect: str = "") -> subprocess.CompletedProcess[str]:
    """`tui ARGS` started by a shell whose current directory was deleted under it."""
    directory.mkdir()
    words = " ".join(f"'{word}'" for word in [sys.executable, "-m", "openhands_tui", *args])
    script = f"cd '{directory}' && rmdir '{directory}' && {words} {redirect}"
    return subprocess.run(["bash", "-c", script], capture_output=True, text=True, timeout=30)


@pytest.mark.subprocess
@pytest.mark.parametrize(
    ("args", "prefix"),
    [
        (["microagents"], "tui"),
        (["microagents", "--workspace", "."], "tui"),
        (["risk", "ls"], "tui"),
        (["mcp", "list"], "tui mcp"),
        (["mcp", "add", "x", "--", "echo"], "tui mcp"),
    ],
)
def test_a_deleted_current_directory_is_one_line(tmp_path: Path, args: list[str], prefix: str) -> None:
    result = _tui_in(tmp_path / "gone", *args)
    assert (result.returncode, result.stderr.splitlines()) == (
        2,
        [f"{prefix}: the current directory no longer exists; pass --workspace DIR"],
    )


@pytest.mark.subprocess
@pytest.mark.parametrize(
    ("redirect", "stream"),
    [
        ("< /dev/null | cat", "standard input"),
        ("< /etc/hostname | cat", "standard input"),
        ("> out.jsonl", "standard output"),
    ],
    ids=["stdin-devnull", "stdin-file", "stdout-file"],
)
def test_acp_without_pipes_is_one_line_not_a_wait(tmp_path: Path, redirect: str, stream: str) -> None:
    script = f"cd '{tmp_path}' && {sys.executable} -m openhands_tui acp {redirect}; echo EXIT=${{PIPESTATUS[0]}}"
    result = subprocess.run(["bash", "-c", script], capture_output=True, text=True, timeout=30, input="")  # a pipe
    assert "EXIT=2" in result.stdout, result.stdout + result.stderr
    assert result.stderr.splitlines() == [
        f"tui: acp: {stream} is not a pipe or a terminal; editors run tui acp with pipes (JSON-RPC on stdio)"
    ]


def test_a_workspace_whose_path_holds_a_newline_works_as_any_other(serve, tmp_path: Path) -> None:
    """The shell reported its folder on a line of its own: a newline in the path cut it short,
    the shell's folder was lost, and every write was rated HIGH (refused headless)."""
    from openhands_tui.testing import Script, Turn
    from tests.conftest import model_args, run_tui

    workspace = tmp_path / "my\nproject"
    (workspace / "sub").mkdir(parents=True)
    turns = [
        Turn.call("terminal", command="touch first.txt"),
        Turn.call("terminal", command="cd sub && touch second.txt"),
        Turn.call("terminal", command="touch third.txt && pwd"),
        Turn.finish("done"),
    ]
    server = serve([Script(turns=turns)])
    result = run_tui("--headless", "--task", "go", "--workspace", str(workspace), *model_args(server))
    assert result.returncode == 0, result.stderr
    assert (workspace / "first.txt").exists() and (workspace / "sub" / "second.txt").exists()
    assert (workspace / "sub" / "third.txt").exists()  # the shell stayed in sub/, as it said
    assert str(workspace / "sub") in server.requests[3].messages[-1]["content"]
