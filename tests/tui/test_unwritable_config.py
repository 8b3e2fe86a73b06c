"""A config directory the app cannot write (a read-only ~/.config, a home managed by a tool, a
container): `/theme` and the model settings ended the app with a traceback (fourth chaos round).
The change still applies to this session, and a notice says why it was not remembered."""

from __future__ import annotations

from pathlib import Path

import pytest

from openhands_tui.interactive import build_app
from openhands_tui.launch import LaunchOptions
from openhands_tui.testing import Script, Turn
from tests.tui.conftest import SIZE, wait_until


async def test_a_theme_that_cannot_be_saved_still_applies(
    serve, workspace: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    server = serve([Script(turns=[Turn.finish("ok")])])
    options = LaunchOptions(model=server.model, base_url=server.base_url, api_key="sk-tui-test", workspace=workspace)
    app = build_app(options, preload_litellm=False, remember_theme=True)
    blocker = tmp_path / "a-file"
    blocker.write_text("")  # a directory cannot be made under it: fails for root too
    async with app.run_test(size=SIZE) as pilot:
        monkeypatch.setenv("XDG_CONFIG_HOME", str(blocker / "config"))
        await pilot.press(*"/theme openhands-light", "enter")
        await wait_until(pilot, lambda: any("Theme not remembered" in n.message for n in app._notifications))
        assert app.theme == "openhands-light" and app.is_running
        notice = next(n.message for n in app._notifications if "Theme not remembered" in n.message)
        assert f"cannot write {blocker / 'config' / 'openhands-tui'}" in notice and "Not a directory" in notice
