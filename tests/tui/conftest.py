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


async def wait_until(pilot, predicate: Callable[[], bool], timeout: float = 90.0) -> None:
    """Poll `predicate` while the app runs. The first model call of a test process imports
    litellm (~1.5 s alone; measured 26 s on 2 cores at load 8), so the limit is generous: it is
    only reached when something is wrong."""
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


class Arming:
    """Dialogs take no yes until `arm()`: a test presses a key "just as the dialog opened" and
    then arms it, whatever the time between (a fixed longer delay was still too short for a
    loaded machine, where a key pressed "at once" came 2 s after the dialog showed)."""

    def __init__(self, monkeypatch: pytest.MonkeyPatch) -> None:
        from openhands_tui.tui.screens import arming

        self._monkeypatch, self._module = monkeypatch, arming
        monkeypatch.setattr(arming, "ARMING_DELAY", 3600.0)

    def arm(self) -> None:
        self._monkeypatch.setattr(self._module, "ARMING_DELAY", 0.0)


@pytest.fixture
def arming(monkeypatch: pytest.MonkeyPatch) -> Arming:
    return Arming(monkeypatch)


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
