"""A real OpenHands agent-server (`openhands-agent-server` from PyPI) on a free loopback port, for
the tests and the bench of the remote executor.

It needs Python 3.12 or newer, which the suite's own interpreter may not be: an interpreter is
looked for (`TUI_AGENT_SERVER_PYTHON`, then `python3.13`/`python3.12` on PATH, then pyenv's), and
the server is installed into a virtualenv of its own under the user's cache folder once
(`~/.cache/openhands-tui-tests/agent-server`, kept between runs, one installer at a time). Where
no such interpreter exists or the install fails, the tests skip and say why.
"""

from __future__ import annotations

import contextlib
import fcntl
import glob
import os
import secrets
import shutil
import socket
import subprocess
import sys
import time
import urllib.request
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

VERSION = "1.58.2"
#: Found when this module is imported: before the suite points HOME at a scratch folder.
REAL_HOME = Path.home()
CACHE = REAL_HOME / ".cache" / "openhands-tui-tests" / "agent-server"


def _python() -> str | None:
    """An interpreter of Python 3.12 or newer, or None."""
    candidates = [os.environ.get("TUI_AGENT_SERVER_PYTHON", "")]
    candidates += [shutil.which(name) or "" for name in ("python3.13", "python3.12")]
    candidates += sorted(glob.glob(str(REAL_HOME / ".pyenv/versions/3.1[2-9]*/bin/python3")), reverse=True)
    candidates += sorted(glob.glob("/root/.pyenv/versions/3.1[2-9]*/bin/python3"), reverse=True)
    for candidate in candidates:
        if candidate and os.access(candidate, os.X_OK) and _is_new_enough(candidate):
            return candidate
    return None


def _is_new_enough(python: str) -> bool:
    """It runs (a pyenv shim of a version not selected does not) and is 3.12 or newer."""
    try:
        done = subprocess.run(
            [python, "-c", "import sys; sys.exit(0 if sys.version_info >= (3, 12) else 1)"],
            capture_output=True,
            timeout=30,
        )
    except (OSError, subprocess.SubprocessError):
        return False
    return done.returncode == 0


def server_python() -> tuple[str | None, str]:
    """(the venv's interpreter with the server installed, "") or (None, why not)."""
    venv = CACHE / f"venv-{VERSION}"
    python = venv / "bin" / "python"
    if (venv / "installed").exists():
        return str(python), ""
    base = _python()
    if base is None:
        return None, "the agent-server needs Python 3.12+, and none is installed here"
    CACHE.mkdir(parents=True, exist_ok=True)
    with open(CACHE / "install.lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)  # one installer; the others find it done
        if (venv / "installed").exists():
            return str(python), ""
        shutil.rmtree(venv, ignore_errors=True)
        try:
            subprocess.run([base, "-m", "venv", str(venv)], check=True, capture_output=True, timeout=120)
            subprocess.run(
                [str(python), "-m", "pip", "install", "-q", f"openhands-agent-server=={VERSION}"],
                check=True,
                capture_output=True,
                timeout=900,
            )
        except (subprocess.SubprocessError, OSError) as exc:
            return None, f"could not install openhands-agent-server {VERSION} ({type(exc).__name__})"
        (venv / "installed").write_text(VERSION)
    return str(python), ""


@dataclass
class AgentServer:
    url: str
    key: str
    process: subprocess.Popen[bytes]

    def stop(self) -> None:
        with contextlib.suppress(ProcessLookupError):
            os.killpg(self.process.pid, 15)
        try:
            self.process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            with contextlib.suppress(ProcessLookupError):
                os.killpg(self.process.pid, 9)
            self.process.wait(timeout=10)


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


@contextlib.contextmanager
def running_server(home: Path) -> Iterator[AgentServer | str]:
    """A started server (or why there is none), stopped with its whole process group after."""
    python, why = server_python()
    if python is None:
        yield why
        return
    key = secrets.token_hex(16)
    port = _free_port()
    home.mkdir(parents=True, exist_ok=True)
    environment = {
        "PATH": os.environ.get("PATH", "/usr/bin:/bin"),
        "HOME": str(home),
        "SESSION_API_KEY": key,
        "LITELLM_LOCAL_MODEL_COST_MAP": "True",  # no fetch of prices from the internet at start
    }
    log = open(home / "server.log", "wb")  # noqa: SIM115 - closed below, after the process
    process = subprocess.Popen(
        [python, "-m", "openhands.agent_server", "--host", "127.0.0.1", "--port", str(port)],
        env=environment,
        stdout=log,
        stderr=subprocess.STDOUT,
        cwd=home,
        start_new_session=True,
    )
    server = AgentServer(f"http://127.0.0.1:{port}", key, process)
    try:
        deadline = time.monotonic() + 120
        while True:
            if process.poll() is not None:
                yield f"the agent-server exited at start: {(home / 'server.log').read_text()[-300:]}"
                return
            try:
                with urllib.request.urlopen(f"{server.url}/alive", timeout=2) as answer:
                    if answer.status == 200:
                        break
            except OSError:
                pass
            if time.monotonic() > deadline:
                yield "the agent-server did not answer within 120 s"
                return
            time.sleep(0.2)
        yield server
    finally:
        server.stop()
        log.close()


if __name__ == "__main__":  # install it ahead of a run: python tests/agent_server_fixture.py
    found, problem = server_python()
    print(found or problem)
    sys.exit(0 if found else 1)
