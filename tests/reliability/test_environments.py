"""The environments users really run `tui` in: standard streams a launcher closed, an output
encoding that cannot show the model's text, a PATH without the usual tools. Each run is a fresh
interpreter: these conditions exist before the first line of Python runs."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from openhands_tui.sdk.facts.store import decode_line
from openhands_tui.testing import Script, Turn
from tests.conftest import model_args

ANSWER = "fini ✓ — ünïcødé"


def _tui(args: list[str], env: dict[str, str] | None = None, **kwargs: object) -> subprocess.CompletedProcess[bytes]:
    return subprocess.run(
        [sys.executable, "-m", "openhands_tui", *args],
        capture_output=True,
        env={**os.environ, **(env or {})},
        timeout=120,
        **kwargs,  # type: ignore[arg-type]
    )


def _events(state: Path) -> list[dict[str, object]]:
    """Every stored line, checked against its checksum (a stray write fails it)."""
    (log,) = (state / "openhands-tui" / "sessions").glob("*/events.jsonl")
    return [json.loads(decode_line(line).model_dump_json()) for line in log.read_bytes().splitlines()]


@pytest.mark.subprocess
@pytest.mark.parametrize("closed", [0, 1, 2], ids=["stdin", "stdout", "stderr"])
def test_a_closed_standard_stream_is_dev_null_not_a_traceback_or_the_log(
    serve, workspace: Path, isolated_home: Path, closed: int
) -> None:
    """`tui <&-`, `>&-`, `2>&-`: Python leaves the stream None (isatty/write would raise), and
    the next file opened takes the free descriptor; the command's `echo` must not land in the
    session log."""
    server = serve([Script(turns=[Turn.call("terminal", command="echo from-the-command"), Turn.finish(ANSWER)])])
    args = ["--headless", "--task", "go", *model_args(server), "--workspace", str(workspace), "--sandbox", "off"]
    result = _tui(args, preexec_fn=lambda: os.close(closed))
    err = result.stderr.decode()
    assert result.returncode == 0, err
    assert "Traceback" not in err
    if closed != 1:
        assert ANSWER in result.stdout.decode()
    if closed != 2:
        assert "finished · session" in err
    events = _events(isolated_home / "state")  # every line still JSON
    assert any(event.get("content") == ANSWER for event in events)


@pytest.mark.subprocess
def test_an_output_encoding_that_cannot_show_the_answer_replaces_what_it_cannot(serve, workspace: Path) -> None:
    server = serve([Script(turns=[Turn.finish(ANSWER)])])
    args = ["--headless", "--task", "go", *model_args(server), "--workspace", str(workspace)]
    result = _tui(args, env={"PYTHONIOENCODING": "ascii"})
    err = result.stderr.decode()
    assert result.returncode == 0, err
    assert "Traceback" not in err
    assert "fini ? ? ?n?c?d?" in result.stdout.decode("ascii")


@pytest.mark.subprocess
@pytest.mark.parametrize("path", ["", "only-a-project-bin"])
def test_a_path_without_the_usual_tools_still_has_a_shell_and_a_sandbox(
    serve, workspace: Path, tmp_path: Path, path: str
) -> None:
    """bash and bubblewrap's probe were looked up in PATH: an empty one, or a project's own `bin`
    only, had no shell and refused the sandbox ("bwrap: execvp true")."""
    if path:
        (tmp_path / path).mkdir()
        path = str(tmp_path / path)
    server = serve([Script(turns=[Turn.call("terminal", command="echo $((6 * 7)) > answer.txt"), Turn.finish(ANSWER)])])
    args = ["--headless", "--task", "go", *model_args(server), "--workspace", str(workspace)]
    result = _tui(args, env={"PATH": path})
    err = result.stderr.decode()
    assert result.returncode == 0, err
    assert "sandbox workspace-write" in err
    assert (workspace / "answer.txt").read_text() == "42\n"


def test_viewing_a_session_without_a_terminal_is_one_line_not_a_wait(serve, workspace: Path) -> None:
    """`tui view last | less`, or from a script: the viewer waited for keys no one could press."""
    from tests.conftest import run_tui

    server = serve([Script(turns=[Turn.finish("done")])])
    first = run_tui("--headless", "--task", "go", *model_args(server), "--workspace", str(workspace))
    assert first.returncode == 0, first.stderr
    result = run_tui("view", "last", timeout=30)
    assert result.returncode == 2
    assert result.stderr.strip().splitlines() == [
        "tui: view last: the viewer needs a terminal (standard input or output is not one)"
    ]
