"""Files and flags that would hang or flood the program: a pipe, a device or a directory where a
file is expected, a symlink loop, a task too big for any model, a strategy that exits. Each is
one line naming the file or flag, exit 2, at once."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from openhands_tui.sdk.files.read import read_regular
from tests.conftest import run_tui


def _one_line(result, *needles: str) -> None:  # type: ignore[no-untyped-def]
    assert result.returncode == 2, result.stderr
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("tui: "), result.stderr
    for needle in needles:
        assert needle in lines[0], lines[0]


def test_read_regular_refuses_what_would_block_or_flood(tmp_path: Path) -> None:
    os.mkfifo(tmp_path / "pipe")
    os.symlink("loop", tmp_path / "loop")
    (tmp_path / "big").write_bytes(b"x" * 101)
    for path, problem in [
        (tmp_path / "pipe", "not a regular file"),
        ("/dev/zero", "not a regular file"),
        (tmp_path, "is a directory"),
        (tmp_path / "big", "101 bytes is more than the 100-byte limit"),
    ]:
        with pytest.raises(OSError) as caught:
            read_regular(path, limit=100)
        assert problem in str(caught.value.strerror)
    with pytest.raises(OSError, match="symbolic links"):
        read_regular(tmp_path / "loop")
    with pytest.raises(FileNotFoundError):
        read_regular(tmp_path / "absent")
    assert read_regular(tmp_path / "big", limit=101) == b"x" * 101


def test_a_pipe_or_device_as_task_file_is_refused_at_once(tmp_path: Path) -> None:
    os.mkfifo(tmp_path / "pipe")
    for path in (tmp_path / "pipe", Path("/dev/zero")):
        result = run_tui("--headless", "--task-file", str(path), timeout=20)
        _one_line(result, f"--task-file {path}", "not a regular file")


def test_a_task_too_big_for_any_model_is_refused(tmp_path: Path) -> None:
    big = tmp_path / "task.txt"
    big.write_text("word " * 300_000)
    _one_line(run_tui("--headless", "--task-file", str(big)), "--task-file", "1,000,000-byte limit")
    _one_line(run_tui("--headless", "--task", "-", input="word " * 300_000), "--task -", "1,000,000-byte limit")


@pytest.mark.parametrize("kind", ["pipe", "symlink loop", "directory"])
def test_a_config_file_that_cannot_be_read_is_one_line(isolated_home: Path, kind: str) -> None:
    config = isolated_home / "config" / "openhands-tui" / "config.toml"
    config.parent.mkdir(parents=True)
    {"pipe": os.mkfifo, "symlink loop": lambda p: os.symlink(p.name, p), "directory": os.mkdir}[kind](config)
    result = run_tui("--headless", "--task", "go", timeout=20)
    _one_line(result, str(config), "cannot read")


def test_a_pipe_for_project_rules_is_one_line(workspace: Path) -> None:
    rules = workspace / ".openhands-tui" / "permissions.toml"
    rules.parent.mkdir()
    os.mkfifo(rules)
    args = ["--headless", "--task", "go", "--trust-project", "--workspace", str(workspace), "--model", "openai/x"]
    _one_line(run_tui(*args, timeout=20), str(rules), "not a regular file")


def test_a_strategy_that_is_a_pipe_or_exits_is_one_line(tmp_path: Path) -> None:
    os.mkfifo(tmp_path / "pipe.py")
    _one_line(run_tui("--strategy", str(tmp_path / "pipe.py"), "--describe", timeout=20), "not a regular file")
    (tmp_path / "exits.py").write_text("import sys\nsys.exit(5)\n")
    _one_line(run_tui("--strategy", str(tmp_path / "exits.py"), "--describe"), "exits.py", "SystemExit: 5")


@pytest.mark.parametrize(
    ("args", "flag"),
    [(["--max-iterations", "0"], "--max-iterations"), (["--bogus"], "--bogus"), (["--confirm", "maybe"], "--confirm")],
)
def test_a_usage_error_is_one_line(args: list[str], flag: str) -> None:
    _one_line(run_tui(*args), flag)


def test_a_pipe_among_microagents_and_skills_is_skipped_with_a_warning(workspace: Path) -> None:
    from openhands_tui.sdk.context.loader import load_microagents

    for pipe in (workspace / ".openhands/microagents/pipe.md", workspace / ".openhands/skills/piped/SKILL.md"):
        pipe.parent.mkdir(parents=True, exist_ok=True)
        os.mkfifo(pipe)
    (workspace / ".openhands/microagents/real.md").write_text("---\ntriggers: [deploy]\n---\nUse make deploy.\n")
    loaded = load_microagents(workspace, include_builtin=False, home=workspace / "home")
    assert [skill.name for skill in loaded.skills] == ["real"]
    assert sum("not a regular file" in warning for warning in loaded.warnings) == 2


@pytest.mark.parametrize(("name", "value"), [("LLM_TIMEOUT", "nan"), ("LLM_TIMEOUT", "inf"), ("LLM_TIMEOUT", "0")])
def test_a_timeout_that_is_not_a_finite_positive_number_is_refused(
    monkeypatch: pytest.MonkeyPatch, name: str, value: str
) -> None:
    from openhands_tui.sdk.errors import SettingsError
    from openhands_tui.sdk.settings import llm_tuning

    monkeypatch.setenv(name, value)
    with pytest.raises(SettingsError, match=f"{name}: must be a finite number above 0, got '{value}'"):
        llm_tuning({})


def test_an_argument_that_is_not_utf8_is_one_line(workspace: Path) -> None:
    _one_line(run_tui("--headless", "--task", "caf\udcff"), "--task caf?: not UTF-8 text")


def test_garbage_from_an_editor_is_answered_as_a_parse_error_and_the_next_request_is_answered() -> None:
    garbage = "\x00not json\n" + '{"jsonrpc":"2.0","id":1,"method":"no/such/method"}\n'
    result = run_tui("acp", input=garbage, timeout=60, fresh=True)  # the launcher sees tests/acp as `acp`
    assert "Traceback" not in result.stderr and result.returncode == 0
    first, second = result.stdout.splitlines()
    assert '"id": null, "error": {"code": -32700' in first  # JSON-RPC's answer to what is not JSON
    assert '"id":1,"error":{"code":-32601' in second


def test_frontmatter_built_to_hurt_is_skipped_not_a_crash() -> None:
    from openhands_tui.sdk.context.files import parse_header

    laughs = 'a: &a ["lol", "lol", "lol"]\n' + "".join(
        f"{name}: &{name} [{', '.join([f'*{prev}'] * 9)}]\n" for prev, name in zip("abcdefgh", "bcdefghi", strict=True)
    )
    deep = "x: " + "[" * 5000 + "]" * 5000
    for header, problem in [(laughs, "aliases (*name) are not allowed"), (deep, "maximum recursion depth")]:
        data, why = parse_header(header + "\ntriggers: [boom]\n")
        assert why is not None and problem in why
        assert data is None or len(str(data)) < 1_000


@pytest.mark.subprocess
@pytest.mark.parametrize("after", [0.15, 0.6])
def test_ctrl_c_while_tui_starts_is_exit_130_without_a_traceback(workspace: Path, after: float) -> None:
    import signal
    import subprocess
    import sys
    import time

    args = ["--headless", "--task", "go", "--model", "openai/x", "--base-url", "http://127.0.0.1:9/v1"]
    for attempt in range(6):
        child = subprocess.Popen(
            [sys.executable, "-m", "openhands_tui", *args, "--workspace", str(workspace)],
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
            env={**os.environ, "LLM_NUM_RETRIES": "20", "LLM_RETRY_MIN_WAIT": "1"},
        )
        time.sleep(after + 0.15 * attempt)
        child.send_signal(signal.SIGINT)
        out, err = child.communicate(timeout=60)
        assert "/openhands_tui/" not in err, err  # no traceback through our code, whenever it lands
        if child.returncode == 130:
            break
        # Before our first line (a loaded machine can take longer than 0.15 s to get there) the
        # interpreter's own start-up is interrupted: killed by the signal (a shell reports 130),
        # or exit 1 from inside `site`. Try again a little later, to land in our start-up.
        assert child.returncode in (1, -signal.SIGINT), err
    assert child.returncode == 130, "Ctrl-C never landed in our start-up"
    assert "Traceback" not in out + err and "KeyboardInterrupt" not in err and "RuntimeWarning" not in err


INTERRUPT_TURNED_INTO_AN_ERROR = """
import os, signal, time
try:
    os.kill(os.getpid(), signal.SIGINT)
    time.sleep(5)  # the handler runs here
