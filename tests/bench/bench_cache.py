"""Prompt caching on the Anthropic path: a 20-step headless run of `tui` with
`anthropic/claude-sonnet-4-5`, through litellm's Anthropic client, against the scripted Messages
server (which caches as the API documents: breakpoints, 20-block lookback, 1,024-token minimum).

Prints, from the server's side, the share of input tokens read from the cache (target >= 90 %),
the tokens written, and the run's cost at litellm's prices against the same tokens uncached —
once without reasoning and once with `--reasoning-effort high` (signed thinking in every turn).

Usage: python tests/bench/bench_cache.py [steps]
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

from openhands_tui.sdk.llm.client import load_litellm
from openhands_tui.testing import RecordedRequest, Script, ScriptedAnthropicServer, ScriptedToolCall, Turn
from openhands_tui.testing.prompt_cache import request_blocks

MODEL = "anthropic/claude-sonnet-4-5"


def script(steps: int) -> Script:
    turns = [
        Turn(tool_calls=[ScriptedToolCall(name="terminal", arguments={"command": f"echo {n}", "security_risk": "LOW"})])
        for n in range(steps)
    ]
    return Script(turns=[*turns, Turn(tool_calls=[ScriptedToolCall(name="finish", arguments={"message": "done"})])])


def run(steps: int, *flags: str) -> list[RecordedRequest]:
    """One headless run; the requests the server answered, with the usage it reported."""
    tui = shutil.which("tui") or str(Path(sys.executable).with_name("tui"))
    with ScriptedAnthropicServer([script(steps)]) as server:
        home, workspace = Path(tempfile.mkdtemp()), Path(tempfile.mkdtemp())
        env = {
            **os.environ,
            "HOME": str(home),
            "XDG_STATE_HOME": str(home / "state"),
            "XDG_CONFIG_HOME": str(home / "config"),
            "LITELLM_LOCAL_MODEL_COST_MAP": "True",
        }
        command = [tui, "--headless", "--task", "Run the echo commands.", "--confirm", "never", *flags]
        command += ["--model", MODEL, "--base-url", server.base_url, "--api-key", "k", "--workspace", str(workspace)]
        result = subprocess.run(command, env=env, capture_output=True, text=True, stdin=subprocess.DEVNULL)
        if result.returncode != 0 or server.refusals or len(server.requests) != steps + 1:
            raise RuntimeError(f"exit {result.returncode}, refusals {server.refusals}\n{result.stderr[-2000:]}")
        return server.requests


def report(name: str, requests: list[RecordedRequest]) -> None:
    prices = load_litellm().get_model_info(MODEL)
    usage = [r.usage for r in requests]
    marks = sorted({sum(b.ttl is not None for b in request_blocks(r.body)) for r in requests})
    read = sum(u["cache_read_input_tokens"] for u in usage)
    written = sum(u["cache_creation_input_tokens"] for u in usage)
    fresh = sum(u["input_tokens"] for u in usage)
    output = sum(u["output_tokens"] for u in usage)
    total = read + written + fresh
    cost = (
        fresh * prices["input_cost_per_token"]
        + read * prices["cache_read_input_token_cost"]
        + written * prices["cache_creation_input_token_cost"]
        + output * prices["output_cost_per_token"]
    )
    uncached = total * prices["input_cost_per_token"] + output * prices["output_cost_per_token"]
    breakpoints = f"{'-'.join(map(str, marks))} breakpoints per request"
    print(
        f"{name}: {len(usage)} requests, {total:,} input tokens, {100 * read / total:.1f}% read from the cache, "
        f"{written:,} written ({breakpoints}); cost ${cost:.4f} vs ${uncached:.4f} uncached ({cost / uncached:.2f}x)"
    )


def main() -> None:
    steps = int(sys.argv[1]) if len(sys.argv) > 1 else 20
    report(f"{steps}-step run", run(steps))
    report(f"{steps}-step run, --reasoning-effort high", run(steps, "--reasoning-effort", "high"))


if __name__ == "__main__":
    main()
