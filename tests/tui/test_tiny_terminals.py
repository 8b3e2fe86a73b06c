"""The app survives any terminal size: 2 to 6 columns left the prompt box no room for a single
cell of text, and wrapping it crashed the app (a Textual error, exit 0). It stays up, keeps
what is typed, and draws again when the terminal grows."""

from __future__ import annotations

import pytest

from openhands_tui.sdk.facts.event import use_random_ids
from openhands_tui.tui.app import OpenHandsApp
from openhands_tui.tui.config import AppConfig
from openhands_tui.tui.widgets.prompt import Prompt
from tests.tui import canned


@pytest.fixture(autouse=True)
def random_ids_afterwards():
    yield
    use_random_ids()


@pytest.mark.parametrize("width", [1, 2, 3, 4, 5, 6, 7])
async def test_a_terminal_a_few_columns_wide_keeps_the_app_up(width: int) -> None:
    app = OpenHandsApp(
        AppConfig(history=canned.nested(), settle_history=False, preload_litellm=False, remember_theme=False)
    )
    async with app.run_test(size=(width, 24)) as pilot:
        await pilot.pause(0.2)
        await pilot.press("h", "i")
        await pilot.pause(0.2)
        await pilot.resize_terminal(80, 24)
        await pilot.pause(0.3)
        prompt = app.query_one(Prompt)
        drawn = "".join(segment.text for y in range(prompt.size.height) for segment in prompt.render_line(y))
        assert "hi" in drawn
    assert app.return_code in (0, None)
