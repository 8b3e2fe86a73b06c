"""`tui --headless` with servers in the user's config: failures are one warning line each on
the terminal (never a traceback, even from the SDK's own logging), and the run goes on."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from openhands_tui.sdk.mcp_config import user_mcp_file
from openhands_tui.testing import Script, ScriptedToolCall, Turn
from tests.conftest import model_args, run_tui, still_running_after
from tests.mcp.servers import EXITS_AT_START, MALFORMED, time_server

pytestmark = pytest.mark.subprocess


def test_headless_run_warns_about_broken_servers_and_uses_the_good_one(serve, workspace: Path) -> None:
    user_mcp_file().parent.mkdir(parents=True, exist_ok=True)
    tag = f"mcp-test-{workspace.parent.name}"
    servers = {"time": time_server(tag), "exits": EXITS_AT_START, "garbled": MALFORMED}
    user_mcp_file().write_text(json.dumps({"mcpServers": servers}))
    calls = [ScriptedToolCall(name="time__get_current_time", arguments={"timezone": "UTC"})]
    server = serve([Script(turns=[Turn(tool_calls=calls), Turn.finish("checked the clock")])])
    result = run_tui("--headless", "--task", "what time is it", "--workspace", str(workspace), *model_args(server))

    assert result.returncode == 0, result.stderr
    assert "Traceback" not in result.stderr + result.stdout
    assert "MCP server 'exits'" in result.stdout and "no licence key" in result.stdout
    assert "MCP server 'garbled'" in result.stdout and "not JSON-RPC" in result.stdout
    assert (
        json.loads(next(m for m in server.requests[1].messages if m["role"] == "tool")["content"])["timezone"] == "UTC"
    )
    assert not still_running_after(tag), "a server outlived the run"
