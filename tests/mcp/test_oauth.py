"""Signing in to a remote MCP server (OAuth, as the MCP authorization spec describes), against a
protected server and authorization server of our own on a loopback port (`oauth_server.py`).

The "browser" is the test: it follows the authorization URL the person is told with httpx,
which the authorization server redirects to our loopback listener, as a browser would.
"""

from __future__ import annotations

import asyncio
import json
import re
import stat
import sys
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any
from urllib.parse import parse_qs, urlparse

import httpx
import pytest

from openhands_tui.mcp.connection import ServerConnection
from openhands_tui.mcp.oauth_store import token_file
from openhands_tui.sdk.mcp_config import MCPServerConfig
from tests.mcp.oauth_server import KeyOnlyServer, ProtectedServer


@pytest.fixture(params=["http", "sse"])
def protected(request: pytest.FixtureRequest) -> Iterator[ProtectedServer]:
    server = ProtectedServer(request.param).start()
    yield server
    server.stop()


@pytest.fixture
def protected_http() -> Iterator[ProtectedServer]:
    server = ProtectedServer("http").start()
    yield server
    server.stop()


async def visit(url: str) -> int:
    """What a browser does with the address: follow it (and its redirects) to the end."""
    async with httpx.AsyncClient(follow_redirects=True, trust_env=False) as client:
        return (await client.get(url)).status_code


def address_in(line: str) -> str:
    found = re.search(r"open (\S+)", line)
    assert found, line
    return found.group(1)


async def start(
    server: ProtectedServer,
    told: list[str],
    browser: Callable[[str], Any] | None = None,
    interactive: bool = True,
) -> ServerConnection:
    """A connection to `server`; what it tells the person goes to `told`, and to `browser`."""
    connection = ServerConnection("notes", MCPServerConfig.model_validate(server.config()), Path.cwd())
    connection.interactive = interactive
    tasks: list[asyncio.Task[Any]] = []

    def tell(line: str) -> None:
        told.append(line)
        if browser is not None:
            tasks.append(asyncio.get_running_loop().create_task(browser(address_in(line))))

    connection.listen(tell)
    await connection.wait_ready()
    await asyncio.gather(*tasks)
    return connection


def stored(server: ProtectedServer) -> dict[str, Any]:
    return json.loads(token_file(server.url).read_text())


async def test_a_server_that_asks_is_signed_in_to_and_its_tool_answers_with_the_token(
    protected: ProtectedServer,
) -> None:
    told: list[str] = []
    visited: list[int] = []

    async def browser(url: str) -> None:
        visited.append(await visit(url))

    connection = await start(protected, told, browser)
    try:
        assert connection.state == "running", connection.error
        result = await connection.call("note", {})
    finally:
        await connection.stop()
    (client_id,) = protected.authority.clients  # registered dynamically, once
    assert result.content[0].text == f"note for {client_id}"
    assert visited == [200] and len(told) == 1 and "'notes' asks you to sign in" in told[0]
    asked = parse_qs(urlparse(address_in(told[0])).query)
    assert asked["code_challenge_method"] == ["S256"] and asked["client_id"] == [client_id]
    assert urlparse(asked["redirect_uri"][0]).hostname == "127.0.0.1"

    path = token_file(protected.url)
    assert stat.S_IMODE(path.stat().st_mode) == 0o600 and stat.S_IMODE(path.parent.stat().st_mode) == 0o700
    assert stored(protected)["tokens"]["access_token"] in protected.authority.access

    again_told: list[str] = []  # a new process: the kept sign-in, no browser
    again = await start(protected, again_told, interactive=False)
    try:
        assert again.state == "running", again.error
        assert (await again.call("note", {})).content[0].text == f"note for {client_id}"
    finally:
        await again.stop()
    assert again_told == [] and protected.authority.authorizations == 1


