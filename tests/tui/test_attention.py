"""Waiting is visible outside the terminal: the bell and the desktop-notification sequences the
terminal understands, short and free of any control character from a task or a model, written
to the terminal when an approval waits or a run ends (as configured)."""

from __future__ import annotations

import concurrent.futures

import pytest

from openhands_tui.sdk.facts.event import use_random_ids
from openhands_tui.tui.app import OpenHandsApp
from openhands_tui.tui.attention import Attention, attention_sequence, desktop_sequence
from openhands_tui.tui.bridge import ConfirmationNeeded
from openhands_tui.tui.config import AppConfig
from openhands_tui.tui.screens.confirm import ConfirmScreen
from tests.tui import canned
from tests.tui.conftest import SIZE, wait_until
from tests.tui.drawn import drawn_notices

HOSTILE = "rm\x1b]52;c;cm0gLXJmIH4=\x07 \x1b[31mbuild\x9b31m; x"


@pytest.fixture(autouse=True)
def random_ids_afterwards():
    yield
    use_random_ids()


def test_iterm_wezterm_and_windows_terminal_get_osc_9() -> None:
    assert desktop_sequence("Approval needed", "coder: rm", {"TERM_PROGRAM": "iTerm.app"}) == (
        "\x1b]9;Approval needed: coder: rm\x07"
    )
    assert desktop_sequence("Run finished", "", {"WT_SESSION": "1"}) == "\x1b]9;Run finished\x07"


def test_urxvt_foot_and_kitty_get_osc_777() -> None:
    for term in ("rxvt-unicode-256color", "foot", "xterm-kitty"):
        assert desktop_sequence("Run finished", "done", {"TERM": term}) == "\x1b]777;notify;Run finished;done\x07"


def test_inside_tmux_the_sequence_is_passed_through() -> None:
    sequence = desktop_sequence("Run finished", "done", {"TMUX": "/tmp/tmux-0/default,1,0", "TERM": "screen"})
    assert sequence == "\x1bPtmux;\x1b\x1b]9;Run finished: done\x07\x1b\\"


def test_task_text_reaches_the_terminal_without_control_characters_and_short() -> None:
    sequence = desktop_sequence("Approval needed", HOSTILE * 20, {"TERM": "foot"})
    body = sequence.removeprefix("\x1b]777;notify;Approval needed;").removesuffix("\x07")
    assert not any(c in body for c in "\x1b\x07\x9b;") and len(body) <= 100
    assert body.startswith("rm build, x")


def test_the_configured_mode_and_when() -> None:
    assert attention_sequence("bell", "t", "b", {}) == "\x07"
    assert attention_sequence("off", "t", "b", {}) == ""
    assert attention_sequence("both", "t", "b", {}) == "\x07\x1b]9;t: b\x07"
    assert Attention("bell", "unfocused").sequence("t", "b", focused=True) == ""
    assert Attention("bell", "always").sequence("t", "b", focused=True) == "\x07"
    wrong = Attention.from_config("loud", "never")
    assert (wrong.mode, wrong.when) == ("bell", "unfocused") and "notify = 'loud'" in (wrong.problem or "")


async def test_an_approval_waiting_while_the_app_is_not_in_front_rings_and_notifies(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setenv("TERM", "xterm-256color")
    for variable in ("TMUX", "TERM_PROGRAM"):
        monkeypatch.delenv(variable, raising=False)
    config = AppConfig(history=canned.idle(), settle_history=False, preload_litellm=False, remember_theme=False)
    config.attention = Attention("both", "unfocused")
    app = OpenHandsApp(config)
    async with app.run_test(size=SIZE) as pilot:
        written: list[str] = []
        assert app._driver is not None
        original = app._driver.write
        app._driver.write = lambda data: (written.append(data), original(data))  # type: ignore[method-assign]
        app.app_focus = False  # the terminal said its window went to the back
        request = canned.command_request(1).model_copy(update={"summary": HOSTILE})
        app.post_message(ConfirmationNeeded(request, concurrent.futures.Future()))
        await wait_until(pilot, lambda: isinstance(app.screen, ConfirmScreen))
        assert "\x07\x1b]9;Approval needed: worker: rm build, x\x07" in "".join(written)


async def test_a_wrong_notify_setting_is_said_once_at_start() -> None:
    config = AppConfig(preload_litellm=False, remember_theme=False)
    config.attention = Attention.from_config("loud", "unfocused")
    app = OpenHandsApp(config)
    async with app.run_test(size=SIZE, notifications=True) as pilot:
        await wait_until(pilot, lambda: any("notify = 'loud'" in notice for notice in drawn_notices(app)), timeout=20)
