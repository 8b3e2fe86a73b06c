"""MCP servers the tests run: the real PyPI ones over stdio, one streamable-HTTP server the
tests start in process with the `mcp` SDK, and programs that fail the ways servers do."""

from __future__ import annotations

import socket
import subprocess
import sys
import threading
import time
from pathlib import Path
from typing import Any

import anyio
import uvicorn
from mcp.server.mcpserver import MCPServer
from mcp.types import ToolAnnotations

PYTHON = sys.executable


def time_server(tag: str = "mcp-test") -> dict[str, Any]:
    """`tag` is in the server's command line (a harmless -W filter), so a test can look for its
    own processes and not another run's."""
    return {"command": PYTHON, "args": ["-W", f"ignore:{tag}", "-m", "mcp_server_time", "--local-timezone", "UTC"]}


def git_server(repo: Path, tag: str = "mcp-test") -> dict[str, Any]:
    """mcp-server-git on `repo`, which its sandbox lets it write (the user's call, in its entry)."""
    args = ["-W", f"ignore:{tag}", "-m", "mcp_server_git", "--repository", str(repo)]
    return {"command": PYTHON, "args": args, "sandbox": {"writable": [str(repo)]}}


def git_repo(path: Path) -> Path:
    path.mkdir(parents=True, exist_ok=True)
    git = ["git", "-c", "user.email=t@example.com", "-c", "user.name=t"]
    subprocess.run([*git, "init", "-q"], cwd=path, check=True)
    (path / "notes.txt").write_text("first\n")
    subprocess.run([*git, "add", "."], cwd=path, check=True)
    subprocess.run([*git, "commit", "-qm", "the first commit"], cwd=path, check=True)
    (path / "notes.txt").write_text("first\nsecond\n")
    return path


#: Programs that fail the ways MCP servers do.
_EXIT = "import sys; print('no licence key', file=sys.stderr); sys.exit(3)"
EXITS_AT_START = {"command": PYTHON, "args": ["-c", _EXIT]}
HANGS = {"command": PYTHON, "args": ["-c", "import time; time.sleep(60)"], "timeout": 1.5}
MALFORMED = {
    "command": PYTHON,
    "args": ["-c", "import time; print('{this is not json', flush=True); time.sleep(60)"],
    "timeout": 4,  # long enough for a loaded machine to start python and print
}


#: mcp-server-time after one line of bytes that are not UTF-8 (a stray binary print at start).
_NOT_UTF8_FIRST = (
    "import os, sys; os.write(1, bytes([0xFF, 0xFE, 0x20, 0x0A])); "
    "os.execv(sys.executable, [sys.executable, '-m', 'mcp_server_time', '--local-timezone', 'UTC'])"
)
NOT_UTF8_FIRST = {"command": PYTHON, "args": ["-c", _NOT_UTF8_FIRST]}


CRASHING_SERVER = """
import os
from mcp.server.mcpserver import MCPServer

app = MCPServer("crashy", log_level="ERROR")

@app.tool()
def crash() -> str:
    \"\"\"Ends the server's process mid-call.\"\"\"
    os._exit(1)

app.run()
"""


def crashing_server(tmp: Path) -> dict[str, Any]:
    """A real stdio server (the `mcp` SDK's) whose one tool kills its own process."""
    script = tmp / "crashy.py"
    script.write_text(CRASHING_SERVER)
    return {"command": PYTHON, "args": [str(script)]}


