"""What the screen says: clocks that mean something, nobody left "waiting for you" in a stored
session, titles for sessions started in the app, and a first-run dialog driven by the keyboard."""

from __future__ import annotations

import tomllib
from datetime import UTC, datetime, timedelta
from pathlib import Path

from textual.widgets import Input, Static

from openhands_tui.interactive import build_app
from openhands_tui.launch_options import LaunchOptions
from openhands_tui.sdk.facts.event import MessageEvent, StatusEvent, SystemPromptEvent
from openhands_tui.sdk.facts.store import SessionStore
from openhands_tui.sdk.facts.tree import DelegationTree
from openhands_tui.sdk.settings import config_path
from openhands_tui.testing import Script, Turn
from openhands_tui.tui.app import OpenHandsApp
from openhands_tui.tui.config import AppConfig
from openhands_tui.tui.widgets.transcript import TranscriptView
from openhands_tui.tui.widgets.tree import AgentTree, elapsed_text
from tests.tui import canned
from tests.tui.conftest import SIZE, live_app, settings_shown, wait_until


def test_the_roots_clock_starts_with_the_task_not_the_session() -> None:
    opened = datetime(2026, 1, 1, 12, 0, 0, tzinfo=UTC)
    at = [(opened + timedelta(seconds=s)).isoformat() for s in (0, 600, 605)]
    events = [
        SystemPromptEvent(agent_id="root", agent_name="solo", model="m", content="sys", timestamp=at[0]),
        MessageEvent(agent_id="root", role="user", content="go", timestamp=at[1]),
        StatusEvent(agent_id="root", status="finished", timestamp=at[2]),
    ]
    assert DelegationTree.from_events(events).nodes["root"].elapsed_s == 5.0  # not the 10 idle minutes


async def test_a_stored_session_shows_nobody_waiting_and_its_own_duration() -> None:
    events = canned.nested()  # stopped while `checker` waited for an answer
    app = OpenHandsApp(AppConfig(history=events, read_only=True, preload_litellm=False, remember_theme=False))
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause(0.2)
        assert "waiting_for_confirmation" not in {n.status for n in app.view.tree.nodes.values()}
        labels = " ".join(str(n.label) for n in app.query_one(AgentTree)._agent_nodes.values())
        assert "waiting for you" not in labels and "checker interrupted" in labels
        status = str(app.query_one("#status").render())
        root = app.view.tree.nodes[app.view.tree.root_id or ""]
        assert root.elapsed_s > 0 and f"  {elapsed_text(root.elapsed_s)}  " in status
        assert "waiting for you" not in status


async def test_the_status_clock_stops_when_the_run_ends(serve, workspace: Path) -> None:
    server = serve([Script(turns=[Turn(delay=0.3, text="done")])])
    app = live_app(server, workspace, task="go")
    async with app.run_test(size=SIZE) as pilot:
        # the run has ended once the app has handled its end (the engine's flag drops a moment
        # before: reading the clock in between raced it, and failed under load)
        await wait_until(pilot, lambda: app.view.root_status == "finished" and app.runs.last_duration is not None)
        stopped = app.runs.elapsed(app.view)
        assert stopped >= 0.3
        app.runs.clock = lambda: 1e9  # an hour later, say: the clock no longer moves it
        app.run_state_changed()  # what each tick does
        await pilot.pause(0.05)
        assert app.runs.elapsed(app.view) == stopped
        assert f"  {elapsed_text(stopped)}  finished" in str(app.query_one("#status").render())


async def test_a_session_started_in_the_app_has_a_title(serve, workspace: Path) -> None:
    server = serve([Script(turns=[Turn.finish("ok")])])
    app = live_app(server, workspace)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press(*"tidy the README", "enter")
        await wait_until(pilot, lambda: app.view.root_status == "finished")
    assert SessionStore().list_sessions()[0].title == "tidy the README"


