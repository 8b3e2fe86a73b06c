"""Background jobs in the app, against the live engine and the scripted model: the drawn
screen shows a job's start, the running count in the status bar, `/jobs` lists it in the
transcript and `/jobs stop ID` stops it (its process is gone and the screen says so)."""

from __future__ import annotations

from pathlib import Path

from openhands_tui.sdk.run.confirmation import ConfirmationMode
from openhands_tui.testing import Script, Turn
from tests.conftest import live_processes, still_running_after
from tests.tui.conftest import SIZE, live_app, wait_until
from tests.tui.drawn import drawn, drawn_notices


async def test_the_app_shows_a_running_job_lists_it_and_stops_it(serve, workspace: Path) -> None:
    marker = "sleep 765.25"
    server = serve([Script(turns=[Turn.call("terminal", command=marker, background=True), Turn.finish("it runs")])])
    app = live_app(server, workspace, task="start it", confirm=ConfirmationMode.NEVER)
    try:
        async with app.run_test(size=SIZE, notifications=True) as pilot:
            await wait_until(pilot, lambda: app.view.root_status == "finished" and not app.runs.running)
            await wait_until(pilot, lambda: "⚙ 1 job" in drawn(app))
            assert "⚙ job1 started in the background: $ sleep 765.25" in drawn(app)
            assert len(live_processes(marker)) == 1
            await pilot.press(*"/jobs", "enter")
            await wait_until(pilot, lambda: "Background jobs:" in drawn(app))
            assert "/jobs stop ID stops one." in drawn(app)
            await pilot.press(*"/jobs stop job1", "enter")
            await wait_until(pilot, lambda: any("Stopped job1 [stopped" in n for n in drawn_notices(app)))
            await wait_until(pilot, lambda: "⚙ job1 stopped" in drawn(app))
            assert "⚙ 1 job" not in drawn(app)
            assert still_running_after(marker) == []
            await pilot.press(*"/jobs stop job9", "enter")
            await wait_until(pilot, lambda: any("no such job" in n for n in drawn_notices(app)))
    finally:
        assert still_running_after(marker) == []
