"""Driving the app: live sessions against the scripted server, and canned events."""

from __future__ import annotations

import time
from collections.abc import Callable
from pathlib import Path

import pytest

from openhands_tui.interactive import build_app
from openhands_tui.launch_options import LaunchOptions
from openhands_tui.sdk.run.confirmation import ConfirmationMode
from openhands_tui.testing import Script, Turn
from openhands_tui.tui.app import OpenHandsApp

SIZE = (130, 40)

#: A strategy whose root delegates to a coder, which may delegate to a tester.
THREE_LEVELS = Path(__file__).resolve().parents[1] / "fixtures" / "three_levels.py"


def root_and_coder() -> list[Script]:
    """The root delegates once to the coder; both finish at once."""
    return [
        Script(
            name="root",
            match="ROLE:root",
            turns=[Turn.call("delegate", agent="coder", task="code it"), Turn.finish("root done")],
        ),
        Script(name="coder", match="ROLE:coder", turns=[Turn.finish("coded")]),
    ]


def live_app(
    server,
    workspace: Path,
    *,
    strategy: str | None = None,
    task: str | None = None,
    confirm: ConfirmationMode = ConfirmationMode.RISKY,
    inputs: list[str] | None = None,
    resume: str | None = None,
    reasoning_effort: str | None = None,
) -> OpenHandsApp:
    """The app as `tui` builds it (`interactive.build_app`), pointed at the scripted server."""
    options = LaunchOptions(
        strategy=strategy,
        task=task,
        model=server.model,
        base_url=server.base_url,
        reasoning_effort=reasoning_effort,
        api_key="sk-tui-test",
        workspace=workspace,
        confirm=confirm,
        inputs=inputs or [],
        resume=resume,
    )
    return build_app(options, preload_litellm=False, remember_theme=False)


async def wait_until(pilot, predicate: Callable[[], bool], timeout: float = 40.0) -> None:
    deadline = time.monotonic() + timeout
    while not predicate():
        if time.monotonic() > deadline:
            raise AssertionError(f"timed out waiting for {predicate.__doc__ or predicate}")
        await pilot.pause(0.05)


@pytest.fixture
def fixed_clock() -> Callable[[], float]:
    return lambda: 1000.0


async def settings_shown(pilot, app: OpenHandsApp) -> None:
    """Wait for the first-run settings dialog: it opens once the app found no model configured,
    after its first frame, so the dialog is laid out before the test clicks in it."""
    from openhands_tui.tui.screens.settings import SettingsScreen

    await wait_until(pilot, lambda: isinstance(app.screen, SettingsScreen) and app.screen.is_mounted)
    await pilot.pause()
    assert app.needs_model


@pytest.fixture
def arming_delay(monkeypatch: pytest.MonkeyPatch) -> float:
    """A longer arming delay for tests that press a key "just as the dialog opened": on a
    loaded machine more than the real 0.5 s can pass between the dialog showing and the key."""
    from openhands_tui.tui.screens import arming

    monkeypatch.setattr(arming, "ARMING_DELAY", 2.0)
    return arming.ARMING_DELAY


@pytest.fixture
def strategy_gate(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """The file whose creation lets `slow_to_load.py` finish loading: a test does what must
    happen while the session is still starting, then opens the gate (a fixed one-second load
    was sometimes over before a loaded machine had typed the task)."""
    gate = tmp_path / "strategy-may-load"
    monkeypatch.setenv("SLOW_TO_LOAD_GATE", str(gate))
    return gate


def project_allowing_rm_build(serve, workspace: Path) -> OpenHandsApp:
    """A project whose own rules allow `rm -rf build` (used only once the user trusts them), a
    `build` folder, and the app on a model that runs that command, then finishes."""
    from openhands_tui.sdk.security.permissions import project_rules_file

    rules = project_rules_file(workspace)
    rules.parent.mkdir(parents=True)
    rules.write_text('[[rule]]\naction = "allow"\ncommand = "rm -rf build"\nexact = true\n')
    (workspace / "build").mkdir()
    server = serve([Script(turns=[Turn.call("terminal", command="rm -rf build"), Turn.finish("cleaned")])])
    return live_app(server, workspace)