async def test_first_run_settings_by_keyboard_then_the_welcome_names_strategy_and_workspace(
    serve, workspace: Path
) -> None:
    server = serve([Script(turns=[Turn.finish("ready")])])
    app = build_app(LaunchOptions(workspace=workspace), preload_litellm=False, remember_theme=False)
    async with app.run_test(size=SIZE) as pilot:
        await settings_shown(pilot, app)
        screen = app.screen
        screen.query_one("#model", Input).focus()
        await pilot.press(*"openai/scripted", "enter")
        assert app.focused is screen.query_one("#api-key", Input)  # Enter moves down
        await pilot.press(*"sk-keys", "enter")
        await pilot.press(*server.base_url, "enter")  # and in the last field saves and starts
        await wait_until(pilot, lambda: app.session is not None)
        await pilot.pause(0.2)
        welcome = app.query_one(TranscriptView).welcome
        assert "Strategy [b]solo" in welcome and f"Workspace {workspace}" in welcome
    assert tomllib.loads(config_path().read_text())["llm"]["model"] == "openai/scripted"


async def test_settings_escape_quits_with_exit_0(workspace: Path) -> None:
    app = build_app(LaunchOptions(workspace=workspace), preload_litellm=False, remember_theme=False)
    async with app.run_test(size=SIZE) as pilot:
        await settings_shown(pilot, app)
        await pilot.press("escape")
        await pilot.pause(0.1)
    assert app.return_code == 0 and app.return_value == 0


async def test_testing_a_model_shows_its_answer_and_saves_nothing(serve, workspace: Path) -> None:
    """ "Test connection" asks the model once through the check the launcher gave the app."""
    server = serve([Script(turns=[Turn(text="OK")])])
    app = build_app(LaunchOptions(workspace=workspace), preload_litellm=False, remember_theme=False)
    async with app.run_test(size=(90, 40)) as pilot:
        await settings_shown(pilot, app)
        screen = app.screen
        screen.query_one("#model", Input).value = "openai/scripted"
        screen.query_one("#api-key", Input).value = "sk-test-only"
        screen.query_one("#base-url", Input).value = server.base_url
        await pilot.click("#test")
        result = screen.query_one("#settings-result", Static)
        await wait_until(pilot, lambda: str(result.render()).startswith("✓"))
        assert str(result.render()) == "✓ Connected: the model answered 'OK'"
        assert app.screen is screen and not config_path().exists()  # tested, not saved
    assert len(server.requests) == 1 and "Say OK." in str(server.requests[0].messages)


async def test_a_connection_error_is_shown_whole_and_wrapped(serve, workspace: Path) -> None:
    server = serve([Script(turns=[Turn(fault="context_window")])])
    app = build_app(LaunchOptions(workspace=workspace), preload_litellm=False, remember_theme=False)
    async with app.run_test(size=(90, 40)) as pilot:
        await settings_shown(pilot, app)
        screen = app.screen
        screen.query_one("#model", Input).value = "openai/scripted"
        screen.query_one("#base-url", Input).value = server.base_url
        await pilot.click("#test")
        result = screen.query_one("#settings-result", Static)
        await wait_until(pilot, lambda: str(result.render()).startswith("✗"))
        await pilot.pause(0.1)
        text = str(result.render())
        assert len(text) > 200 and text.endswith("Please reduce the length of the messages.")  # past where it was cut
        assert result.size.height > 1  # wrapped, not cut at the edge


def test_microagent_triggers_wrap_in_their_own_column() -> None:
    from rich.console import Console

    from openhands_tui.tui.screens.microagents import loaded_table

    many = ["docker", "container", "compose", "dockerfile", "image", "kubernetes", "k8s", "helm", "podman"]
    info = {"name": "docker", "type": "knowledge", "tokens": 120, "triggers": many, "source": "/m/docker.md"}
    console = Console(width=70, record=True)
    console.print(loaded_table([info]))
    lines = console.export_text().splitlines()
    assert len(lines) >= 3 and lines[0].startswith("docker ")
    column = lines[0].index("[")
    for line in lines[1:]:  # the wrapped triggers and the source stay in the triggers column
        assert line[:column].strip() == "" and line[column:].strip()
    assert "podman]" in " ".join(lines)