except KeyboardInterrupt:  # as pydantic's schema builder does: its own error, mentioning the interrupt
    raise RuntimeError("Error building serializer: KeyboardInterrupt") from None
"""


@pytest.mark.subprocess
def test_ctrl_c_that_a_library_turns_into_its_own_error_is_still_exit_130(workspace: Path, tmp_path: Path) -> None:
    """Under load, Ctrl-C can land while pydantic first builds a model's schema, and pydantic
    reports a SchemaError instead of letting the KeyboardInterrupt through; the user pressed
    Ctrl-C, so it is the quiet exit 130 all the same, not a traceback or a load error."""
    import subprocess
    import sys

    strategy = tmp_path / "interrupted.py"
    strategy.write_text(INTERRUPT_TURNED_INTO_AN_ERROR)
    args = ["--headless", "--task", "go", "--model", "openai/x", "--base-url", "http://127.0.0.1:9/v1"]
    done = subprocess.run(
        [sys.executable, "-m", "openhands_tui", *args, "--strategy", str(strategy), "--workspace", str(workspace)],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode == 130, done.stderr
    assert "Traceback" not in done.stderr and "tui:" not in done.stderr


@pytest.mark.subprocess
def test_a_reader_that_goes_away_does_not_break_the_run(serve, workspace: Path) -> None:
    """`tui --headless ... | head -1`: the run goes on to its end and exit code, no BrokenPipeError."""
    import subprocess
    import sys

    from openhands_tui.testing import Script, Turn
    from tests.conftest import model_args

    server = serve([Script(turns=[Turn.call("terminal", command="seq 1 20000"), Turn.finish("line\n" * 20_000)])])
    args = ["--headless", "--task", "go", *model_args(server), "--workspace", str(workspace)]
    child = subprocess.Popen(
        [sys.executable, "-m", "openhands_tui", *args], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True
    )
    assert child.stdout is not None and child.stderr is not None
    child.stdout.read(10)
    child.stdout.close()
    err = child.stderr.read()
    assert child.wait(timeout=60) == 0, err
    assert "Traceback" not in err and "BrokenPipe" not in err and "finished · session" in err


@pytest.mark.subprocess
def test_a_current_directory_deleted_under_the_shell_is_one_line(tmp_path: Path) -> None:
    import subprocess
    import sys

    gone = tmp_path / "gone"
    gone.mkdir()
    script = (
        f"cd {gone} && rmdir {gone} && exec {sys.executable} -m openhands_tui --headless --task go --model openai/x"
    )
    result = subprocess.run(["bash", "-c", script], capture_output=True, text=True, timeout=60, cwd=tmp_path)
    assert result.returncode == 2, result.stderr
    assert result.stderr.strip() == "tui: the current directory no longer exists; pass --workspace DIR"


def test_resuming_a_session_whose_workspace_is_gone_names_it(serve, workspace: Path) -> None:
    import shutil

    from openhands_tui.testing import Script, Turn
    from tests.conftest import model_args

    server = serve([Script(turns=[Turn.finish("first")])])
    assert run_tui("--headless", "--task", "go", *model_args(server), "--workspace", str(workspace)).returncode == 0
    shutil.rmtree(workspace)
    resumed = run_tui("--headless", "--resume", "last", "--task", "more", *model_args(server))
    _one_line(resumed, f"the session's workspace {workspace}: not a directory")


def test_the_app_without_a_terminal_is_one_line_not_a_wait_for_nobody(workspace: Path) -> None:
    result = run_tui("--task", "go", "--model", "openai/x", "--workspace", str(workspace), timeout=30)
    _one_line(result, "the app needs a terminal", "use --headless")
