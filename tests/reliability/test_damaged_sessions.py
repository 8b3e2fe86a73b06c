"""A session store damaged in ways a crash or a hostile workspace leave it: a log or metadata
file (with its backup copy) replaced by a pipe, a directory or bytes that are not text. Resuming
is one line naming the file, exit 2, at once (a pipe for its tui.log too); listing sessions skips
the damaged one."""

from __future__ import annotations

import os
import shutil
from pathlib import Path

import pytest

from openhands_tui.testing import Script, Turn
from tests.conftest import model_args, run_tui

DAMAGE = {
    "events.jsonl is a pipe": ("events.jsonl", "pipe"),
    "events.jsonl is a directory": ("events.jsonl", "directory"),
    "meta.json is a pipe": ("meta.json", "pipe"),
    "meta.json is not UTF-8": ("meta.json", "binary"),
    "tui.log is a pipe": ("tui.log", "pipe"),
}


@pytest.mark.parametrize("case", list(DAMAGE))
def test_a_damaged_session_is_one_line_and_skipped_in_lists(serve, workspace: Path, case: str) -> None:
    server = serve([Script(turns=[Turn.finish("first"), Turn.finish("second")])])
    args = [*model_args(server), "--workspace", str(workspace)]
    first = run_tui("--headless", "--task", "go", *args)
    assert first.returncode == 0, first.stderr
    session_id = first.stderr.rsplit("resume with: tui --resume ", 1)[1].split(")")[0]
    directory = Path(os.environ["XDG_STATE_HOME"]) / "openhands-tui" / "sessions" / session_id
    name, how = DAMAGE[case]
    target = directory / name
    # metadata is kept twice (tests/reliability/test_mended_sessions.py): both copies damaged
    for path in [target, directory / "meta.backup.json"] if name == "meta.json" else [target]:
        path.unlink()
        if how == "pipe":
            os.mkfifo(path)
        elif how == "directory":
            path.mkdir()
        else:
            path.write_bytes(b"\xff\xfe{\x00")
    resumed = run_tui("--headless", "--resume", session_id, "--task", "more", *args, timeout=30)
    assert resumed.returncode == 2 and "Traceback" not in resumed.stderr
    lines = resumed.stderr.strip().splitlines()
    assert len(lines) == 1 and str(target) in lines[0], resumed.stderr
    listed = run_tui("sessions", timeout=30)
    assert listed.returncode == 0 and "Traceback" not in listed.stderr
    if name == "meta.json":
        assert session_id not in listed.stdout
    shutil.rmtree(directory)


def test_resume_takes_an_id_never_a_path_out_of_the_store(tmp_path: Path) -> None:
    from openhands_tui.sdk.errors import SessionError
    from openhands_tui.sdk.facts.store import SessionStore

    outside = tmp_path / "elsewhere"
    outside.mkdir()
    (outside / "meta.json").write_text("{}")
    store = SessionStore(tmp_path / "state")
    for ref in ("../../elsewhere", str(outside), ".", ""):
        with pytest.raises(SessionError, match="not a session id"):
            store.open(ref)
