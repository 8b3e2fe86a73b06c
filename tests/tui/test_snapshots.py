"""How the app looks, at a fixed size, from canned events (deterministic ids and clocks)."""

from __future__ import annotations

import concurrent.futures

import pytest

from openhands_tui.sdk.facts.event import use_random_ids
from openhands_tui.tui.app import OpenHandsApp
from openhands_tui.tui.bridge import ConfirmationNeeded
from openhands_tui.tui.config import AppConfig
from openhands_tui.tui.widgets.prompt import Prompt
from tests.tui import canned

SIZE = (120, 36)


@pytest.fixture(autouse=True)
def random_ids_afterwards():
    yield
    use_random_ids()


def _app(events, theme: str = "openhands-dark") -> OpenHandsApp:
    config = AppConfig(
        history=events,
        settle_history=False,  # canned live states: running, streaming, waiting
        preload_litellm=False,
        remember_theme=False,
        theme=theme,
        clock=lambda: 1000.0,
    )
    return OpenHandsApp(config)


async def _settle(pilot) -> None:
    for prompt in pilot.app.query(Prompt):  # a blinking cursor is drawn or not by the clock
        prompt.cursor_blink = False
    await pilot.pause(0.2)
    await pilot.app.workers.wait_for_complete()
    await pilot.pause(0.1)


def test_idle(snap_compare) -> None:
    assert snap_compare(_app(canned.idle()), terminal_size=SIZE, run_before=_settle)


def test_streaming(snap_compare) -> None:
    assert snap_compare(_app(canned.streaming()), terminal_size=SIZE, run_before=_settle)


def test_nested_tree_depth_three(snap_compare) -> None:
    async def select_tester(pilot) -> None:
        await _settle(pilot)
        pilot.app.show_agent("coder-2")
        await _settle(pilot)

    assert snap_compare(_app(canned.nested()), terminal_size=SIZE, run_before=select_tester)


def test_confirmation_with_diff(snap_compare) -> None:
    async def ask(pilot) -> None:
        await _settle(pilot)
        pilot.app.post_message(ConfirmationNeeded(canned.edit_request(), concurrent.futures.Future()))
        await _settle(pilot)

    assert snap_compare(_app(canned.nested()), terminal_size=SIZE, run_before=ask)


def test_queued_confirmations(snap_compare) -> None:
    async def ask_three(pilot) -> None:
        await _settle(pilot)
        for n in (1, 2, 3):
            pilot.app.post_message(ConfirmationNeeded(canned.command_request(n), concurrent.futures.Future()))
        await _settle(pilot)
        pilot.app.clear_notifications()
        await _settle(pilot)

    assert snap_compare(_app(canned.idle()), terminal_size=SIZE, run_before=ask_three)


def test_microagent_panel(snap_compare) -> None:
    async def open_panel(pilot) -> None:
        await _settle(pilot)
        await pilot.press("ctrl+o")
        await _settle(pilot)

    assert snap_compare(_app(canned.streaming()), terminal_size=SIZE, run_before=open_panel)


def test_light_theme(snap_compare) -> None:
    async def expand_failure(pilot) -> None:
        await _settle(pilot)

    assert snap_compare(
        _app(canned.transcript(), theme="openhands-light"), terminal_size=SIZE, run_before=expand_failure
    )


def test_error_state(snap_compare) -> None:
    assert snap_compare(_app(canned.failed()), terminal_size=SIZE, run_before=_settle)
