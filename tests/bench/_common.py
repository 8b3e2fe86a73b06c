"""Helpers shared by the benchmark scripts: a scripted server in its own process."""

from __future__ import annotations

import json
import statistics
import subprocess
import sys
import tempfile
import time
import uuid
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from openhands_tui.testing import Script


@contextmanager
def server_process(scripts: list[Script], api: str = "openai") -> Iterator[str]:
    """Run the scripted server (`api`: openai or anthropic) in a separate process (so it does not
    share our GIL); yield its base URL."""
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
                "--api",
                api,
            ],
            stdout=subprocess.DEVNULL,
        )
        try:
            deadline = time.monotonic() + 20
            while not port_file.exists():
                if time.monotonic() > deadline:
                    raise RuntimeError("scripted server did not start")
                time.sleep(0.02)
            root = f"http://127.0.0.1:{port_file.read_text().strip()}"
            yield root if api == "anthropic" else f"{root}/v1"
        finally:
            process.terminate()
            process.wait()


def describe(values: list[float], unit: str = "s") -> str:
    return (
        f"median {statistics.median(values):.3f}{unit}  min {min(values):.3f}{unit}  "
        f"max {max(values):.3f}{unit}  (n={len(values)})"
    )


def first_frame_times(command: str, ready: str, runs: int) -> list[float]:
    """Start `command` (a shell line) in a fresh 140x40 tmux session `runs + 1` times and time
    each until `ready` is on screen; the first run only warms file caches and is dropped."""
    times = []
    # keep one session alive so the tmux server does not exit between runs
    subprocess.run(["tmux", "new-session", "-d", "-s", "bench-keepalive", "sleep 900"], capture_output=True)
    try:
        for _ in range(runs + 1):
            session = f"bench-{uuid.uuid4().hex[:6]}"
            started = time.perf_counter()
            subprocess.run(["tmux", "new-session", "-d", "-s", session, "-x", "140", "-y", "40", command], check=True)
            try:
                while True:
                    pane = subprocess.run(
                        ["tmux", "capture-pane", "-t", session, "-p"], capture_output=True, text=True
                    ).stdout
                    if ready in pane:
                        break
                    if time.perf_counter() - started > 60:
                        raise RuntimeError(f"{ready!r} never appeared:\n{pane}")
                    time.sleep(0.005)
                times.append(time.perf_counter() - started)
            finally:
                subprocess.run(["tmux", "kill-session", "-t", session], capture_output=True)
    finally:
        subprocess.run(["tmux", "kill-session", "-t", "bench-keepalive"], capture_output=True)
    return times[1:]
