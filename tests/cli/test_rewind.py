"""`tui rewind` and `tui --resume ID --fork`: a session whose agents changed files with the
editor and with commands (sed, mv, rm, a sub-agent's writes) goes back to before its first turn
— every file as it was, files made since gone, the user's own git untouched — and continues
from there; the rewind is undone; a fork continues on its own."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

from openhands_tui.sdk.facts.event import MessageEvent, RewindEvent, SessionForkedEvent
from openhands_tui.sdk.facts.store import SessionStore
from openhands_tui.sdk.timeline.history import effective_history
from openhands_tui.testing import Script, Turn
from tests.conftest import model_args, run_tui

REPO = Path(__file__).resolve().parents[2]
STRATEGY = str(REPO / "tests" / "fixtures" / "three_levels.py")
COMMANDS = "sed -i s/old/new/ old.txt && mv old.txt renamed.txt && rm sub/data.txt && mkdir made && echo x > made/n.txt"


def _files(workspace: Path) -> dict[str, str]:
    return {
        str(p.relative_to(workspace)): p.read_text()
        for p in sorted(workspace.rglob("*"))
        if p.is_file() and ".git" not in p.relative_to(workspace).parts
    }


def _scripts() -> list[Script]:
    root = [
        Turn.call("file_editor", command="str_replace", path="keep.txt", old_str="original", new_str="edited"),
        Turn.call("terminal", command=COMMANDS),
        Turn.finish("first done"),
        Turn.call("delegate", agent="coder", task="write child.txt and drop keep.txt"),
        Turn.finish("second done"),
        Turn.finish("after the rewind"),
        Turn.finish("in the fork"),
    ]
    coder = [Turn.call("terminal", command="echo child > child.txt && rm keep.txt"), Turn.finish("coded")]
    return [Script(name="root", match="ROLE:root", turns=root), Script(name="coder", match="ROLE:coder", turns=coder)]


def _session(home: Path, ref: str = "last") -> tuple[str, list[object]]:
    log = SessionStore(home / "state" / "openhands-tui").open(ref)
    return log.id, list(log.load(repair=False).events)


def test_rewinding_to_the_first_turn_restores_every_file_and_the_conversation(
    serve, workspace: Path, isolated_home: Path
) -> None:
    subprocess.run(["git", "init", "-q", str(workspace)], check=True)
    (workspace / "keep.txt").write_text("original\n")
    (workspace / "old.txt").write_text("old\n")
    (workspace / "sub").mkdir()
    (workspace / "sub" / "data.txt").write_text("data\n")
    (workspace / ".gitignore").write_text("ignored/\n")
    (workspace / "ignored").mkdir()
    (workspace / "ignored" / "cache").write_text("left alone\n")
    before = _files(workspace)
    server = serve(_scripts())
    flags = [*model_args(server), "--workspace", str(workspace), "--headless", "--confirm", "never"]
    flags += ["--strategy", STRATEGY]
    first = run_tui(*flags, "--task", "first task")
    assert first.returncode == 0, first.stderr
    second = run_tui(*flags, "--resume", "last", "--task", "second task")
    assert second.returncode == 0, second.stderr
    changed = _files(workspace)
    assert changed["keep.txt" if "keep.txt" in changed else "child.txt"] and "renamed.txt" in changed
    assert "child.txt" in changed and "keep.txt" not in changed and "sub/data.txt" not in changed
    session, _ = _session(isolated_home)

    listed = run_tui("rewind", session, "--json")
    assert listed.returncode == 0, listed.stderr
    rows = json.loads(listed.stdout)["turns"]
    assert [(r["turn"], r["task"], r["files"]) for r in rows] == [(1, "first task", True), (2, "second task", True)]

    done = run_tui("rewind", session, "--to", "1")
    assert done.returncode == 0, done.stderr
    assert _files(workspace) == before  # the ignored cache was never touched either
    assert not (workspace / "made").exists()  # a folder made since goes with its files
    assert "removed       child.txt" in done.stdout and "brought back  old.txt" in done.stdout
    assert not (workspace / ".git" / "index").exists()  # the user's own git was never written to
    _, events = _session(isolated_home, session)
    assert not [e for e in effective_history(events) if isinstance(e, MessageEvent)]

    resumed = run_tui(*flags, "--resume", session, "--task", "start again")
    assert resumed.returncode == 0, resumed.stderr and "after the rewind" in resumed.stdout
    sent = [m for m in server.requests[-1].messages if m["role"] in ("user", "assistant")]
    assert [m["content"].split("\n")[0] for m in sent if m["role"] == "user"] == ["start again"]

    undone = run_tui("rewind", session, "--undo")  # undo: the files as they were before the rewind
    assert undone.returncode == 0, undone.stderr
    assert "child.txt" in _files(workspace) and "keep.txt" not in _files(workspace)
    _, events = _session(isolated_home, session)
    history = effective_history(events)
    assert [e.content for e in history if isinstance(e, MessageEvent) and e.role == "user" and e.agent_id == "root"][
        :2
    ] == ["first task", "second task"]
    assert sum(isinstance(e, RewindEvent) for e in events) == 2  # nothing was deleted from the log


def test_a_fork_continues_on_its_own_and_names_its_origin(serve, workspace: Path, isolated_home: Path) -> None:
    server = serve([Script(turns=[Turn.finish("one"), Turn.finish("two"), Turn.finish("forked")])])
    flags = [*model_args(server), "--workspace", str(workspace), "--headless"]
    assert run_tui(*flags, "--task", "first").returncode == 0
    assert run_tui(*flags, "--resume", "last", "--task", "second").returncode == 0
    origin, origin_events = _session(isolated_home)

    forked = run_tui(*flags, "--resume", origin, "--fork", "--at", "2", "--task", "another second")
    assert forked.returncode == 0, forked.stderr
    fork, fork_events = _session(isolated_home)
    assert fork != origin
    assert isinstance(fork_events[0], SessionForkedEvent) and fork_events[0].origin == origin
    users = [e.content for e in fork_events if isinstance(e, MessageEvent) and e.role == "user"]
    assert users == ["first", "another second"]
    sent = [str(m["content"]).split("\n")[0] for m in server.requests[-1].messages if m["role"] == "user"]
    assert sent == ["first", "another second"]  # the model of the fork saw turn 1, not the origin's turn 2
    _, still = _session(isolated_home, origin)
    assert [e.id for e in still] == [e.id for e in origin_events]  # the origin is untouched
    meta = SessionStore(isolated_home / "state" / "openhands-tui").open(fork).meta
    assert (meta.forked_from, meta.forked_at) == (origin, 2)


def test_rewind_and_fork_refuse_what_cannot_be_done_in_one_line(serve, workspace: Path, isolated_home: Path) -> None:
    server = serve([Script(turns=[Turn.finish("one")])])
    flags = [*model_args(server), "--workspace", str(workspace), "--headless"]
    assert run_tui(*flags, "--no-checkpoints", "--task", "first").returncode == 0
    session, _ = _session(isolated_home)
    cases = {
        ("rewind", session, "--to", "5"): "has turns 1 to 1",
        ("rewind", session, "--to", "1"): "no checkpoint of the files",
        ("rewind", session, "--undo"): "no rewind to undo",
        ("rewind", "nope"): "rewind nope: no such session",
        ("rewind", session, "--code"): "add --to",
        ("rewind", session, "--to", "1", "--code", "--both"): "choose one",
        ("--fork", "--headless", "--task", "x"): "use it with --resume ID",
        ("--resume", session, "--fork", "--at", "3", "--headless", "--task", "x"): "--at 3: session",
    }
    for args, said in cases.items():
        result = run_tui(*args)
        assert result.returncode == 2, (args, result.stderr)
        assert said in result.stderr and len(result.stderr.strip().splitlines()) == 1, (args, result.stderr)
    conversation_only = run_tui("rewind", session, "--to", "1", "--conversation")
    assert conversation_only.returncode == 0 and "(conversation)" in conversation_only.stdout


def test_a_headless_run_says_once_what_its_checkpoints_leave_out(serve, workspace: Path) -> None:
    subprocess.run(["git", "init", "-q", str(workspace / "vendored")], check=True)
    (workspace / "vendored" / "lib.py").write_text("x = 1\n")
    server = serve([Script(turns=[Turn.finish("one")])])
    result = run_tui(*model_args(server), "--workspace", str(workspace), "--headless", "--task", "first")
    assert result.returncode == 0, result.stderr
    said = "warning: Checkpoint left out 1 file: vendored/ (a nested git repository)"
    assert result.stderr.count(said) == 1, result.stderr


def test_a_home_folder_workspace_gets_no_checkpoints_and_is_told_so(serve, isolated_home: Path) -> None:
    server = serve([Script(turns=[Turn.finish("one")])])
    args = [*model_args(server), "--workspace", str(isolated_home), "--workspace-is-home", "--headless"]
    result = run_tui(*args, "--task", "first")
    assert result.returncode == 0, result.stderr
    assert f"no checkpoints of {isolated_home.resolve()} (too wide to snapshot)" in result.stderr
    assert not (isolated_home / "state" / "openhands-tui" / "checkpoints").exists()
