"""How long `tui --help` takes from launch to exit (target: <= 0.3 s; OpenHands CLI: 4.7 s here).

Usage: python tests/bench/bench_help.py [runs]
"""

from __future__ import annotations

import shutil
import subprocess
import sys
import time
from pathlib import Path

from _common import describe

PROBE = "import sys, openhands_tui.cli; print(','.join(m for m in ('litellm', 'textual') if m in sys.modules))"


def main() -> None:
    runs = int(sys.argv[1]) if len(sys.argv) > 1 else 20
    tui = shutil.which("tui") or str(Path(sys.executable).with_name("tui"))
    subprocess.run([tui, "--help"], capture_output=True, check=True)  # warm the file cache
    times = []
    for _ in range(runs):
        started = time.perf_counter()
        subprocess.run([tui, "--help"], capture_output=True, check=True)
        times.append(time.perf_counter() - started)
    check = subprocess.run(
        [
            sys.executable,
            "-c",
            PROBE,
        ],
        capture_output=True,
        text=True,
        check=True,
    ).stdout.strip()
    print(f"tui --help wall time: {describe(times)}")
    print(f"heavy modules loaded by the CLI import: {check or 'none'}")


if __name__ == "__main__":
    main()
