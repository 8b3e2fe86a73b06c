"""The test side of the warm launcher (warm_tui.py): start `tui` children, wait for them.

One launcher serves the whole session: it is started on first use with the environment the
test session began with (so litellm's import sees no test's temporary home) and each child gets
the calling test's full environment.
"""

from __future__ import annotations

import atexit
import json
import os
import select
import signal
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

_SESSION_ENV = dict(os.environ)


@dataclass
class Finished:
    returncode: int
    stdout: str
    stderr: str


class WarmLauncher:
    def __init__(self) -> None:
        self._socket_dir = tempfile.TemporaryDirectory(prefix="oht-warm-")
        #: Where warm_spawn.py reaches the launcher (see `spawn_command`).
        self.socket_path = str(Path(self._socket_dir.name, "launcher.sock"))
        self.process = subprocess.Popen(
            [sys.executable, str(Path(__file__).with_name("warm_tui.py")), self.socket_path],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            env=_SESSION_ENV,
            cwd=Path(__file__).resolve().parent.parent,
        )
        self._buffer = b""
        self._ended: dict[int, str] = {}
        self.running: list[int] = []
        assert self._read_line(120) == "ready"

    def _read_line(self, timeout: float) -> str:
        assert self.process.stdout is not None
        fd = self.process.stdout.fileno()
        deadline = time.monotonic() + timeout
        while b"\n" not in self._buffer:
            left = deadline - time.monotonic()
            if left <= 0 or not select.select([fd], [], [], left)[0]:
                raise TimeoutError("the warm launcher did not answer")
            chunk = os.read(fd, 1 << 16)
            if not chunk:
                raise RuntimeError("the warm launcher exited")
            self._buffer += chunk
        line, self._buffer = self._buffer.split(b"\n", 1)
        return line.decode()

    def _next(self, timeout: float) -> str:
        """The next line that is not a child's end (those are kept for `ended`)."""
        while True:
            line = self._read_line(timeout)
            kind, _, rest = line.partition(" ")
            if kind != "end":
                return line
            pid, _, how = rest.partition(" ")
            self._ended[int(pid)] = how

    def start(
        self,
        args: list[str],
        out: Path,
        err: Path | None = None,
        env: dict[str, str] | None = None,
        cwd: Path | None = None,
        stdin: Path | None = None,
    ) -> int:
        """Start `tui ARGS` in a forked child with this test's environment; returns its pid."""
        assert self.process.stdin is not None
        request = {
            "args": args,
            "env": {**os.environ, **(env or {})},
            "cwd": str(cwd) if cwd else os.getcwd(),
            "stdin": str(stdin) if stdin else None,
            "out": str(out),
            "err": str(err) if err else None,
        }
        self.process.stdin.write(json.dumps(request).encode() + b"\n")
        self.process.stdin.flush()
        kind, _, pid = self._next(30).partition(" ")
        assert kind == "pid", kind
        self.running.append(int(pid))
        return int(pid)

    def ended(self, pid: int | None = None, timeout: float = 120) -> str:
        """`exit N` or `signal N` once the child (by default the oldest still running) is gone."""
        pid = pid if pid is not None else self.running[0]
        deadline = time.monotonic() + timeout
        while pid not in self._ended:
            line = self._read_line(max(0.0, deadline - time.monotonic()))
            kind, _, rest = line.partition(" ")
            if kind == "end":
                ended_pid, _, how = rest.partition(" ")
                self._ended[int(ended_pid)] = how
        self.running.remove(pid)
        return self._ended.pop(pid)

    def run(
        self,
        args: list[str],
        tmp: Path | None = None,
        env: dict[str, str] | None = None,
        cwd: Path | None = None,
        input: str | None = None,
        timeout: float = 120,
    ) -> Finished:
        """Run `tui ARGS` to its end, like `subprocess.run(..., capture_output=True)`."""
        with tempfile.TemporaryDirectory(dir=tmp) as scratch:
            out, err, stdin = Path(scratch, "stdout"), Path(scratch, "stderr"), Path(scratch, "stdin")
            stdin.write_text(input or "")
            pid = self.start(args, out, err, env, cwd, stdin)
            try:
                how, _, number = self.ended(pid, timeout).partition(" ")
            except TimeoutError:
                os.kill(pid, signal.SIGKILL)
                self.ended(pid)
                raise subprocess.TimeoutExpired(["tui", *args], timeout) from None
            code = int(number) if how == "exit" else -int(number)
            return Finished(code, out.read_text(errors="replace"), err.read_text(errors="replace"))

    def spawn_command(self, *args: str) -> list[str]:
        """A command line that runs `tui ARGS` warm on the caller's own stdin/stdout/stderr."""
        return [sys.executable, str(Path(__file__).with_name("warm_spawn.py")), self.socket_path, *args]

    def close(self) -> None:
        self.process.kill()
        self.process.wait()
        self._socket_dir.cleanup()


_shared: WarmLauncher | None = None


def shared_launcher() -> WarmLauncher:
    """The session's launcher, started on first use and stopped when the tests end."""
    global _shared
    if _shared is None or _shared.process.poll() is not None:
        _shared = WarmLauncher()
        atexit.register(_shared.close)
    return _shared
