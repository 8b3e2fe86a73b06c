"""Peak memory (max RSS) of a real headless run whose model answers with tens of megabytes of
text, against a 1-step run: what an answer that size costs, and how much of it is printed.

The run is the real `tui --headless` command against the scripted server (in its own
process); its max RSS comes from wait4 on the child, so the server is not counted. An answer
is kept as its first and last 500,000 characters (sdk/llm/answer_limits.py), so the figure should
stay near the 1-step run's whatever the size.

Usage: python tests/bench/bench_big_answer.py [megabytes ...]   (default: 30)
"""

from __future__ import annotations

import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from _common import server_process

from openhands_tui.testing import Script, Turn


def _answer(megabytes: float) -> str:
    line = "a line of a very long final answer, padded out to sixty characters...\n"
    return "".join(f"{n:>9} {line}" for n in range(int(megabytes * 1_000_000 / (len(line) + 10))))


def _run(text: str) -> tuple[float, float, int]:
    """(seconds, max RSS in MB, bytes printed) of one headless run answering `text`."""
    with server_process([Script(turns=[Turn(text=text)])]) as base_url, tempfile.TemporaryDirectory() as tmp:
        env = {**os.environ, "XDG_STATE_HOME": tmp, "XDG_CONFIG_HOME": tmp, "LLM_TIMEOUT": "600"}
        command = [sys.executable, "-m", "openhands_tui", "--headless", "--task", "go", "--sandbox", "off"]
        command += ["--model", "openai/scripted", "--base-url", base_url, "--api-key", "k", "--workspace", tmp]
        out_path = Path(tmp) / "out"
        started = time.monotonic()
        with out_path.open("wb") as out:
            child = subprocess.Popen(command, stdout=out, stderr=subprocess.DEVNULL, env=env, cwd=tmp)
            _, status, usage = os.wait4(child.pid, 0)
        seconds = time.monotonic() - started
        if os.waitstatus_to_exitcode(status) != 0:
            raise SystemExit(f"the run failed (exit {os.waitstatus_to_exitcode(status)})")
        return seconds, usage.ru_maxrss / 1024, out_path.stat().st_size


def main() -> None:
    sizes = [float(arg) for arg in sys.argv[1:]] or [30.0]
    seconds, rss, printed = _run("done")
    print(f"1-step run:                 {seconds:5.1f} s  max RSS {rss:6.0f} MB  printed {printed:>12,} bytes")
    for megabytes in sizes:
        text = _answer(megabytes)
        seconds, rss, printed = _run(text)
        print(
            f"{len(text) / 1e6:5.1f} MB answer:            {seconds:5.1f} s  max RSS {rss:6.0f} MB  "
            f"printed {printed:>12,} bytes"
        )


if __name__ == "__main__":
    main()
