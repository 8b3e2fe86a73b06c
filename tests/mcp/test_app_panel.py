"""The app's MCP panel (/mcp): the session's servers, their state and tools, failures named."""

from __future__ import annotations

import json
from pathlib import Path

from openhands_tui.sdk.mcp_config import user_mcp_file
from openhands_tui.testing import Script, ScriptedToolCall, Turn
from openhands_tui.tui.screens.mcp import MCPScreen
from tests.mcp.servers import EXITS_AT_START, time_server
from tests.tui.conftest import SIZE, live_app, wait_until


async def test_the_panel_lists_servers_and_tools_and_the_transcript_shows_the_call(serve, workspace: Path) -> None:
    user_mcp_file().parent.mkdir(parents=True, exist_ok=True)
    user_mcp_file().write_text(json.dumps({"mcpServers": {"time": time_server(), "broken": EXITS_AT_START}}))
    calls = [ScriptedToolCall(name="time__get_current_time", arguments={"timezone": "UTC"})]
    server = serve([Script(turns=[Turn(tool_calls=calls), Turn.finish("it is now")])])
    app = live_app(server, workspace, task="what time is it?")
    async with app.run_test(size=SIZE) as pilot:
        await wait_until(pilot, lambda: app.view.root_status == "finished")
        app.query_one("Prompt").focus()
        await pilot.press(*"/mcp", "enter")
        await wait_until(pilot, lambda: isinstance(app.screen, MCPScreen))
        shown = str(app.screen.query_one("#mcp-servers").render())
        assert "time  running" in shown and "2 tools: get_current_time, convert_time" in shown
        assert "broken  failed" in shown and "no licence key" in shown
        entries = [entry.text for entry in app.view.transcript("root")]
        assert any("broken" in text and "not available" in text for text in entries)  # the warning
        assert any("time/get_current_time" in text for text in entries)  # the call, as an action
