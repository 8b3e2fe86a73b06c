"""Rewind and fork in the app, read off what is drawn: Esc Esc lists the turns, choosing one and
what to restore puts the files and the conversation back and says so in the transcript; /fork
goes on in a new session whose tree names its origin; checkpoints that could not be taken or
left files out are said once; a rewind that cannot be done leaves the session usable."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import pytest

from openhands_tui.interactive import build_app
from openhands_tui.launch_options import LaunchOptions
from openhands_tui.sdk.facts.event import (
    CheckpointEvent,
    MessageEvent,
    RewindEvent,
    SessionForkedEvent,
    SystemPromptEvent,
)
from openhands_tui.sdk.facts.store import SessionStore
from openhands_tui.sdk.run.confirmation import ConfirmationMode
from openhands_tui.sdk.timeline.history import Turn as HistoryTurn
from openhands_tui.testing import Script, Turn
from openhands_tui.tui import timeline_host
from openhands_tui.tui.app import OpenHandsApp
from openhands_tui.tui.config import AppConfig
from openhands_tui.tui.screens.rewind import RestoreScreen, RewindChoice, RewindScreen
from openhands_tui.tui.state import SessionView
from openhands_tui.tui.widgets.tree import AgentTree
from tests.tui.conftest import SIZE, live_app, wait_until


def _drawn(app: OpenHandsApp) -> str:
    """The text the current screen draws, line by line, as the terminal would show it."""
    return "\n".join(strip.text for strip in app.screen._compositor.render_strips())


def _transcript_words(app: OpenHandsApp) -> str:
    """The drawn transcript's words on one line: each screen line left of the tree's border,
    joined (a long notice wraps over lines, wherever the width puts the break)."""
    return " ".join(" ".join(line.split("▏")[0].split()) for line in _drawn(app).splitlines())


def _two_turns_of_edits() -> list[Script]:
    """Turn 1 edits notes.txt and makes new.txt; turn 2 edits notes.txt again."""
    edit = Turn.call("file_editor", command="str_replace", path="notes.txt", old_str="original", new_str="first")
    make = Turn.call("file_editor", command="create", path="new.txt", file_text="made in turn 1\n")
    again = Turn.call("file_editor", command="str_replace", path="notes.txt", old_str="first", new_str="second")
    turns = [edit, make, Turn.finish("one done"), again, Turn.finish("two done"), Turn.finish("after the rewind")]
    return [Script(turns=turns)]


async def _run(pilot, app: OpenHandsApp, task: str, finished: int) -> None:
    """Type `task` and wait for the run to end (the `finished`-th `● finished` line)."""
    await pilot.press(*task, "enter")
    await wait_until(
        pilot, lambda: sum(e.text.startswith("● finished") for e in app.view.transcript("root")) >= finished
    )
    await wait_until(pilot, lambda: not app.runs.running)


async def test_escape_twice_lists_the_turns_and_rewinding_to_the_first_restores_files_and_conversation(
    serve, workspace: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(timeline_host, "DOUBLE_ESCAPE", 60.0)  # a loaded machine is slow between two keys
    (workspace / "notes.txt").write_text("original\n")
    server = serve(_two_turns_of_edits())
    app = live_app(server, workspace, confirm=ConfirmationMode.NEVER)
    async with app.run_test(size=SIZE) as pilot:
        await wait_until(pilot, lambda: app.session is not None)
        await _run(pilot, app, "edit the notes", 1)
        await _run(pilot, app, "edit them again", 2)
        assert (workspace / "notes.txt").read_text() == "second\n"
        session = app.session.session_id  # type: ignore[union-attr]

        await pilot.press("escape")
        await pilot.pause(0.05)
        assert any(n.message == "Esc again to rewind" for n in app._notifications)
        await pilot.press("escape")
        await wait_until(pilot, lambda: isinstance(app.screen, RewindScreen) and app.screen.is_mounted)
        await pilot.pause(0.1)
        listed = _drawn(app)
        assert "edit the notes" in listed and "edit them again" in listed and "files ✓" in listed
        assert listed.index("edit the notes") < listed.index("edit them again")  # the newest last

        await pilot.press("up", "enter")  # the newest is highlighted: up is turn 1
        await wait_until(pilot, lambda: isinstance(app.screen, RestoreScreen) and app.screen.is_mounted)
        await pilot.pause(0.1)
        asked = _drawn(app)
        assert "Rewind to before turn 1: edit the notes" in asked and "Files and conversation" in asked
        await pilot.press("enter")  # the default: both
        await wait_until(
            pilot, lambda: not app.starting and any(e.kind == "notice" for e in app.view.transcript("root"))
        )
        await pilot.pause(0.2)

        assert (workspace / "notes.txt").read_text() == "original\n" and not (workspace / "new.txt").exists()
        assert app.session is not None and app.session.session_id == session  # the same session, reopened
        drawn = _transcript_words(app)
        rewound = "↶ Rewound to before turn 1 (files and conversation): 1 file restored, 1 removed"
        assert f"{rewound} — /rewind again to undo" in drawn
        assert "edit the notes" not in drawn  # the conversation went back to before it
        assert not [e for e in app.view.transcript("root") if e.kind == "user"]

        await _run(pilot, app, "start over", 1)  # the session goes on from there
        sent = [str(m["content"]).split("\n")[0] for m in server.requests[-1].messages if m["role"] == "user"]
        assert sent == ["start over"]


async def test_two_escapes_far_apart_only_say_how_to_rewind(serve, workspace: Path) -> None:
    server = serve([Script(turns=[Turn.finish("one")])])
    app = live_app(server, workspace, task="first")
    async with app.run_test(size=SIZE) as pilot:
        await wait_until(pilot, lambda: app.view.root_status == "finished" and not app.runs.running)
        await pilot.press("escape")
        app._last_escape -= timeline_host.DOUBLE_ESCAPE + 1  # as if the second came two seconds later
        await pilot.press("escape")
        await pilot.pause(0.1)
        assert not isinstance(app.screen, RewindScreen)
        assert [n.message for n in app._notifications].count("Esc again to rewind") == 2


async def test_undoing_a_rewind_from_the_list_brings_the_files_back(serve, workspace: Path) -> None:
    (workspace / "notes.txt").write_text("original\n")
    server = serve(_two_turns_of_edits())
    app = live_app(server, workspace, confirm=ConfirmationMode.NEVER)
    async with app.run_test(size=SIZE) as pilot:
        await wait_until(pilot, lambda: app.session is not None)
        await _run(pilot, app, "edit the notes", 1)
        app.rewind_session(RewindChoice(1, code=True, conversation=False))  # files only
        await wait_until(pilot, lambda: not app.starting and app.session is not None)
        assert (workspace / "notes.txt").read_text() == "original\n"
        assert any(e.kind == "user" for e in app.view.transcript("root"))  # the conversation stayed

        await pilot.press(*"/rewind", "enter")
        await wait_until(pilot, lambda: isinstance(app.screen, RewindScreen) and app.screen.is_mounted)
        await pilot.pause(0.1)
        assert "↷ Undo the last rewind (to before turn 1, files only)" in _drawn(app)
        await pilot.press("home", "enter")
        await wait_until(pilot, lambda: not app.starting and "↷ Undid" in _drawn(app), timeout=60)
        assert (workspace / "notes.txt").read_text() == "first\n" and (workspace / "new.txt").exists()


async def test_a_rewind_that_cannot_be_done_is_one_line_and_the_session_goes_on(serve, workspace: Path) -> None:
    server = serve([Script(turns=[Turn.finish("one"), Turn.finish("still here")])])
    app = live_app(server, workspace)
    async with app.run_test(size=SIZE) as pilot:
        await wait_until(pilot, lambda: app.session is not None)
        await _run(pilot, app, "first", 1)
        app.rewind_session(RewindChoice(5))
        await wait_until(pilot, lambda: not app.starting and app.session is not None)
        said = [n.message for n in app._notifications if n.severity == "error"]
        assert said == [f"Not rewound: --to 5: session {app.session.session_id} has turns 1 to 1"], said  # type: ignore[union-attr]
        await _run(pilot, app, "again", 2)
        assert "still here" in [e.text for e in app.view.transcript("root")]


async def test_rewind_waits_for_the_run_to_be_interrupted(serve, workspace: Path) -> None:
    server = serve([Script(turns=[Turn(delay=30.0, text="slow")])])
    app = live_app(server, workspace, task="take your time")
    async with app.run_test(size=SIZE) as pilot:
        await wait_until(pilot, lambda: app.runs.running)
        await pilot.press(*"/rewind", "enter")
        await pilot.pause(0.1)
        assert any(n.message == "Interrupt the run first (Esc)." for n in app._notifications)
        assert not isinstance(app.screen, RewindScreen)


async def test_fork_goes_on_in_a_new_session_whose_tree_names_its_origin(serve, workspace: Path) -> None:
    server = serve([Script(turns=[Turn.finish("one"), Turn.finish("two"), Turn.finish("in the fork")])])
    app = live_app(server, workspace)
    async with app.run_test(size=SIZE) as pilot:
        await wait_until(pilot, lambda: app.session is not None)
        await _run(pilot, app, "first", 1)
        await _run(pilot, app, "second", 2)
        origin = app.session.session_id  # type: ignore[union-attr]

        await pilot.press(*"/fork 2", "enter")
        await wait_until(pilot, lambda: app.session is not None and app.session.session_id != origin)
        await pilot.pause(0.2)
        fork = app.session.session_id  # type: ignore[union-attr]
        drawn = _drawn(app)
        assert f"⑂ fork of {origin} at turn 2" in drawn  # the tree, above its agents
        assert f"⑂ Forked from session {origin} (first): its turns before turn 2" in _transcript_words(app)
        users = [e.text for e in app.view.transcript("root") if e.kind == "user"]
        assert users == ["first"]
        assert app.view.transcript("root")[0].text.startswith("⑂ Forked from session")  # at the top
        tree = app.query_one(AgentTree)
        assert tree.show_root and tree.root.is_expanded and "solo finished" in drawn  # its agents under it

        await _run(pilot, app, "another second", 2)
    store = SessionStore()
    origin_users = [
        e.content for e in store.open(origin).load().events if isinstance(e, MessageEvent) and e.role == "user"
    ]
    assert origin_users == ["first", "second"]  # the original is as it was
    assert store.open(fork).meta.forked_from == origin


async def test_an_app_started_with_fork_forks_once_and_resume_then_opens_what_it_names(serve, workspace: Path) -> None:
    server = serve([Script(turns=[Turn.finish("one")])])
    first = live_app(server, workspace, task="first")
    async with first.run_test(size=SIZE) as pilot:
        await wait_until(pilot, lambda: first.view.root_status == "finished")
    origin = SessionStore().open("last").id
    options = LaunchOptions(model=server.model, base_url=server.base_url, api_key="k", workspace=workspace)
    app = build_app(replace(options, resume=origin, fork=True), preload_litellm=False, remember_theme=False)
    async with app.run_test(size=SIZE) as pilot:
        await wait_until(pilot, lambda: app.session is not None)
        assert app.session.session_id != origin  # type: ignore[union-attr]
        app.switch_session(origin)
        assert app.session.session_id == origin  # type: ignore[union-attr]  # not a second fork of it
    assert len(SessionStore().list_sessions()) == 2


async def test_a_bad_fork_turn_is_said_as_typed() -> None:
    app = OpenHandsApp(AppConfig(read_only=False, preload_litellm=False, remember_theme=False))
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press(*"/fork two", "enter")
        await pilot.pause(0.05)
        assert any(n.message.startswith("/fork two: give a turn number") for n in app._notifications)


def _checkpoint(**fields: object) -> CheckpointEvent:
    return CheckpointEvent(agent_id="root", turn_event="m", **fields)  # type: ignore[arg-type]


def test_checkpoint_notices_say_a_problem_once_and_skipped_files_when_they_change() -> None:
    view = SessionView()
    for event in [
        SystemPromptEvent(agent_id="root", agent_name="solo", model="m", content="sys"),
        _checkpoint(problem="git is not installed"),
        _checkpoint(problem="git is not installed"),
        _checkpoint(tree="t1", skipped=["big.bin (12 MB, over 10 MB)", "a\x1b]52;c;aGk=\x07b.txt (Permission denied)"]),
        _checkpoint(tree="t2", skipped=["big.bin (12 MB, over 10 MB)", "a\x1b]52;c;aGk=\x07b.txt (Permission denied)"]),
        _checkpoint(tree="t3"),
    ]:
        view.apply(event)
    notices = [(e.level, e.text) for e in view.transcript("root") if e.kind == "notice"]
    assert notices == [
        (
            "warning",
            "No checkpoint of the files: git is not installed; rewind can restore the conversation only",
        ),
        ("info", "Checkpoint left out 2 files: big.bin (12 MB, over 10 MB); ab.txt (Permission denied)"),
    ]


def test_only_the_last_rewind_says_how_to_undo_it() -> None:
    view = SessionView()
    first = RewindEvent(agent_id="root", to_event="m1", turn=2, changed=["M a.py", "M b.py", "D new.py"])
    undo = RewindEvent(agent_id="root", to_event=first.id, undoes=first.id, code=True, changed=["A new.py"])
    talk = RewindEvent(agent_id="root", to_event="m1", turn=1, code=False)
    for event in (first, undo, talk):
        view.apply(event)
    assert [e.text for e in view.transcript("root")] == [
        "↶ Rewound to before turn 2 (files and conversation): 2 files restored, 1 removed",
        "↷ Undid the last rewind (files and conversation): 1 file brought back",
        "↶ Rewound to before turn 1 (conversation only) — /rewind again to undo",
    ]


async def test_a_turn_without_a_checkpoint_offers_the_conversation_only_and_says_why() -> None:
    fork = SessionForkedEvent(agent_id="root", origin="20260101-000000-abcd", origin_title="[b]x[/b]", turn=None)
    app = OpenHandsApp(AppConfig(history=[fork], read_only=True, preload_litellm=False, remember_theme=False))
    turn = HistoryTurn(1, "m1", "tidy [b]up[/b]", "2026-01-01T00:00:00+00:00", checkpoint_note="git is not installed")
    async with app.run_test(size=SIZE) as pilot:
        chosen: list[RewindChoice | None] = []
        app.push_screen(RestoreScreen(turn), chosen.append)
        await pilot.pause(0.2)
        drawn = _drawn(app)
        assert "Rewind to before turn 1: tidy [b]up[/b]" in drawn  # the user's words, not markup
        assert "The files cannot be restored (git is not installed): only the conversation can." in drawn
        await pilot.press("up", "enter")  # the files' choices are disabled: still the conversation
        await pilot.pause(0.1)
    assert chosen == [RewindChoice(1, code=False, conversation=True)]
