"""The app draws its prompt before the engine and the strategy load, and opens the session
after its first frame (`AppConfig.first_session`). What the user does meanwhile is kept: a task
typed at once is sent when the session opens; a strategy that cannot load ends the app and is
reported in one line, as before."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest
from textual.widgets import Static

from openhands_tui.interactive import build_app
from openhands_tui.launch_options import LaunchOptions
from openhands_tui.testing import Script, Turn
from openhands_tui.tui.widgets.status import StatusBar
from openhands_tui.tui.widgets.transcript import TranscriptView
from tests.tui.conftest import SIZE, live_app, wait_until

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures" / "strategies"


async def test_a_task_typed_before_the_session_opened_is_sent_when_it_opens(
    serve, workspace: Path, strategy_gate: Path
) -> None:
    server = serve([Script(turns=[Turn.finish("done at last")])])
    app = live_app(server, workspace, strategy=str(FIXTURES / "slow_to_load.py"))
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        assert app.session is None and app.starting  # the prompt is up; the strategy still loads
        assert "Starting the session" in _drawn_welcome(app)
        assert "starting…" in str(app.query_one(StatusBar).render())
        await pilot.press(*"hello", "enter")
        queued = str(app.query_one("#queued").render())
        assert "queued: hello" in queued and app.query_one("#queued").display
        strategy_gate.touch()
        await wait_until(pilot, lambda: app.view.root_status == "finished")
        assert any(e.text == "done at last" for e in app.view.transcript("root"))
        assert not app.runs.queued and not app.query_one("#queued").display
        assert app.view.transcript("root")  # the task's entries replaced the welcome

    assert len(server.requests) == 1 and "hello" in str(server.requests[0].messages)


def _drawn_welcome(app: object) -> str:
    """The welcome as it is drawn (not the text the widget was given)."""
    return str(app.query_one(TranscriptView).query_one(".welcome", Static).render())  # type: ignore[attr-defined]


async def test_the_welcome_says_what_the_session_is_once_it_is_ready(
    serve, workspace: Path, strategy_gate: Path
) -> None:
    server = serve([Script(turns=[Turn.finish("ok")])])
    app = live_app(server, workspace, strategy=str(FIXTURES / "slow_to_load.py"))
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        assert "Starting the session" in _drawn_welcome(app)
        strategy_gate.touch()
        await wait_until(pilot, lambda: app.session is not None)
        await pilot.pause()
        drawn = _drawn_welcome(app)
        assert "Starting the session" not in drawn
        assert "Strategy slow-to-load" in drawn and f"Workspace {workspace}" in drawn


async def test_new_and_resume_wait_for_the_first_session(serve, workspace: Path, strategy_gate: Path) -> None:
    server = serve([Script(turns=[Turn.finish("ok")])])
    app = live_app(server, workspace, strategy=str(FIXTURES / "slow_to_load.py"))
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        await pilot.press(*"/new", "enter")
        await wait_until(pilot, lambda: any("still starting" in n.message for n in app._notifications))
        strategy_gate.touch()
        await wait_until(pilot, lambda: app.session is not None)
        first = app.session
        await pilot.pause(0.2)
        assert app.session is first  # one session, not two racing to open


async def test_a_strategy_that_cannot_load_ends_the_app_with_its_error(workspace: Path) -> None:
    options = LaunchOptions(
        strategy=str(FIXTURES / "syntax_error.py"), model="openai/x", base_url="http://127.0.0.1:9", workspace=workspace
    )
    app = build_app(options, preload_litellm=False, remember_theme=False)
    async with app.run_test(size=SIZE) as pilot:
        await wait_until(pilot, lambda: not app.is_running or app.launch_error is not None)
    assert app.launch_error is not None and app.return_value == 2
    assert "syntax_error.py" in str(app.launch_error) and "\n" not in str(app.launch_error)


def test_the_app_module_does_not_load_the_engine() -> None:
    """What the first frame needs: the app, its widgets and the events it draws; not the agent,
    the tools, the strategy loader or litellm (a fresh interpreter, so nothing is loaded yet)."""
    import subprocess

    probe = (
        "import sys, openhands_tui.cli, openhands_tui.interactive; "
        "print(' '.join(m for m in sys.modules if m.startswith(('openhands_tui', 'litellm'))))"
    )
    loaded = set(
        subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, check=True).stdout.split()
    )
    assert "openhands_tui.tui.app" in loaded
    heavy = {"openhands_tui.launch", "openhands_tui.sdk.agent", "openhands_tui.sdk.run.conversation", "litellm"}
    heavy |= {m for m in loaded if m.startswith(("openhands_tui.tools", "openhands_tui.sdk.context"))}
    assert not heavy & loaded, sorted(heavy & loaded)


async def test_with_the_engine_preloaded_the_session_opens_as_the_app_mounts(
    serve, workspace: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A `tui warm` child has nothing left to import: it opens the session at once, so a task
    typed as the prompt shows does not wait for `OPEN_AFTER`."""
    from openhands_tui.tui import app as app_module

    monkeypatch.setattr(app_module, "OPEN_AFTER", 60.0)  # the timer would not fire within the test
    server = serve([Script(turns=[Turn.finish("ok")])])
    options = LaunchOptions(model=server.model, base_url=server.base_url, api_key="k", workspace=workspace)
    app = build_app(options, preload_litellm=False, remember_theme=False, open_at_mount=True)
    async with app.run_test(size=SIZE) as pilot:
        await wait_until(pilot, lambda: app.session is not None, timeout=20)
