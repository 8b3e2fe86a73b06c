"""`tui mcp list|add|remove|get`, in process (the sub-app is what `tui mcp` runs)."""

from __future__ import annotations

import json
import sys
from pathlib import Path

from typer.testing import CliRunner

from openhands_tui.cli import app
from openhands_tui.sdk.mcp_config import session_servers, user_mcp_file
from openhands_tui.sdk.security.trust import ProjectTrust

runner = CliRunner()


def tui(*args: str) -> tuple[int, str, str]:
    result = runner.invoke(app, list(args))
    return result.exit_code, result.stdout, result.stderr


def test_add_list_get_remove(workspace: Path) -> None:
    code, out, _ = tui("mcp", "add", "time", "--", sys.executable, "-m", "mcp_server_time", "--local-timezone", "UTC")
    assert code == 0 and f"Added time to {user_mcp_file()}" in out
    assert tui("mcp", "add", "docs", "https://docs.test/mcp", "-H", "Authorization: Bearer t")[0] == 0
    stored = json.loads(user_mcp_file().read_text())["mcpServers"]
    assert stored["docs"] == {"url": "https://docs.test/mcp", "headers": {"Authorization": "Bearer t"}}
    assert stored["time"]["args"] == ["-m", "mcp_server_time", "--local-timezone", "UTC"]
    assert user_mcp_file().stat().st_mode & 0o077 == 0  # headers hold tokens

    code, out, _ = tui("mcp", "list", "--workspace", str(workspace), "--json")
    assert code == 0
    assert [(r["name"], r["scope"], r["transport"], r["status"]) for r in json.loads(out)] == [
        ("time", "user", "stdio", "enabled"),
        ("docs", "user", "http", "enabled"),
    ]
    code, out, _ = tui("mcp", "get", "time", "--workspace", str(workspace), "--json")
    info = json.loads(out)
    assert code == 0 and info["state"] == "running"
    assert {(t["name"], t["risk"]) for t in info["tools"]} == {
        ("time__get_current_time", "LOW"),
        ("time__convert_time", "LOW"),
    }

    assert tui("mcp", "remove", "docs")[0] == 0
    assert list(json.loads(user_mcp_file().read_text())["mcpServers"]) == ["time"]


def test_bad_input_is_one_line_and_exit_2(workspace: Path) -> None:
    assert tui("mcp", "add", "x", "--transport", "ftp", "y") == (
        2,
        "",
        "tui mcp: --transport ftp: use stdio, http or sse\n",
    )
    assert (
        tui("mcp", "add", "x", "--env", "NOEQUALS", "--", "y")[2] == "tui mcp: --env 'NOEQUALS': expected NAME=VALUE\n"
    )
    code, _, err = tui("mcp", "remove", "nope")
    assert code == 2 and err.startswith("tui mcp: remove nope: no server of that name in ")
    user_mcp_file().parent.mkdir(parents=True, exist_ok=True)
    user_mcp_file().write_text("{oops")
    code, _, err = tui("mcp", "add", "x", "--", "y")
    assert code == 2 and err.startswith(f"tui mcp: {user_mcp_file()}: not valid JSON (") and err.count("\n") == 1
    assert tui("mcp", "get", "ghost", "--workspace", str(workspace))[0] == 2


def test_project_servers_show_whether_they_are_trusted(workspace: Path) -> None:
    (workspace / ".mcp.json").write_text(json.dumps({"mcpServers": {"proj": {"command": "uvx", "args": ["x"]}}}))
    code, out, _ = tui("mcp", "list", "--workspace", str(workspace))
    assert code == 0 and "proj  project  stdio  uvx x  [not trusted" in out
    ProjectTrust().trust(session_servers(workspace).trust_request)
    assert tui("mcp", "add", "more", "--project", "--workspace", str(workspace), "--", "uvx", "y")[0] == 0
    assert sorted(session_servers(workspace).servers) == ["more", "proj"]  # your own edit keeps it trusted


def test_a_trusted_project_file_edited_when_trust_cannot_be_kept(workspace: Path) -> None:
    """`tui mcp add --project` on a file you trusted re-trusts your own edit; when the trust
    store cannot be written the edit is still made, and one line says the app will ask."""
    (workspace / ".mcp.json").write_text(json.dumps({"mcpServers": {"proj": {"command": "uvx", "args": ["x"]}}}))
    trust = ProjectTrust()
    trust.trust(session_servers(workspace).trust_request)
    lock = trust.store.with_name(f".{trust.store.name}.lock")
    lock.unlink()
    lock.mkdir()  # cannot be opened for writing, even by root
    code, out, err = tui("mcp", "add", "more", "--project", "--workspace", str(workspace), "--", "uvx", "y")
    assert code == 0 and "Added more" in out
    assert err.count("\n") == 1 and "was not trusted again" in err and str(lock) in err and "Traceback" not in err
    assert "more" in json.loads((workspace / ".mcp.json").read_text())["mcpServers"]
