"""In the app, a server that asks to be signed in says so on screen, with the address to open;
once the person has signed in there, the agent gets the server's tools and the run goes on."""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest

from openhands_tui.sdk.mcp_config import user_mcp_file
from openhands_tui.testing import Script, ScriptedToolCall, Turn
from tests.mcp.oauth_server import ProtectedServer
from tests.tui.conftest import SIZE, live_app, wait_until
from tests.tui.drawn import drawn


@pytest.fixture
def protected(monkeypatch: pytest.MonkeyPatch) -> Iterator[ProtectedServer]:
    # the app runs on a terminal; under pytest, stdin is not one
    monkeypatch.setattr("openhands_tui.mcp.oauth.person_at_terminal", lambda: True)
    server = ProtectedServer("http").start()
    yield server
    server.stop()


async def test_the_app_shows_where_to_sign_in_and_the_run_goes_on_once_signed_in(
    serve, workspace: Path, protected: ProtectedServer
) -> None:
    user_mcp_file().parent.mkdir(parents=True, exist_ok=True)
    user_mcp_file().write_text(json.dumps({"mcpServers": {"notes": protected.config()}}))
    calls = [ScriptedToolCall(name="notes__note", arguments={})]
    model = serve([Script(turns=[Turn(tool_calls=calls), Turn.finish("read the note")])])
    app = live_app(model, workspace, task="read my note")
    async with app.run_test(size=SIZE) as pilot:

        def told() -> bool:
            """the sign-in notice on screen"""
            return "asks you to sign in" in " ".join(drawn(app).split())

        await wait_until(pilot, told)
        notice = next(e.text for e in app.view.transcript("root") if "asks you to sign in" in e.text)
        address = re.search(r"open (\S+)", notice)
        assert address is not None
        # the whole address is on screen, wrapped over the transcript's lines (left of the tree)
        transcript = "".join(line.split("▏")[0].strip() for line in drawn(app).splitlines())
        assert address.group(1) in transcript
        async with httpx.AsyncClient(follow_redirects=True, trust_env=False) as browser:
            assert (await browser.get(address.group(1))).status_code == 200
        await wait_until(pilot, lambda: app.view.root_status == "finished")
        (client_id,) = protected.authority.clients
        result = next(m for m in model.requests[1].messages if m["role"] == "tool")["content"]
        assert f"note for {client_id}" in result
