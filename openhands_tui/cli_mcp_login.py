"""`tui mcp login NAME` / `tui mcp logout NAME`: sign in to a remote MCP server ahead of time,
or forget the sign-in.

A session without a terminal (an editor over ACP, a piped headless run) cannot wait for a
person, so a server that asks to be signed in fails there with one line pointing here. `login`
starts the server once with a person at hand: the authorization address is printed (and the
browser opened when there is a desktop), the sign-in is kept in the user's state folder
(`mcp/oauth_store.py`), and the server's tools are listed to show it works. Every later session
uses the kept sign-in, refreshed when it expires. `logout` removes it.
"""

from __future__ import annotations

import asyncio
import os
import sys
from pathlib import Path
from typing import Any

import typer


def _fail(message: str, code: int = 2) -> typer.Exit:
    print(f"tui mcp: {message}", file=sys.stderr)
    return typer.Exit(code)


def _url(command: str, name: str, config: Any) -> str:
    from openhands_tui.mcp.oauth import wants_oauth

    if config.url is None:
        raise _fail(f"{command} {name}: it runs a program (stdio); only servers at a URL are signed in to")
    headers = {key: os.path.expandvars(value) for key, value in config.headers.items()}
    if not wants_oauth(headers):
        raise _fail(f"{command} {name}: its entry gives its own Authorization header; there is nothing to sign in to")
    return os.path.expandvars(config.url)


def login(name: str, config: Any, root: Path) -> None:
    from openhands_tui.mcp.oauth_store import TokenFile

    url = _url("login", name, config)
    store = TokenFile(url)
    before = store.read().get("tokens")
    state, error, count = asyncio.run(_start(name, config, root))
    if state != "running":
        raise _fail(f"login {name}: {error or state}", 1)
    after = store.read().get("tokens")
    tools = f"{count} tool{'' if count == 1 else 's'}"
    if not after:
        print(f"{name} answered without asking to sign in: nothing to keep ({tools})")
    elif after == before:
        print(f"Already signed in to {name} ({tools}); `tui mcp logout {name}` first to sign in again")
    else:
        print(f"Signed in to {name} ({tools}); the sign-in is kept in {store.path}")


async def _start(name: str, config: Any, root: Path) -> tuple[str, str, int]:
    from openhands_tui.mcp.connection import ServerConnection

    connection = ServerConnection(name, config, root)
    connection.interactive = True  # the person who typed the command signs in
    connection.listen(lambda line: print(line, flush=True))
    try:
        await connection.wait_ready()
        return connection.state, connection.error, len(connection.tools)
    finally:
        await connection.stop()


def logout(name: str, config: Any) -> None:
    from openhands_tui.mcp.oauth_store import TokenFile

    store = TokenFile(_url("logout", name, config))
    if store.forget():
        print(f"Signed out of {name}: removed the sign-in kept in {store.path}")
    else:
        print(f"Not signed in to {name}: nothing to remove")


def signed_in(config: Any) -> bool:
    """Whether a sign-in is kept for the server (`tui mcp list`)."""
    if config.url is None:
        return False
    from openhands_tui.mcp.oauth_store import TokenFile

    return TokenFile(os.path.expandvars(config.url)).signed_in
