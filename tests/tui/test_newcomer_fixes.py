"""What a newcomer's first trial tripped on, each checked on what the app draws: the footer of a
confirmation offers only the keys its dialog has, a broken microagent is announced when the
session starts, Tab from the prompt reaches the agent tree as /help says, and keys typed as the
model dialog opens land in its first field."""

from __future__ import annotations

import concurrent.futures

import pytest

from openhands_tui.sdk.facts.event import use_random_ids
from openhands_tui.tui.app import OpenHandsApp
from openhands_tui.tui.bridge import ConfirmationNeeded
from openhands_tui.tui.config import AppConfig
from openhands_tui.tui.screens.confirm import ConfirmScreen
from tests.tui import canned
from tests.tui.conftest import SIZE, wait_until
from tests.tui.drawn import drawn


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
