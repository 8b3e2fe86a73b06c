"""Helpers shared by the benchmark scripts: a scripted server in its own process."""

from __future__ import annotations

import json
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from openhands_tui.testing import Script


@contextmanager
def server_process(scripts: list[Script]) -> Iterator[str]:
    """Run the scripted server in a separate process (so it does not share our GIL); yield its URL."""
    with tempfile.TemporaryDirectory() as tmp:
        script_file = Path(tmp) / "scripts.json"
        script_file.write_text(json.dumps([s.model_dump() for s in scripts]))
        port_file = Path(tmp) / "port"
        process = subprocess.Popen(
            [
                sys.executable,
                "-m",
                "openhands_tui.testing",
                "--script",
                str(script_file),
                "--port-file",
                str(port_file),
            ],
            stdout=subprocess.DEVNULL,
        )
        try:
            deadline = time.monotonic() + 20
            while not port_file.exists():
                if time.monotonic() > deadline:
                    raise RuntimeError("scripted server did not start")
                time.sleep(0.02)
            yield f"http://127.0.0.1:{port_file.read_text().strip()}/v1"
        finally:
            process.terminate()
            process.wait()


def describe(values: list[float], unit: str = "s") -> str:
    return (
        f"median {statistics.median(values):.3f}{unit}  min {min(values):.3f}{unit}  "
        f"max {max(values):.3f}{unit}  (n={len(values)})"
    )
