"""The app offers each MCP server's prompts as `/server:prompt` commands, with their
descriptions, in the completion list drawn under the prompt."""

from __future__ import annotations

import json
from pathlib import Path

from openhands_tui.sdk.mcp_config import user_mcp_file
from openhands_tui.testing import Script, Turn
from tests.mcp.test_resources import library_server
from tests.tui.conftest import SIZE, live_app, wait_until
from tests.tui.drawn import drawn


async def test_the_command_list_shows_a_servers_prompt_with_its_description(serve, workspace: Path) -> None:
    user_mcp_file().parent.mkdir(parents=True, exist_ok=True)
    servers = {"library": library_server(workspace.parent / "record.txt")}
    user_mcp_file().write_text(json.dumps({"mcpServers": servers}))
    server = serve([Script(turns=[Turn.finish("hello")])])
    app = live_app(server, workspace, task="hello")
    async with app.run_test(size=SIZE) as pilot:
        await wait_until(pilot, lambda: app.view.root_status == "finished")
        app.query_one("Prompt").focus()
        await pilot.press("/", *"libr")
        await pilot.pause(0.05)
        completions = app.query_one("#completions")
        assert completions.display
        shown = drawn(app)
        assert "library:review" in shown
        assert "Review a chapter of a book" in shown
