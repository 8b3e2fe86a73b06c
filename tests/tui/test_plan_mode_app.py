"""Plan mode in the app, as a user drives it: shift+tab switches it and the status bar says so;
a planning run changes nothing and ends in the plan panel, where the plan is edited and
approved (carried out in the same session, out of plan mode) or sent back with a note."""

from __future__ import annotations

from pathlib import Path

from textual.widgets import Input, TextArea

from openhands_tui.testing import Script, Turn
from openhands_tui.tui.screens.plan import PlanScreen
from tests.tui.conftest import SIZE, live_app, wait_until


def _status(app) -> str:
    return str(app.query_one("#status").render())


async def _plan_mode_on(pilot, app) -> None:
    await wait_until(pilot, lambda: app.view.policy is not None)
    await pilot.press("shift+tab")
    await wait_until(pilot, lambda: app.view.planning)


async def test_shift_tab_switches_plan_mode_and_the_status_bar_shows_it(serve, workspace: Path) -> None:
    server = serve([Script(turns=[Turn.finish("ok")])])
    app = live_app(server, workspace)
    async with app.run_test(size=SIZE) as pilot:
        await wait_until(pilot, lambda: app.view.policy is not None)
        assert "PLAN" not in _status(app)
        await pilot.press("shift+tab")
        await wait_until(pilot, lambda: "PLAN · read-only" in _status(app))
        assert "ASK IF RISKY" in _status(app)  # when to ask is kept for when planning ends
        await pilot.press("shift+tab")
        await wait_until(pilot, lambda: "PLAN" not in _status(app))
        await pilot.press(*"/plan on", "enter")
        await wait_until(pilot, lambda: "PLAN · read-only" in _status(app))


async def test_a_plan_is_edited_and_approved_in_its_panel_and_carried_out(serve, workspace: Path) -> None:
    server = serve(
        [
            Script(
                turns=[
                    Turn.call("file_editor", command="create", path="a.txt", file_text="early\n"),
                    Turn.call("terminal", command="echo early > b.txt"),
                    Turn.finish("PLAN: create a.txt"),
                    Turn.call("file_editor", command="create", path="a.txt", file_text="done\n"),
                    Turn.finish("created a.txt"),
                ]
            )
        ]
    )
    app = live_app(server, workspace)
    async with app.run_test(size=SIZE) as pilot:
        await _plan_mode_on(pilot, app)
        await pilot.press(*"make a.txt", "enter")
        await wait_until(pilot, lambda: isinstance(app.screen, PlanScreen))
        assert list(workspace.iterdir()) == []  # the planning run changed nothing
        editor = app.screen.query_one("#plan-text", TextArea)
        assert editor.text == "PLAN: create a.txt"
        editor.move_cursor(editor.document.end)
        await pilot.press(*" (and say hi)")
        await pilot.press("ctrl+s")
        await wait_until(pilot, lambda: (workspace / "a.txt").exists() and app.view.root_status == "finished")
        await pilot.pause(0.1)
        assert (workspace / "a.txt").read_text() == "done\n"
        assert not app.view.planning and "PLAN" not in _status(app)
    approval = str(server.requests[3].messages[-1]["content"])
    assert "approved your plan" in approval and "PLAN: create a.txt (and say hi)" in approval


async def test_a_note_sends_the_plan_back_and_the_revised_plan_comes_back(serve, workspace: Path) -> None:
    server = serve([Script(turns=[Turn.finish("PLAN A"), Turn.finish("PLAN B")])])
    app = live_app(server, workspace)
    async with app.run_test(size=SIZE) as pilot:
        await _plan_mode_on(pilot, app)
        await pilot.press(*"plan it", "enter")
        await wait_until(pilot, lambda: isinstance(app.screen, PlanScreen))
        app.screen.query_one("#plan-note", Input).focus()
        await pilot.press(*"use a class", "ctrl+r")
        await wait_until(pilot, lambda: app.view.plan == "PLAN B" and isinstance(app.screen, PlanScreen))
        assert app.screen.query_one("#plan-text", TextArea).text == "PLAN B"
        await pilot.press("escape")  # keep planning
        await wait_until(pilot, lambda: not isinstance(app.screen, PlanScreen))
        assert app.view.planning and "PLAN · read-only" in _status(app)
    note = str(server.requests[1].messages[-1]["content"])
    assert "did not approve" in note and "use a class" in note
