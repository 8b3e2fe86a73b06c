"""The user's first model call: how long it takes after litellm is merely imported, and after
the app's background warm-up (`sdk.llm_warmup.warm_up`, one offline completion).

Each measurement is a fresh Python process (what is being measured is first-call state),
calling the scripted server, which answers at once.

Usage: python tests/bench/bench_first_call.py [runs]   (default: 5)
"""

from __future__ import annotations

import subprocess
import sys

from _common import describe, server_process

from openhands_tui.testing import Script, Turn

PROBE = """
import asyncio, sys, time
from openhands_tui.sdk.llm import client as llm
from openhands_tui.sdk.llm import warmup as llm_warmup
llm_warmup.warm_up() if sys.argv[2] == "warm" else llm.load_litellm()
client = llm.LLM(model="openai/scripted", api_key="k", base_url=sys.argv[1])
started = time.perf_counter()
asyncio.run(client.complete([{"role": "user", "content": "[first] hi"}]))
print(time.perf_counter() - started)
"""


def first_call(url: str, mode: str) -> float:
    out = subprocess.run([sys.executable, "-c", PROBE, url, mode], capture_output=True, text=True, check=True)
    return float(out.stdout.strip())


def main() -> None:
    runs = int(sys.argv[1]) if len(sys.argv) > 1 else 5
    script = Script(name="first", match_user="[first]", turns=[Turn(text="hello")] * (2 * runs + 1))
    with server_process([script]) as url:
        first_call(url, "cold")  # warms the file cache; not counted
        cold = [first_call(url, "cold") * 1000 for _ in range(runs)]
        warm = [first_call(url, "warm") * 1000 for _ in range(runs)]
    print(f"first model call, litellm only imported:  {describe(cold, ' ms')}")
    print(f"first model call, after warm_up():        {describe(warm, ' ms')}")


if __name__ == "__main__":
    main()
