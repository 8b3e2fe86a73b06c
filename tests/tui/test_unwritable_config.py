"""A config directory the app cannot write (a read-only ~/.config, a home managed by a tool, a
container): `/theme` and the model settings ended the app with a traceback, "always allow" ended
the run. The change still applies to this session, and the app says why it was not remembered."""

from __future__ import annotations

from pathlib import Path

import pytest

from openhands_tui.interactive import build_app
from openhands_tui.launch_options import LaunchOptions
from openhands_tui.sdk.run.confirmation import ConfirmationMode
from openhands_tui.testing import Script, Turn
from openhands_tui.tui.screens.arming import ARMING_DELAY
from openhands_tui.tui.screens.confirm import ConfirmScreen
from tests.tui.conftest import SIZE, Arming, live_app, project_allowing_rm_build, wait_until


async def test_a_theme_that_cannot_be_saved_still_applies(
    serve, workspace: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    server = serve([Script(turns=[Turn.finish("ok")])])
    options = LaunchOptions(model=server.model, base_url=server.base_url, api_key="sk-tui-test", workspace=workspace)
    app = build_app(options, preload_litellm=False, remember_theme=True)
    blocker = tmp_path / "a-file"
    blocker.write_text("")  # a directory cannot be made under it: fails for root too
    async with app.run_test(size=SIZE) as pilot:
        await wait_until(pilot, lambda: app.session is not None)  # its config was read: now it breaks
        monkeypatch.setenv("XDG_CONFIG_HOME", str(blocker / "config"))
        await pilot.press(*"/theme openhands-light", "enter")
        await wait_until(pilot, lambda: any("Theme not remembered" in n.message for n in app._notifications))
        assert app.theme == "openhands-light" and app.is_running
        notice = next(n.message for n in app._notifications if "Theme not remembered" in n.message)
        assert f"cannot write {blocker / 'config' / 'openhands-tui'}" in notice and "Not a directory" in notice


async def test_always_allow_with_an_unwritable_config_holds_for_the_session(
    serve, workspace: Path, isolated_home: Path
) -> None:
    """It ended the run as "internal error: OSError: Read-only file system"."""
    server = serve(
        [
            Script(
                turns=[
                    Turn.call("terminal", command="touch x.txt"),
                    Turn.call("terminal", command="touch x.txt"),
                    Turn.finish("made"),
                ]
            )
        ]
    )
    app = live_app(server, workspace, task="make files", confirm=ConfirmationMode.ALWAYS)
    async with app.run_test(size=SIZE) as pilot:
        await wait_until(pilot, lambda: isinstance(app.screen, ConfirmScreen))
        (isolated_home / "config" / "openhands-tui").write_text("")  # where the rule file's directory should be
        dialog = app.screen
        for _ in range(5):  # a dialog shown again (a notice over it) arms again
            await pilot.pause(ARMING_DELAY + 0.1)
            await pilot.press("a")
            if app.screen is not dialog:
                break
        await wait_until(pilot, lambda: app.view.root_status == "finished")
        assert (workspace / "x.txt").exists()
        first, second = [e for e in app.view.transcript("root") if e.kind == "tool"]
        assert "allowed for this session only: cannot write" in first.data["decision"]
        assert "rule" in second.data["decision"], second.data["decision"]  # not asked again


async def test_trusting_a_project_file_with_an_unwritable_config_holds_for_the_session(
    serve, workspace: Path, isolated_home: Path, arming: Arming
) -> None:
    """The trust could not be stored: the yes was dropped without a word and the project's rule
    not used. Now it holds for this session, for the content shown, and the app says so."""
    from openhands_tui.sdk.security.trust import ProjectTrust
    from openhands_tui.tui.screens.trust import TrustScreen

    app = project_allowing_rm_build(serve, workspace)
    async with app.run_test(size=SIZE) as pilot:
        await wait_until(pilot, lambda: isinstance(app.screen, TrustScreen))
        config_dir = isolated_home / "config" / "openhands-tui"
        config_dir.mkdir(parents=True, exist_ok=True)
        lock = config_dir / ".trusted-projects.json.lock"
        lock.mkdir()  # the trust store cannot be written (even by root); everything else reads as usual
        arming.arm()
        await pilot.press("y")
        await wait_until(pilot, lambda: any("for this session only" in n.message for n in app._notifications))
        notice = next(n.message for n in app._notifications if "for this session only" in n.message)
        assert str(lock) in notice and "asked again" in notice
        assert not ProjectTrust().is_trusted(app.session.trust_requests[0])  # type: ignore[union-attr]
        await pilot.press(*"clean", "enter")
        await wait_until(pilot, lambda: app.view.root_status == "finished")
        tool = next(e for e in app.view.transcript("root") if e.kind == "tool")
        assert tool.data["decision"].startswith("approved (rule: allow command 'rm -rf build' (exactly)")
        assert not (workspace / "build").exists()


@pytest.mark.parametrize("theme", ["openhands-drak", "5"])
async def test_a_theme_that_does_not_exist_is_said_and_the_default_used(serve, workspace: Path, theme: str) -> None:
    """`--theme openhands-drak` or `theme = 5` in the config gave the default without a word."""
    server = serve([Script(turns=[Turn.finish("ok")])])
    options = LaunchOptions(model=server.model, base_url=server.base_url, api_key="sk-tui-test", workspace=workspace)
    app = build_app(options, theme=theme, preload_litellm=False, remember_theme=False)
    async with app.run_test(size=SIZE) as pilot:
        await wait_until(pilot, lambda: any("is not one of this app's" in n.message for n in app._notifications))
        assert app.theme == "openhands-dark"
        notice = next(n.message for n in app._notifications if "is not one of" in n.message)
        assert repr(theme) in notice and "openhands-light" in notice