class HTTPServer:
    """A streamable-HTTP MCP server in a thread: `lookup` (read-only, takes `delay` seconds)
    and `record` (a write). `calls` keeps (tool, argument, started, ended) for ordering checks."""

    def __init__(self, delay: float = 0.5) -> None:
        self.delay = delay
        self.calls: list[tuple[str, str, float, float]] = []
        self.cancelled: list[str] = []
        #: Keys whose lookup has begun.
        self.started: list[str] = []
        app = MCPServer("web", log_level="ERROR")

        @app.tool(annotations=ToolAnnotations(read_only_hint=True, destructive_hint=False))
        async def lookup(key: str) -> str:
            """Look a key up (read-only)."""
            started = time.monotonic()
            self.started.append(key)
            try:
                await anyio.sleep(self.delay if not key.startswith("slow") else 60)
            except anyio.get_cancelled_exc_class():
                self.cancelled.append(key)
                raise
            self.calls.append(("lookup", key, started, time.monotonic()))
            return f"value of {key}"

        @app.tool()
        async def record(note: str) -> str:
            """Write a note (changes state)."""
            started = time.monotonic()
            await anyio.sleep(0.05)
            self.calls.append(("record", note, started, time.monotonic()))
            return f"recorded {note}"

        self._sock = socket.socket()
        self._sock.bind(("127.0.0.1", 0))
        self.port = self._sock.getsockname()[1]
        config = uvicorn.Config(app.streamable_http_app(), log_level="error", lifespan="on")
        self._server = uvicorn.Server(config)
        self._thread = threading.Thread(target=self._server.run, kwargs={"sockets": [self._sock]}, daemon=True)

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}/mcp"

    def config(self) -> dict[str, Any]:
        return {"type": "http", "url": self.url}

    def start(self) -> HTTPServer:
        self._thread.start()
        deadline = time.monotonic() + 10
        while not self._server.started and time.monotonic() < deadline:
            time.sleep(0.02)
        return self

    def stop(self) -> None:
        self._server.should_exit = True
        self._thread.join(5)
        self._sock.close()


#: A stdio server whose tools try what a prompt-injected model would have a server do; each
#: answers with what happened ("ok ..." or the error), so a test can see the wall hold.
PROBING_SERVER = """
import os, socket, sys
from mcp.server.mcpserver import MCPServer

app = MCPServer("probe", log_level="ERROR")

@app.tool()
def write(path: str, text: str) -> str:
    \"\"\"Append text to a file.\"\"\"
    try:
        with open(os.path.expanduser(path), "a") as handle:
            handle.write(text)
        return "ok wrote " + path
    except OSError as exc:
        return f"error {exc}"

@app.tool()
def read(path: str) -> str:
    \"\"\"Read a file.\"\"\"
    try:
        with open(os.path.expanduser(path)) as handle:
            return "ok " + handle.read()
    except OSError as exc:
        return f"error {exc}"

@app.tool()
def connect(port: int) -> str:
    \"\"\"Open a TCP connection to 127.0.0.1:port.\"\"\"
    try:
        socket.create_connection(("127.0.0.1", port), timeout=3).close()
        return "ok connected"
    except OSError as exc:
        return f"error {exc}"

@app.tool()
def env(name: str) -> str:
    \"\"\"An environment variable's value.\"\"\"
    return "ok " + os.environ.get(name, "<unset>")

app.run()
"""


def probing_server(folder: Path, **entry: Any) -> dict[str, Any]:
    """The probing server as an entry (its script in `folder`), with `entry`'s settings."""
    folder.mkdir(parents=True, exist_ok=True)
    script = folder / "probe_server.py"
    script.write_text(PROBING_SERVER)
    return {"command": PYTHON, "args": [str(script)], **entry}


#: A stdio server whose one tool waits (while it waits, the server has a child of its own), so a
#: test can kill `tui` while a call is running.
SLOW_SERVER = """
import subprocess, sys, time
from mcp.server.mcpserver import MCPServer

app = MCPServer("slow", log_level="ERROR")

@app.tool()
def wait(seconds: float) -> str:
    \"\"\"Wait, with a helper process of its own.\"\"\"
    helper = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(120)", sys.argv[1] + "-child"])
    time.sleep(seconds)
    helper.kill()
    return "waited"

app.run()
"""


def slow_server(folder: Path, marker: str, **entry: Any) -> dict[str, Any]:
    """The slow server as an entry; `marker` is in its command line (and its child's)."""
    folder.mkdir(parents=True, exist_ok=True)
    script = folder / "slow_server.py"
    script.write_text(SLOW_SERVER)
    return {"command": PYTHON, "args": [str(script), marker], **entry}
