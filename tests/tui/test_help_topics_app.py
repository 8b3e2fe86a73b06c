"""`/help TOPIC` in the app shows the page `tui help TOPIC` prints, in the help screen; an unknown
topic is one notification naming the known ones, and no screen opens."""

from __future__ import annotations

from textual.widgets import Markdown

from openhands_tui import help as pages
from openhands_tui.tui.app import OpenHandsApp
from openhands_tui.tui.config import AppConfig
from openhands_tui.tui.screens.help import HelpScreen
from tests.tui import canned
from tests.tui.conftest import SIZE, wait_until


def _canned() -> OpenHandsApp:
    return OpenHandsApp(AppConfig(history=canned.nested(), preload_litellm=False, remember_theme=False))


async def test_help_with_a_topic_shows_that_page() -> None:
    app = _canned()
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press(*"/help safety", "enter")
        await wait_until(pilot, lambda: isinstance(app.screen, HelpScreen))
        assert isinstance(app.screen, HelpScreen) and app.screen.text == pages.page("safety")
        assert app.screen.query_one(Markdown).source == pages.page("safety")
        await pilot.press("escape")
        await wait_until(pilot, lambda: not isinstance(app.screen, HelpScreen))
        await pilot.press(*"/help", "enter")  # no topic: the keys and commands, as before
        await wait_until(pilot, lambda: isinstance(app.screen, HelpScreen))
        assert isinstance(app.screen, HelpScreen) and app.screen.text.startswith("**Typing**")


async def test_an_unknown_topic_is_one_notification() -> None:
    app = _canned()
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press(*"/help nosuch", "enter")
        await wait_until(pilot, lambda: any("nosuch" in n.message for n in app._notifications))
        (said,) = [n.message for n in app._notifications if "nosuch" in n.message]
        assert "\n" not in said and "safety" in said and "configuration" in said
        assert not isinstance(app.screen, HelpScreen)
