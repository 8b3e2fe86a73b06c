"""`tui --headless` with a server in the user's config: `@server:uri` in the task attaches the
resource, an unknown server is one line and the task still goes, `/server:prompt` is the prompt,
and a prompt missing a required argument is one line naming it (exit 2, no traceback)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from openhands_tui.sdk.mcp_config import user_mcp_file
from openhands_tui.testing import Script, Turn
from tests.conftest import model_args, run_tui
from tests.mcp.test_resources import _user_text, library_server

pytestmark = pytest.mark.subprocess


def _configure(record: Path) -> None:
    user_mcp_file().parent.mkdir(parents=True, exist_ok=True)
    user_mcp_file().write_text(json.dumps({"mcpServers": {"library": library_server(record)}}))


def test_headless_task_attaches_a_resource_and_notes_an_unknown_server(serve, workspace: Path) -> None:
    record = workspace.parent / "record.txt"
    _configure(record)
    server = serve([Script(turns=[Turn.finish("summarised")])])
    task = "summarise @library:library://books/dune and @atlas:maps://earth"
    result = run_tui("--headless", "--task", task, "--workspace", str(workspace), *model_args(server))

    assert result.returncode == 0, result.stderr
    assert "Traceback" not in result.stderr + result.stdout
    sent = _user_text(server.requests[0])
    assert "A beginning is the time for taking the most delicate care." in sent
    assert "@atlas:maps://earth was not attached: no MCP server 'atlas'" in result.stdout + result.stderr
    assert record.read_text().splitlines() == ["read library://books/dune"]


def test_headless_task_runs_a_servers_prompt_and_names_a_missing_argument(serve, workspace: Path) -> None:
    record = workspace.parent / "record.txt"
    _configure(record)
    server = serve([Script(turns=[Turn.finish("reviewed")])])
    ran = run_tui("--headless", "--task", "/library:review Dune", "--workspace", str(workspace), *model_args(server))
    assert ran.returncode == 0, ran.stderr
    assert "Please review chapter 1 of Dune" in _user_text(server.requests[0])

    refused = run_tui("--headless", "--task", "/library:review", "--workspace", str(workspace), *model_args(server))
    assert refused.returncode == 2, refused.stdout + refused.stderr
    assert "Traceback" not in refused.stderr + refused.stdout
    assert "/library:review: missing required argument(s): book" in refused.stdout + refused.stderr
