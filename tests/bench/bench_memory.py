"""Peak memory (max RSS) of real headless runs: `tui --help`, a 1-step run and a 100-step run.

Each run is the real `tui --headless` command against the scripted server (in its own
process), measured by a separate wrapper process so that only the run is counted. The
difference between the 1-step and the 100-step runs is what a session's history costs; the
rest is Python, pydantic, litellm and the tools being loaded.

With --warm, the same runs forked from a `tui warm` server: a forked run shares the server's
pages until it writes them, so its max RSS counts shared pages; what the run alone adds is
its private memory (sampled every 20 ms from /proc), and the server's own RSS is paid once
for all runs.

Usage: python tests/bench/bench_memory.py [--warm] [steps ...]   (default: 1 100)
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from _common import server_process

from openhands_tui.testing import Script, Turn

WRAPPER = (
    "import resource, subprocess, sys; "
    "code = subprocess.run(sys.argv[1:], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL).returncode; "
    "print(code, resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss)"
)


def peak_mb(command: list[str], env: dict[str, str]) -> float:
    result = subprocess.run([sys.executable, "-c", WRAPPER, *command], capture_output=True, text=True, env=env)
    code, kilobytes = result.stdout.split()
    if code != "0":
        raise RuntimeError(f"{command} exited {code}")
    return int(kilobytes) / 1024


def _kilobytes(path: str, field: str) -> int:
    try:
        match = re.search(rf"^{field}:\s+(\d+) kB", Path(path).read_text(), re.MULTILINE)
    except OSError:
        return 0
    return int(match.group(1)) if match else 0


def warm_peaks(command: list[str], env: dict[str, str], server: int) -> tuple[float, float]:
    """Max RSS and max private memory of the server's child while `command` runs through it."""
    client = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, env=env)
    rss = private = 0
    while client.poll() is None:
        children = Path(f"/proc/{server}/task/{server}/children").read_text().split()
        for child in children:
            rss = max(rss, _kilobytes(f"/proc/{child}/status", "VmHWM"))
            private = max(
                private,
                _kilobytes(f"/proc/{child}/smaps_rollup", "Private_Clean")
                + _kilobytes(f"/proc/{child}/smaps_rollup", "Private_Dirty"),
            )
        time.sleep(0.02)
    if client.returncode != 0:
        raise RuntimeError(f"{command} exited {client.returncode}")
    return rss / 1024, private / 1024


def main() -> None:
    warm = "--warm" in sys.argv
    sizes = [int(a) for a in sys.argv[1:] if a != "--warm"] or [1, 100]
    tui = shutil.which("tui") or str(Path(sys.executable).with_name("tui"))
    home = tempfile.mkdtemp()
    env = {**os.environ, "HOME": home, "XDG_STATE_HOME": f"{home}/state", "XDG_CONFIG_HOME": f"{home}/config"}
    server = 0
    if warm:
        started = subprocess.run([tui, "warm", "--idle", "5"], env=env, capture_output=True, text=True, check=True)
        server = int(re.findall(r"pid (\d+)", started.stdout)[0])
        print(f"warm server: RSS {_kilobytes(f'/proc/{server}/status', 'VmRSS') / 1024:.0f} MB (once, for all runs)")
    else:
        print(f"tui --help: peak RSS {peak_mb([tui, '--help'], env):.0f} MB")
    for steps in sizes:
        turns = [Turn.call("terminal", command=f"echo {n}") for n in range(steps)]
        with server_process([Script(turns=[*turns, Turn.finish("done")])]) as url:
            model = ["--model", "openai/scripted", "--base-url", url, "--api-key", "k"]
            limit = ["--max-iterations", str(steps + 5)]
            command = [tui, "--headless", "--task", "go", *model, *limit, "--workspace", tempfile.mkdtemp()]
            if warm:
                rss, private = warm_peaks(command, env, server)
                print(f"{steps:>4}-step headless run, forked: peak RSS {rss:.0f} MB, of it private {private:.0f} MB")
            else:
                print(f"{steps:>4}-step headless run: peak RSS {peak_mb(command, env):.0f} MB")
    if warm:
        subprocess.run([tui, "warm", "--stop"], env=env, capture_output=True, check=True)


if __name__ == "__main__":
    main()
