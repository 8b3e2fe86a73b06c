"""Signing in to a remote MCP server: what each way of starting a protected server costs, on
loopback, against our own authorization server (tests/mcp/oauth_server.py).

1. A first start: 401, discovery, registration, the browser (an httpx client following the
   authorization URL), the exchange, then the tool list.
2. A start with the kept sign-in (what every later session does).
3. A start whose kept token expired: a refresh first.
4. For comparison, a start of the same kind of server without sign-in (tests/mcp/servers.py).

Usage: python tests/bench/bench_mcp_oauth.py [runs]
"""

from __future__ import annotations

import asyncio
import json
import os
import re
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from _common import describe

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))  # the repository: tests.mcp

home = tempfile.mkdtemp(prefix="bench-oauth-")
os.environ.update({"HOME": home, "XDG_STATE_HOME": f"{home}/s", "XDG_CONFIG_HOME": f"{home}/c"})

import httpx  # noqa: E402

from openhands_tui.mcp.connection import ServerConnection  # noqa: E402
from openhands_tui.mcp.oauth_store import token_file  # noqa: E402
from openhands_tui.sdk.mcp_config import MCPServerConfig  # noqa: E402
from tests.mcp.oauth_server import ProtectedServer  # noqa: E402
from tests.mcp.servers import HTTPServer  # noqa: E402


async def _browse(url: str) -> None:
    async with httpx.AsyncClient(follow_redirects=True, trust_env=False) as client:
        await client.get(url)


async def _start(entry: dict[str, Any], browse: bool) -> float:
    connection = ServerConnection("notes", MCPServerConfig.model_validate(entry), Path(home))
    connection.interactive = browse
    tasks: list[asyncio.Task[None]] = []

    def tell(line: str) -> None:
        found = re.search(r"open (\S+)", line)
        if found:
            tasks.append(asyncio.get_running_loop().create_task(_browse(found.group(1))))

    connection.listen(tell)
    started = time.perf_counter()
    await connection.wait_ready()
    took = time.perf_counter() - started
    assert connection.state == "running", connection.error
    await asyncio.gather(*tasks)
    await connection.stop()
    return took


def _forget(server: ProtectedServer) -> None:
    token_file(server.url).unlink()


def _expire(server: ProtectedServer) -> None:
    server.authority.expire_access_tokens()
    path = token_file(server.url)
    path.write_text(json.dumps(json.loads(path.read_text()) | {"expires_at": time.time() - 60}))


async def main(runs: int) -> None:
    plain = HTTPServer().start()
    await _start(plain.config(), False)  # the SDK's first import, not measured
    rows: list[tuple[str, Callable[[ProtectedServer], None], bool]] = [
        (
            "first start: sign-in (discovery, registration, browser, exchange)",
            lambda s: token_file(s.url).unlink(),
            True,
        ),
        ("start with the kept sign-in", lambda s: None, False),
        ("start with an expired kept token (refresh)", _expire, False),
    ]
    server = ProtectedServer("http").start()
    await _start(server.config(), True)
    for label, prepare, browse in rows:
        times = []
        for _ in range(runs):
            if token_file(server.url).exists():
                prepare(server)
            times.append(await _start(server.config(), browse))
        print(f"{label}: {describe(times)}")
    server.stop()
    plain_times = [await _start(plain.config(), False) for _ in range(runs)]
    print(f"start without sign-in (unprotected server): {describe(plain_times)}")
    plain.stop()


if __name__ == "__main__":
    asyncio.run(main(int(sys.argv[1]) if len(sys.argv) > 1 else 9))
