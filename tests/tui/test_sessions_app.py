"""The app around sessions: first run without a model, resume, and read-only viewing."""

from __future__ import annotations

import tomllib
from pathlib import Path

from textual.widgets import Input

from openhands_tui.interactive import build_app
from openhands_tui.launch_options import LaunchOptions
from openhands_tui.sdk.facts.store import SessionStore
from openhands_tui.sdk.settings import config_path
from openhands_tui.testing import Script, Turn
from openhands_tui.tui.app import OpenHandsApp
from openhands_tui.tui.config import AppConfig
from openhands_tui.tui.widgets.entries import EntryWidget
from openhands_tui.tui.widgets.prompt import Prompt
from openhands_tui.tui.widgets.transcript import TranscriptView
from openhands_tui.tui.widgets.tree import AgentTree
from tests.tui.conftest import (
    SIZE,
    THREE_LEVELS,
    Arming,
    live_app,
    project_allowing_rm_build,
    root_and_coder,
    settings_shown,
    wait_until,
)


async def test_first_run_asks_for_a_model_saves_it_and_starts(serve, workspace: Path) -> None:
    server = serve([Script(turns=[Turn.finish("ready when you are")])])
    app = build_app(LaunchOptions(task="hello", workspace=workspace), preload_litellm=False, remember_theme=False)
    async with app.run_test(size=SIZE) as pilot:
        await settings_shown(pilot, app)
        app.screen.query_one("#model", Input).value = "openai/scripted"
        app.screen.query_one("#api-key", Input).value = "sk-first-run"
        app.screen.query_one("#base-url", Input).value = server.base_url
        await pilot.click("#save")
        await wait_until(pilot, lambda: app.view.root_status == "finished")
        assert any(e.text == "ready when you are" for e in app.view.transcript("root"))
    saved = tomllib.loads(config_path().read_text())
    assert saved["llm"]["model"] == "openai/scripted" and saved["llm"]["base_url"] == server.base_url
    assert oct(config_path().stat().st_mode & 0o777) == "0o600"  # it holds an API key


async def test_resume_reopens_the_transcript_and_the_tree(serve, workspace: Path) -> None:
    fixture = THREE_LEVELS
    server = serve(root_and_coder())
    app = live_app(server, workspace, strategy=str(fixture), task="go")
    async with app.run_test(size=SIZE) as pilot:
        await wait_until(pilot, lambda: app.view.root_status == "finished")
    first = app.view

    resumed = live_app(server, workspace, strategy=str(fixture), resume="last")
    async with resumed.run_test(size=SIZE) as pilot:
        await wait_until(pilot, lambda: resumed.session is not None)
        await pilot.pause(0.1)  # the next repaint
        assert set(resumed.view.tree.nodes) == set(first.tree.nodes) == {"root", "coder-1"}
        assert resumed.view.tree.nodes["coder-1"].status == "finished"
        texts = [e.text for e in resumed.view.transcript("root")]
        assert texts == [e.text for e in first.transcript("root")] and "root done" in texts
        assert "coder-1" in resumed.query_one(AgentTree)._agent_nodes


async def test_view_is_read_only(serve, workspace: Path) -> None:
    server = serve([Script(turns=[Turn.finish("all done")])])
    app = live_app(server, workspace, task="do it")
    async with app.run_test(size=SIZE) as pilot:
        await wait_until(pilot, lambda: app.view.root_status == "finished")
    events = SessionStore().open("last").load().events
    viewer = OpenHandsApp(
        AppConfig(history=events, read_only=True, preload_litellm=False, remember_theme=False, title="viewing")
    )
    async with viewer.run_test(size=SIZE) as pilot:
        await pilot.pause(0.1)
        prompt = viewer.query_one(Prompt)
        assert prompt.disabled
        assert viewer.bridge is None
        shown = viewer.query_one(TranscriptView)
        assert any(isinstance(w, EntryWidget) and w.entry.text == "all done" for w in shown.children)
        viewer.start_run("more")  # what /commands or a stray call would do: refused, nothing runs
        await pilot.pause(0.1)
        assert viewer.view.root_status == "finished"


async def test_a_projects_own_rules_wait_for_the_users_trust(serve, workspace: Path, arming: Arming) -> None:
    from openhands_tui.sdk.security.trust import ProjectTrust
    from openhands_tui.tui.screens.trust import TrustScreen

    app = project_allowing_rm_build(serve, workspace)
    async with app.run_test(size=SIZE) as pilot:
        await wait_until(
            pilot, lambda: isinstance(app.screen, TrustScreen) and bool(app.screen.query("#confirm-body > *"))
        )
        assert "rm -rf build" in str(app.screen.query_one("#confirm-body").children[0].render())
        await pilot.press("y")  # a key typed as the app starts lands here: not taken as trust
        await pilot.pause(0.05)
        assert isinstance(app.screen, TrustScreen)
        assert not ProjectTrust().is_trusted(app.session.trust_requests[0])  # type: ignore[union-attr]
        arming.arm()
        await pilot.press("y")
        await pilot.pause(0.2)
        assert ProjectTrust().is_trusted(app.session.trust_requests[0])  # type: ignore[union-attr]
        await pilot.press(*"clean", "enter")
        await wait_until(pilot, lambda: app.view.root_status == "finished")
        tool = next(e for e in app.view.transcript("root") if e.kind == "tool")
        assert tool.data["decision"].startswith("approved (rule: allow command 'rm -rf build' (exactly)")
        assert not (workspace / "build").exists()  # the trusted rule approved it, nobody was asked
