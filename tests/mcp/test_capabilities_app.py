"""In the app, what an MCP server asks of the user and says of its calls: a server's form is put
in front of the person (its escape sequences gone), what they type goes back to the server in
the types it asked for, and a call's progress shows on the call's line while it runs."""

from __future__ import annotations

import json
import sys
from pathlib import Path

from textual.widgets import Checkbox, Input

from openhands_tui.sdk.mcp_config import user_mcp_file
from openhands_tui.sdk.run.confirmation import ConfirmationMode
from openhands_tui.testing import Script, ScriptedToolCall, Turn
from openhands_tui.tui.screens.elicit import ElicitScreen
from tests.tui.conftest import SIZE, live_app, wait_until
from tests.tui.drawn import drawn, drawn_notices

SERVER = Path(__file__).parent.parent / "fixtures" / "mcp_capabilities_server.py"


def _with_server() -> None:
    user_mcp_file().parent.mkdir(parents=True, exist_ok=True)
    config = {"mcpServers": {"caps": {"command": sys.executable, "args": [str(SERVER)]}}}
    user_mcp_file().write_text(json.dumps(config))


def _result(model, request: int) -> str:
    return next(m for m in model.requests[request].messages if m["role"] == "tool")["content"]


async def test_a_servers_form_is_asked_in_the_app_and_the_answer_goes_back_typed(serve, workspace: Path) -> None:
    _with_server()
    calls = [ScriptedToolCall(name="caps__ask_name", arguments={})]
    model = serve([Script(turns=[Turn(tool_calls=calls), Turn.finish("greeted")])])
    app = live_app(model, workspace, task="ask me", confirm=ConfirmationMode.NEVER)
    async with app.run_test(size=SIZE, notifications=True) as pilot:
        await wait_until(pilot, lambda: isinstance(app.screen, ElicitScreen) and "Who are you?" in drawn(app))
        screen = drawn(app)
        assert "MCP server caps asks:" in screen and "Who are you?" in screen
        assert "\x1b" not in app.screen.request.message
        name, age = app.screen.query(Input)
        await pilot.click(f"#{name.id}")
        await pilot.press(*"Ada")
        age.value = "forty"
        await pilot.pause(0.6)  # past the arming delay: a send counts
        await pilot.press("ctrl+s")
        await wait_until(pilot, lambda: any("not a whole number" in n for n in drawn_notices(app)))
        assert isinstance(app.screen, ElicitScreen)  # nothing was sent
        age.value = "36"
        app.screen.query_one(Checkbox).value = True
        await pilot.press("ctrl+s")
        await wait_until(pilot, lambda: app.view.root_status == "finished")
    assert _result(model, 1) == "hello Ada, 36, subscribed=True"


async def test_a_form_cancelled_in_the_app_tells_the_server_so(serve, workspace: Path) -> None:
    _with_server()
    calls = [ScriptedToolCall(name="caps__ask_name", arguments={})]
    model = serve([Script(turns=[Turn(tool_calls=calls), Turn.finish("fine")])])
    app = live_app(model, workspace, task="ask me", confirm=ConfirmationMode.NEVER)
    async with app.run_test(size=SIZE) as pilot:
        await wait_until(pilot, lambda: isinstance(app.screen, ElicitScreen))
        await pilot.press("escape")
        await wait_until(pilot, lambda: app.view.root_status == "finished")
    assert _result(model, 1) == "the user chose cancel"


async def test_a_calls_progress_shows_on_its_line_while_it_runs(serve, workspace: Path) -> None:
    _with_server()
    calls = [ScriptedToolCall(name="caps__count", arguments={"steps": 8})]
    model = serve([Script(turns=[Turn(tool_calls=calls), Turn.finish("counted")])])
    app = live_app(model, workspace, task="count", confirm=ConfirmationMode.NEVER)
    async with app.run_test(size=SIZE) as pilot:
        await wait_until(pilot, lambda: "⟳ " in drawn(app) and "% step " in drawn(app))
        line = next(row for row in drawn(app).splitlines() if "% step " in row)
        assert "of 8" in line
        await wait_until(pilot, lambda: app.view.root_status == "finished")
        await wait_until(pilot, lambda: "% step " not in drawn(app), timeout=10)  # the result replaces it
    assert _result(model, 1) == "counted to 8"
