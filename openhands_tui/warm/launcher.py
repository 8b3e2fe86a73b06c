"""`tui warm`: start the warm server in the background (and wait until it answers), stop it,
or say whether one is running for this installation and environment."""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import tempfile
import time

from openhands_tui.warm import protocol
from openhands_tui.warm.key import socket_path

START_TIMEOUT = 120.0


def running() -> bool:
    path = socket_path(os.environ)
    if not os.path.exists(path):
        return False
    with socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as probe:
        try:
            probe.connect(path)
        except OSError:
            return False
    return True


def start(idle_minutes: float) -> str:
    """Start a server for this environment unless one runs; return a line saying which."""
    if running():
        return f"warm start: already running ({socket_path(os.environ)})"
    expected = socket_path(os.environ)
    # -P: `-m` would put the current folder first on the path, and in a checkout beside a regular
    # install the server would import the source tree, not what this tui runs (another key)
    command = [sys.executable, "-P", "-m", "openhands_tui", "warm", "--serve", "--idle", str(idle_minutes)]
    command += ["--socket", expected]
    with tempfile.TemporaryFile() as errors:  # the server's complaints, if it fails to start
        server = subprocess.Popen(
            command,
            stdin=subprocess.DEVNULL,
            stdout=subprocess.DEVNULL,
            stderr=errors,
            start_new_session=True,  # outlives this command and its terminal
        )
        deadline = time.monotonic() + START_TIMEOUT
        while not running():
            if server.poll() is not None:
                errors.seek(0)
                detail = errors.read().decode(errors="replace").strip().splitlines()
                raise RuntimeError(f"warm start: the server exited ({detail[-1] if detail else server.returncode})")
            if time.monotonic() > deadline:
                server.kill()
                raise RuntimeError(f"warm start: the server did not answer within {START_TIMEOUT:g}s")
            time.sleep(0.05)
    return f"warm start: ready (pid {server.pid}; exits after {idle_minutes:g} idle minutes, or `tui warm --stop`)"


def stop() -> str:
    if not running():
        return "warm start: not running for this environment"
    with socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as connection:
        connection.connect(socket_path(os.environ))
        protocol.send_request(connection, {"stop": True}, [])
        connection.recv(1)  # the server closes the connection as it stops
    return "warm start: stopped"
