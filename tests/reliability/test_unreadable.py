"""Files and directories `tui` may not read. The suite runs as root, and chmod 000 does not stop
root, so each run here is the real `tui` as the unprivileged user nobody
(`setpriv --reuid=65534`), in a home and workspace it owns, among things only root may read:
each is a warning, a result the model reads, or one line and exit 2 — never a traceback, never
"(empty directory)" for a directory it could not list.

nobody must reach this checkout and its virtualenv to run `tui` at all: one checked out in a
folder only root may enter (`mktemp -d`) is shown to nobody through a mount namespace of its
own (`reach`), where each such folder on the way is an empty one anyone may enter holding only
what leads to them; everything else, the files under test above all, keeps its owner and mode."""

from __future__ import annotations

import functools
import os
import shutil
import stat
import subprocess
import sys
import tempfile
from collections.abc import Iterator
from pathlib import Path

import pytest

import openhands_tui
from openhands_tui.jail.bubblewrap import find_bubblewrap
from openhands_tui.testing import Script, ScriptedToolCall, Turn
from tests.conftest import model_args

NOBODY = 65534
SETPRIV = shutil.which("setpriv")
pytestmark = [
    pytest.mark.subprocess,
    pytest.mark.skipif(os.geteuid() != 0 or SETPRIV is None, reason="needs root and setpriv to become nobody"),
]


def _nobody(*command: str) -> list[str]:
    return [str(SETPRIV), f"--reuid={NOBODY}", f"--regid={NOBODY}", "--clear-groups", *command]


def _searchable_by_nobody(folder: Path) -> bool:
    try:
        info = folder.stat()
    except OSError:
        return False
    if info.st_uid == NOBODY:
        return bool(info.st_mode & stat.S_IXUSR)
    if info.st_gid == NOBODY:
        return bool(info.st_mode & stat.S_IXGRP)
    return bool(info.st_mode & stat.S_IXOTH)


def _what_tui_runs_from() -> list[Path]:
    """The interpreter, its virtualenv and installation, this checkout and every import path."""
    places = [Path(sys.executable).parent, Path(os.path.realpath(sys.executable)).parent]
    places += [Path(sys.prefix), Path(sys.base_prefix), Path(openhands_tui.__file__).resolve().parents[1]]
    places += [Path(entry) for entry in sys.path if entry and os.path.isabs(entry)]
    return [Path(os.path.normpath(place)) for place in places if place.is_dir()]


def _unblocking(bwrap: str) -> list[str]:
    """A bwrap prefix (root's own mount namespace, nothing else unshared) in which each folder
    nobody cannot enter on the way to what tui runs from is an empty folder anyone may enter,
    holding only the next folder on that way, bound from the host. Outermost first, so a blocked
    folder inside one bound back is emptied after it."""
    places = _what_tui_runs_from()
    blocked = sorted(
        {folder for place in places for folder in [place, *place.parents] if not _searchable_by_nobody(folder)},
        key=lambda folder: len(folder.parts),
    )
    args = [bwrap, "--dev-bind", "/", "/"]
    for folder in blocked:
        args += ["--perms", "0755", "--tmpfs", str(folder)]
        for child in sorted({folder / p.relative_to(folder).parts[0] for p in places if folder in p.parents}):
            args += ["--dev-bind", str(child), str(child)]
    return [*args, "--"]


def _cannot_import(prefix: list[str]) -> str:
    """Why nobody cannot run `import openhands_tui` with this interpreter (empty: it can)."""
    probe = [*prefix, *_nobody(sys.executable, "-c", "import openhands_tui")]
    try:
        done = subprocess.run(probe, capture_output=True, text=True, cwd="/", timeout=60)
    except (OSError, subprocess.TimeoutExpired) as exc:
        return str(exc)
    return "" if done.returncode == 0 else (done.stderr.strip().splitlines() or [f"exit {done.returncode}"])[-1]


@functools.cache
def _reach() -> tuple[list[str], str]:
    """What to run nobody's `tui` under so it can import this checkout: nothing when it can as it
    is, else the bwrap prefix of `_unblocking`; or why neither works (the test is skipped)."""
    problem = _cannot_import([])
    if not problem:
        return [], ""
    bwrap = find_bubblewrap().path
    if bwrap is None:
        return [], f"nobody cannot import openhands_tui from this checkout ({problem}) and there is no bwrap"
    prefix = _unblocking(bwrap)
    again = _cannot_import(prefix)
    if again:
        return [], f"nobody cannot import openhands_tui from this checkout ({problem}), nor through bwrap ({again})"
    return prefix, ""


@pytest.fixture
def reach() -> list[str]:
    """The prefix nobody's `tui` runs under (see `_reach`); skips when nobody cannot run it."""
    prefix, problem = _reach()
    if problem:
        pytest.skip(problem)
    return prefix


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


def _as_nobody(reach: list[str], home: Path, *args: str) -> subprocess.CompletedProcess[str]:
    env = {
        **os.environ,
        "HOME": str(home),
        "XDG_STATE_HOME": str(home / "state"),
        "XDG_CONFIG_HOME": str(home / "config"),
        "LLM_TIMEOUT": "10",
    }
    command = [*reach, *_nobody(sys.executable, "-m", "openhands_tui", *args)]
    return subprocess.run(command, capture_output=True, text=True, env=env, cwd=home, timeout=120)


def _call(name: str, **arguments: object) -> Turn:
    return Turn(tool_calls=[ScriptedToolCall(name=name, arguments=arguments)])


def test_unreadable_workspace_files_and_microagents_are_warnings_or_results(serve, reach, home: Path) -> None:
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
    result = _as_nobody(reach, home, *flags, *model_args(server))
    assert result.returncode == 0 and "Traceback" not in result.stderr, result.stderr
    for skipped in [".openhands/microagents/m.md", ".agents/skills", "AGENTS.md"]:
        assert f"warning: {ws / skipped}: skipped, unreadable (Permission denied)" in result.stderr
    told = [str(request.messages[-1]["content"]) for request in server.requests[1:]]
    assert told[0] == "secret.txt: Permission denied"
    assert told[1] == f"{ws / 'locked'}: cannot list it (Permission denied)."
    assert "locked/[cannot list it: Permission denied]" in told[2]
    assert told[3] == "read-only.txt: Permission denied"
    assert read_only.read_text() == "keep\n" and read_only.stat().st_uid == 0


def test_an_unreadable_config_state_or_session_is_one_line(serve, reach, home: Path) -> None:
    server = serve([Script(turns=[Turn.finish("never")])])
    run = ["--headless", "--task", "go", "--sandbox", "off", "--workspace", str(home / "ws"), *model_args(server)]

    def one_line(args: list[str], line: str) -> None:
        result = _as_nobody(reach, home, *args)
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