async def test_an_expired_token_is_refreshed_without_a_new_sign_in(protected_http: ProtectedServer) -> None:
    server = protected_http
    first = await start(server, [], visit)
    await first.stop()
    old = stored(server)["tokens"]["access_token"]
    server.authority.expire_access_tokens()
    kept = stored(server) | {"expires_at": time.time() - 60}
    token_file(server.url).write_text(json.dumps(kept))

    again = await start(server, [], interactive=False)  # nobody to sign in: only a refresh can work
    try:
        assert again.state == "running", again.error
        assert (await again.call("note", {})).content[0].text.startswith("note for ")
    finally:
        await again.stop()
    assert server.authority.refreshes == 1 and server.authority.authorizations == 1
    new = stored(server)["tokens"]["access_token"]
    assert new != old and new in server.authority.access
    assert stat.S_IMODE(token_file(server.url).stat().st_mode) == 0o600


async def test_an_answer_with_another_state_is_refused_and_the_sign_in_goes_on(
    protected_http: ProtectedServer,
) -> None:
    refused: list[int] = []

    async def browser(url: str) -> None:
        callback = parse_qs(urlparse(url).query)["redirect_uri"][0]
        async with httpx.AsyncClient(trust_env=False) as client:  # another page aims at the listener
            refused.append((await client.get(callback, params={"code": "forged", "state": "forged"})).status_code)
            refused.append((await client.get(callback, params={"code": "forged"})).status_code)
        await visit(url)

    connection = await start(protected_http, [], browser)
    try:
        assert refused == [400, 400]
        assert connection.state == "running", connection.error
    finally:
        await connection.stop()


async def test_without_a_person_the_server_fails_with_one_line_saying_to_log_in(
    protected_http: ProtectedServer,
) -> None:
    told: list[str] = []
    connection = await start(protected_http, told, interactive=False)
    await connection.stop()
    assert connection.state == "failed" and told == []
    assert connection.error == "it needs you to sign in: run `tui mcp login notes`"
    assert protected_http.authority.authorizations == 0


async def test_a_static_authorization_header_is_sent_and_no_sign_in_is_tried(
    protected_http: ProtectedServer,
) -> None:
    server = protected_http
    await (await start(server, [], visit)).stop()
    token = stored(server)["tokens"]["access_token"]
    token_file(server.url).unlink()  # the only credential left is the one in the entry
    entry = server.config() | {"headers": {"Authorization": f"Bearer {token}"}}
    connection = ServerConnection("notes", MCPServerConfig.model_validate(entry), Path.cwd())
    connection.interactive = False
    await connection.wait_ready()
    try:
        assert connection.state == "running", connection.error
        assert (await connection.call("note", {})).content[0].text.startswith("note for ")
    finally:
        await connection.stop()
    assert not token_file(server.url).exists()


BROWSER = """#!{python}
import sys
import httpx

answer = httpx.get(sys.argv[1], follow_redirects=True, trust_env=False)
with open({log!r}, "a") as log:
    log.write(str(answer.status_code))
"""


def test_login_keeps_a_sign_in_that_a_later_headless_run_uses(serve, workspace: Path, tmp_path: Path) -> None:
    from openhands_tui.sdk.facts.store import state_home
    from openhands_tui.sdk.mcp_config import user_mcp_file
    from openhands_tui.testing import Script, ScriptedToolCall, Turn
    from tests.conftest import model_args, run_tui

    server = ProtectedServer("http").start()
    try:
        user_mcp_file().parent.mkdir(parents=True, exist_ok=True)
        user_mcp_file().write_text(json.dumps({"mcpServers": {"notes": server.config()}}))
        log = tmp_path / "browser.log"
        browser = tmp_path / "browser"
        browser.write_text(BROWSER.format(python=sys.executable, log=str(log)))
        browser.chmod(0o700)

        login = run_tui("mcp", "login", "notes", "--workspace", str(workspace), env={"BROWSER": str(browser)})
        assert login.returncode == 0, login.stderr
        assert "asks you to sign in (opening your browser): open http://127.0.0.1:" in login.stdout
        assert "Signed in to notes (2 tools)" in login.stdout and log.read_text() == "200"
        token = stored(server)["tokens"]["access_token"]
        (client_id,) = server.authority.clients

        listed = run_tui("mcp", "list", "--workspace", str(workspace))
        assert "[enabled, signed in]" in listed.stdout

        calls = [ScriptedToolCall(name=f"notes__{tool}", arguments={}) for tool in ("note", "credentials")]
        model = serve([Script(turns=[Turn(tool_calls=calls), Turn.finish("read the note")])])
        run = run_tui("--headless", "--task", "read my note", "--workspace", str(workspace), *model_args(model))
        assert run.returncode == 0, run.stderr
        note, echoed = [m["content"] for m in model.requests[1].messages if m["role"] == "tool"]
        assert f"note for {client_id}" in note and server.authority.authorizations == 1
        assert "called with [redacted" in echoed and token not in echoed  # the model never sees it
        kept = [path.read_text(errors="replace") for path in (state_home() / "sessions").rglob("*") if path.is_file()]
        shown = [login.stdout, login.stderr, listed.stdout, run.stdout, run.stderr]
        assert kept and not any(token in text for text in [*shown, *kept])

        logout = run_tui("mcp", "logout", "notes", "--workspace", str(workspace))
        assert logout.returncode == 0 and "Signed out of notes" in logout.stdout
        assert not token_file(server.url).exists()
    finally:
        server.stop()


