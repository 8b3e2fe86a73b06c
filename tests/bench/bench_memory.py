"""Peak memory (max RSS) of real headless runs: `tui --help`, a 1-step run and a 100-step run.

Each run is the real `tui --headless` command against the scripted server (in its own
process), measured by a separate wrapper process so that only the run is counted. The
difference between the 1-step and the 100-step runs is what a session's history costs; the
rest is Python, pydantic, litellm and the tools being loaded.

Usage: python tests/bench/bench_memory.py [steps ...]   (default: 1 100)
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import tempfile
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


def main() -> None:
    sizes = [int(a) for a in sys.argv[1:]] or [1, 100]
    tui = shutil.which("tui") or str(Path(sys.executable).with_name("tui"))
    home = tempfile.mkdtemp()
    env = {**os.environ, "HOME": home, "XDG_STATE_HOME": f"{home}/state", "XDG_CONFIG_HOME": f"{home}/config"}
    print(f"tui --help: peak RSS {peak_mb([tui, '--help'], env):.0f} MB")
    for steps in sizes:
        turns = [Turn.call("terminal", command=f"echo {n}") for n in range(steps)]
        with server_process([Script(turns=[*turns, Turn.finish("done")])]) as url:
            model = ["--model", "openai/scripted", "--base-url", url, "--api-key", "k"]
            limit = ["--max-iterations", str(steps + 5)]
            command = [tui, "--headless", "--task", "go", *model, *limit, "--workspace", tempfile.mkdtemp()]
            print(f"{steps:>4}-step headless run: peak RSS {peak_mb(command, env):.0f} MB")


if __name__ == "__main__":
    main()
