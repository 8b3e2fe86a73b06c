"""What a newcomer's first trial tripped on, each checked on what the app draws: the footer of a
confirmation offers only the keys its dialog has, a broken microagent is announced when the
session starts, Tab from the prompt reaches the agent tree as /help says, and keys typed as the
model dialog opens land in its first field."""

from __future__ import annotations

import concurrent.futures
from pathlib import Path

import pytest

from openhands_tui.sdk.facts.event import use_random_ids
from openhands_tui.testing import Script, Turn
from openhands_tui.tui.app import OpenHandsApp
from openhands_tui.tui.bridge import ConfirmationNeeded
from openhands_tui.tui.config import AppConfig
from openhands_tui.tui.screens.confirm import ConfirmScreen
from tests.tui import canned
from tests.tui.burst import typed_at_once
from tests.tui.conftest import SIZE, live_app, wait_until
from tests.tui.drawn import drawn, drawn_in, drawn_notices


@pytest.fixture(autouse=True)
def random_ids_afterwards():
    yield
    use_random_ids()


def _canned(events) -> OpenHandsApp:
    return OpenHandsApp(AppConfig(history=events, settle_history=False, preload_litellm=False, remember_theme=False))


def _footer_line(app: OpenHandsApp) -> str:
    return drawn(app).splitlines()[-1]


@pytest.mark.parametrize("with_rule", [True, False])
async def test_the_confirmation_footer_offers_always_allow_only_with_a_rule_to_remember(with_rule: bool) -> None:
    request = canned.command_request(1)
    if not with_rule:
        request = request.model_copy(update={"suggested_rule": None})
    app = _canned(canned.idle())
    async with app.run_test(size=SIZE) as pilot:
        app.post_message(ConfirmationNeeded(request, concurrent.futures.Future()))
        await wait_until(pilot, lambda: isinstance(app.screen, ConfirmScreen) and app.screen.is_mounted)
        await pilot.pause(0.1)
        footer = _footer_line(app)
        assert "Approve" in footer and "Reject" in footer
        assert ("Always allow" in footer) is with_rule
        assert ("Always allow 'rm' (a)" in drawn(app)) is with_rule  # the button, as the footer says


async def test_a_microagent_that_failed_to_load_is_announced_as_the_session_starts(serve, workspace: Path) -> None:
    folder = workspace / ".openhands" / "microagents"
    folder.mkdir(parents=True)
    (folder / "broken.md").write_text("---\ntriggers: [a, b\n---\nbody\n")
    (folder / "fine.md").write_text("---\ntriggers: [fine]\n---\nAll good.\n")
    app = live_app(serve([Script(turns=[Turn.finish("ok")])]), workspace)
    async with app.run_test(size=SIZE, notifications=True) as pilot:  # toasts drawn
        shown = "1 microagent file could not be loaded: /microagents (Ctrl+O) says why."
        await wait_until(pilot, lambda: any(shown in notice for notice in drawn_notices(app)))


async def test_a_session_whose_microagents_all_loaded_says_nothing_of_them(serve, workspace: Path) -> None:
    app = live_app(serve([Script(turns=[Turn.finish("ok")])]), workspace)
    async with app.run_test(size=SIZE, notifications=True) as pilot:
        await wait_until(pilot, lambda: app.view.microagents is not None)
        await pilot.pause(0.1)
        assert not any("microagent" in notice for notice in drawn_notices(app))


async def test_keys_typed_fast_in_the_model_dialog_land_in_the_fields_they_were_typed_for() -> None:
    from textual.widgets import Input

    app = OpenHandsApp(AppConfig(preload_litellm=False, remember_theme=False))
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        app._ask_for_model()  # as on a first run: the dialog opens while the user types
        typed_at_once(app, *"openai/gpt-4o", "enter", *"sk-123", "enter", *"http://h")
        await pilot.pause(0.3)
        fields = {field.id: drawn_in(app, field).strip(" ▊▎▔▁\n") for field in app.screen.query(Input)}
        assert fields == {"model": "openai/gpt-4o", "api-key": "••••••", "base-url": "http://h"}


def _words(text: str) -> str:
    return " ".join(text.split())


async def test_tab_in_the_prompt_goes_to_the_tree_as_help_says_and_round_back() -> None:
    from openhands_tui.tui.widgets.prompt import Prompt
    from openhands_tui.tui.widgets.transcript import TranscriptView
    from openhands_tui.tui.widgets.tree import AgentTree

    app = _canned(canned.nested())
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause(0.1)
        await pilot.press(*"/help", "enter")
        await pilot.pause(0.2)
        assert "Tab in the prompt moves to it" in _words(drawn(app))
        await pilot.press("escape")
        prompt, tree, transcript = app.query_one(Prompt), app.query_one(AgentTree), app.query_one(TranscriptView)
        assert app.focused is prompt
        await pilot.press("tab")
        assert app.focused is tree  # one Tab, not seven
        assert "Fold" in _footer_line(app)  # the footer offers the tree's keys
        await pilot.press("tab")
        assert app.focused is transcript  # "Tab from the tree moves to it"
        while app.focused is not prompt:  # "then through its entries, then back to the prompt"
            await pilot.press("tab")
            assert app.focused is prompt or transcript in app.focused.ancestors
