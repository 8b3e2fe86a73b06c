"""The agent tree sizes to the terminal and to its labels: on screen at 80x24 beside a readable
transcript, folded away where it would leave the transcript unreadable, whole labels on a wide
terminal, and recoloured when the theme changes."""

from __future__ import annotations

import pytest

from openhands_tui.sdk.facts.event import use_random_ids
from openhands_tui.tui.app import OpenHandsApp
from openhands_tui.tui.config import AppConfig
from openhands_tui.tui.keys import READABLE
from openhands_tui.tui.widgets.transcript import TranscriptView
from openhands_tui.tui.widgets.tree import AgentTree
from tests.tui import canned


@pytest.fixture(autouse=True)
def random_ids_afterwards():
    yield
    use_random_ids()


def _app() -> OpenHandsApp:
    config = AppConfig(history=canned.nested(), settle_history=False, preload_litellm=False, remember_theme=False)
    return OpenHandsApp(config)


def _drawn(tree: AgentTree) -> list[str]:
    """The tree's lines as the screen shows them."""
    return ["".join(segment.text for segment in tree.render_line(y)) for y in range(tree.size.height)]


async def test_the_tree_is_on_screen_at_80x24_beside_a_readable_transcript() -> None:
    app = _app()
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause(0.2)
        tree = app.query_one(AgentTree)
        assert tree.display and tree.region.width >= 24
        assert app.query_one(TranscriptView).region.width >= READABLE - 2  # its padding aside
        drawn = "\n".join(_drawn(tree))
        assert "designer" in drawn and "checker" in drawn


async def test_on_a_narrow_terminal_the_tree_folds_away_and_ctrl_b_brings_it_back() -> None:
    app = _app()
    async with app.run_test(size=(60, 24)) as pilot:
        await pilot.pause(0.2)
        tree = app.query_one(AgentTree)
        assert tree.region.width == 0
        await pilot.press("ctrl+b")
        await pilot.pause(0.2)
        assert tree.region.width >= 24 and "designer" in "\n".join(_drawn(tree))


async def test_on_a_wide_terminal_labels_are_whole() -> None:
    app = _app()
    async with app.run_test(size=(200, 40)) as pilot:
        await pilot.pause(0.2)
        drawn = "\n".join(_drawn(app.query_one(AgentTree)))
        assert "Design a todo REST API" in drawn and "Implement GET/POST /todos with tests" in drawn
        assert "…" not in drawn


async def test_switching_theme_recolours_the_tree() -> None:
    app = _app()
    async with app.run_test(size=(120, 36)) as pilot:
        await pilot.pause(0.2)
        tree = app.query_one(AgentTree)

        def colours() -> set[str]:
            drawn = [s for y in range(tree.size.height) for s in tree.render_line(y)]
            return {s.style.color.get_truecolor().hex.lower() for s in drawn if s.style and s.style.color}

        def success(theme: str) -> str:
            return str(app.get_theme(theme).success).lower()  # type: ignore[union-attr]

        assert success("openhands-dark") != success("openhands-light")
        assert success("openhands-dark") in colours()  # the finished designer
        app.theme = "openhands-light"
        await pilot.pause(0.3)
        assert success("openhands-light") in colours() and success("openhands-dark") not in colours()