def test_headless_without_a_terminal_names_the_login_command_in_one_line_and_runs_on(
    serve, workspace: Path, protected_http: ProtectedServer
) -> None:
    from openhands_tui.sdk.mcp_config import user_mcp_file
    from openhands_tui.testing import Script, Turn
    from tests.conftest import model_args, run_tui

    user_mcp_file().parent.mkdir(parents=True, exist_ok=True)
    user_mcp_file().write_text(json.dumps({"mcpServers": {"notes": protected_http.config()}}))
    model = serve([Script(turns=[Turn.finish("done without notes")])])
    run = run_tui("--headless", "--task", "read my note", "--workspace", str(workspace), *model_args(model))
    assert run.returncode == 0, run.stderr
    lines = [line for line in (run.stdout + run.stderr).splitlines() if "notes" in line and "sign in" in line]
    assert len(lines) == 1 and "run `tui mcp login notes`" in lines[0], run.stdout + run.stderr
    assert "Traceback" not in run.stdout + run.stderr
    assert "done without notes" in run.stdout


def test_get_does_not_sign_in_and_login_refuses_what_it_cannot_sign_in_to(
    workspace: Path, protected_http: ProtectedServer
) -> None:
    from typer.testing import CliRunner

    from openhands_tui.cli import app
    from openhands_tui.sdk.mcp_config import user_mcp_file

    servers = {
        "notes": protected_http.config(),
        "local": {"command": sys.executable, "args": ["-m", "mcp_server_time"]},
        "keyed": protected_http.config() | {"headers": {"Authorization": "Bearer t0k3n-from-config"}},
    }
    user_mcp_file().parent.mkdir(parents=True, exist_ok=True)
    user_mcp_file().write_text(json.dumps({"mcpServers": servers}))
    runner = CliRunner()

    got = runner.invoke(app, ["mcp", "get", "notes", "--workspace", str(workspace)])
    assert got.exit_code == 1 and "run `tui mcp login notes`" in got.stdout
    for command, name, why in [
        ("login", "local", "login local: it runs a program (stdio)"),
        ("login", "keyed", "login keyed: its entry gives its own Authorization header"),
        ("logout", "ghost", "logout ghost: no such server"),
    ]:
        result = runner.invoke(app, ["mcp", command, name, "--workspace", str(workspace)])
        assert result.exit_code == 2 and result.stdout == "", result.stdout
        assert len(result.stderr.splitlines()) == 1 and why in result.stderr
    assert protected_http.authority.authorizations == 0


async def test_a_401_without_a_sign_in_on_offer_says_how_to_give_a_key() -> None:
    server = KeyOnlyServer().start()
    try:
        connection = await start(server, [])
        await connection.stop()
    finally:
        server.stop()
    assert connection.state == "failed"
    assert connection.error.startswith("it answered 401 and signing in (OAuth) failed: ")
    assert connection.error.endswith("tui mcp add notes URL -H 'Authorization: Bearer KEY'")
