"""A pre-warmed `tui` launcher (forker.py) shared by the tests that start many processes."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest

#: What a child must see of the test's environment (each test has its own home).
PASSED_ON = ("HOME", "XDG_STATE_HOME", "XDG_CONFIG_HOME")


@dataclass
class Finished:
    returncode: int
    stdout: str
    stderr: str


class Forker:
    def __init__(self) -> None:
        self.process = subprocess.Popen(
            [sys.executable, str(Path(__file__).with_name("forker.py"))],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            text=True,
        )
        assert self._read() == "ready"

    def _read(self) -> str:
        assert self.process.stdout is not None
        return self.process.stdout.readline().strip()

    def start(self, args: list[str], out: Path, err: Path | None = None, env: dict[str, str] | None = None) -> int:
        """Start `tui ARGS` in a forked child; returns its pid. Call `ended()` next."""
        assert self.process.stdin is not None
        passed = {name: os.environ[name] for name in PASSED_ON if name in os.environ}
        request = {"args": args, "out": str(out), "err": str(err) if err else None, "env": {**passed, **(env or {})}}
        self.process.stdin.write(json.dumps(request) + "\n")
        self.process.stdin.flush()
        return int(self._read())

    def ended(self) -> str:
        """`exit N` or `signal N`, once the child is gone."""
        return self._read()

    def run(self, args: list[str], tmp: Path, env: dict[str, str] | None = None) -> Finished:
        out, err = tmp / "stdout.txt", tmp / "stderr.txt"
        self.start(args, out, err, env)
        how, _, number = self.ended().partition(" ")
        code = int(number) if how == "exit" else -int(number)
        return Finished(code, out.read_text(), err.read_text())

    def close(self) -> None:
        self.process.kill()
        self.process.wait()


@pytest.fixture(scope="session")
def forker() -> Iterator[Forker]:
    launcher = Forker()
    yield launcher
    launcher.close()
