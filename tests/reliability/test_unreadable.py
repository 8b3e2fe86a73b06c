"""Files and directories `tui` may not read. The suite runs as root, and chmod 000 does not stop
root, so each run here is the real `tui` as the unprivileged user nobody
(`setpriv --reuid=65534`), in a home and workspace it owns, among things only root may read:
each is a warning, a result the model reads, or one line and exit 2 — never a traceback, never
"(empty directory)" for a directory it could not list."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import tempfile
from collections.abc import Iterator
from pathlib import Path

import pytest

from openhands_tui.testing import Script, ScriptedToolCall, Turn
from tests.conftest import model_args

NOBODY = 65534
SETPRIV = shutil.which("setpriv")
pytestmark = [
    pytest.mark.subprocess,
    pytest.mark.skipif(os.geteuid() != 0 or SETPRIV is None, reason="needs root and setpriv to become nobody"),
]


@pytest.fixture
def home() -> Iterator[Path]:
    """A directory nobody owns (pytest's tmp_path is root's alone), removed afterwards."""
    path = Path(tempfile.mkdtemp(prefix="oht-nobody-"))
    path.chmod(0o755)
    for name in ("ws", "state", "config"):
        (path / name).mkdir()
    for place in [path, *path.iterdir()]:
        os.chown(place, NOBODY, NOBODY)
    yield path
    shutil.rmtree(path, ignore_errors=True)


def _root_only(path: Path, content: str | None = "secret\n") -> Path:
    """A file (or, with no content, a directory) that only root may read."""
    path.parent.mkdir(parents=True, exist_ok=True)
    if content is None:
        path.mkdir()
        (path / "inside.md").write_text("---\ntriggers: [go]\n---\nhidden\n")
    else:
        path.write_text(content)
    path.chmod(0)
    return path


def _as_nobody(home: Path, *args: str) -> subprocess.CompletedProcess[str]:
    env = {
        **os.environ,
        "HOME": str(home),
        "XDG_STATE_HOME": str(home / "state"),
        "XDG_CONFIG_HOME": str(home / "config"),
        "LLM_TIMEOUT": "10",
    }
    command = [str(SETPRIV), f"--reuid={NOBODY}", f"--regid={NOBODY}", "--clear-groups", sys.executable]
    return subprocess.run(
        [*command, "-m", "openhands_tui", *args], capture_output=True, text=True, env=env, cwd=home, timeout=120
    )


def _call(name: str, **arguments: object) -> Turn:
    return Turn(tool_calls=[ScriptedToolCall(name=name, arguments=arguments)])


def test_unreadable_workspace_files_and_microagents_are_warnings_or_results(serve, home: Path) -> None:
    ws = home / "ws"
    _root_only(ws / "secret.txt")
    _root_only(ws / "locked", content=None)
    _root_only(ws / ".openhands" / "microagents" / "m.md", "---\ntriggers: [go]\n---\nhi\n")
    _root_only(ws / ".agents" / "skills", content=None)
    _root_only(ws / "AGENTS.md")
    read_only = ws / "read-only.txt"
    read_only.write_text("keep\n")
    read_only.chmod(0o444)
    turns = [
        _call("file_editor", command="view", path="secret.txt"),
        _call("file_editor", command="view", path="locked"),
        _call("file_editor", command="view", path="."),
        _call("file_editor", command="insert", path="read-only.txt", insert_line=0, new_str="changed"),
        Turn.finish("done"),
    ]
    server = serve([Script(turns=turns)])
    flags = ["--headless", "--task", "go", "--sandbox", "off", "--workspace", str(ws)]
    result = _as_nobody(home, *flags, *model_args(server))
    assert result.returncode == 0 and "Traceback" not in result.stderr, result.stderr
    for skipped in [".openhands/microagents/m.md", ".agents/skills", "AGENTS.md"]:
        assert f"warning: {ws / skipped}: skipped, unreadable (Permission denied)" in result.stderr
    told = [str(request.messages[-1]["content"]) for request in server.requests[1:]]
    assert told[0] == "secret.txt: Permission denied"
    assert told[1] == f"{ws / 'locked'}: cannot list it (Permission denied)."
    assert "locked/[cannot list it: Permission denied]" in told[2]
    assert told[3] == "read-only.txt: Permission denied"
    assert read_only.read_text() == "keep\n" and read_only.stat().st_uid == 0


def test_an_unreadable_config_state_or_session_is_one_line(serve, home: Path) -> None:
    server = serve([Script(turns=[Turn.finish("never")])])
    run = ["--headless", "--task", "go", "--sandbox", "off", "--workspace", str(home / "ws"), *model_args(server)]

    def one_line(args: list[str], line: str) -> None:
        result = _as_nobody(home, *args)
        assert result.returncode == 2 and result.stderr == f"tui: {line}\n", (args, result.stderr)

    config = _root_only(home / "config" / "openhands-tui" / "config.toml", "[llm]\n")
    one_line(run, f"{config}: cannot read (Permission denied)")
    config.unlink()
    sessions = home / "state" / "openhands-tui" / "sessions"
    sessions.mkdir(parents=True)
    session = _root_only(sessions / "20260101-000000-abcd", content=None)
    one_line(["--resume", session.name, *run], f"--resume {session.name}: cannot read {session} (Permission denied)")
    sessions.chmod(0)
    one_line(run, f"cannot keep sessions under {sessions}: Permission denied")
    one_line(["sessions"], f"cannot read the sessions in {sessions} (Permission denied)")
    assert not server.requests
