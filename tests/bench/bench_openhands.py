"""Side by side with OpenHands CLI: start-up and a 20-step headless run, same scripted server.

OpenHands CLI needs Python 3.12; install it in its own virtualenv, e.g.
    python3.12 -m venv /tmp/oh && /tmp/oh/bin/pip install openhands==1.16.0
and pass its `openhands` executable. Both tools get the same script: 20 `terminal` calls
(`echo N`, with the `security_risk` argument OpenHands requires), then `finish`. Measured for
each: `--help` wall time; the interactive app from launch until its prompt is on screen (in
tmux); a headless run from launch to exit and to its first model request;
and, from the server's side, the time per step (between the first and the last model request,
divided by 20), which leaves start-up and shutdown out. Both are started without network access to anything but the
scripted server (OpenHands' attempts to fetch skills from GitHub fail fast here).

Then the same 20-step run with `anthropic/claude-sonnet-4-5` against the scripted Anthropic
Messages server (prompt caching as the API documents it), for each tool: the share of input
tokens read from the prompt cache, the tokens written, breakpoints per request, requests the
server refused, and the cost of the run at litellm's prices.

Usage: python tests/bench/bench_openhands.py /path/to/openhands [runs]
"""

from __future__ import annotations

import os
import shlex
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from _common import describe, first_frame_times

from openhands_tui.sdk.llm.client import load_litellm
from openhands_tui.testing import Script, ScriptedAnthropicServer, ScriptedLLMServer, ScriptedToolCall, Turn
from openhands_tui.testing.prompt_cache import request_blocks

STEPS = 20


def _script() -> Script:
    turns = [
        Turn(tool_calls=[ScriptedToolCall(name="terminal", arguments={"command": f"echo {n}", "security_risk": "LOW"})])
        for n in range(STEPS)
    ]
    return Script(turns=[*turns, Turn(tool_calls=[ScriptedToolCall(name="finish", arguments={"message": "done"})])])


def _help_times(command: list[str], runs: int) -> list[float]:
    subprocess.run([*command, "--help"], capture_output=True)  # warm the file cache
    times = []
    for _ in range(runs):
        started = time.perf_counter()
        subprocess.run([*command, "--help"], capture_output=True, stdin=subprocess.DEVNULL)
        times.append(time.perf_counter() - started)
    return times


# litellm (which both tools use) would otherwise try to download a price list at import
LOCAL_PRICES = {"LITELLM_LOCAL_MODEL_COST_MAP": "True"}


TASK = "Run the echo commands."


def _ours(
    url: str, workspace: Path, home: Path, headless: bool = True, model: str = "openai/scripted", *flags: str
) -> tuple[list[str], dict[str, str]]:
    tui = shutil.which("tui") or str(Path(sys.executable).with_name("tui"))
    command = [tui, "--headless", "--task", TASK, "--confirm", "never", *flags] if headless else [tui]
    command += ["--model", model, "--base-url", url, "--api-key", "k", "--workspace", str(workspace)]
    return command, {"XDG_STATE_HOME": str(home / "state"), "XDG_CONFIG_HOME": str(home / "config")}


def _openhands(
    executable: str, url: str, workspace: Path, home: Path, headless: bool = True, model: str = "openai/scripted"
) -> tuple[list[str], dict[str, str]]:
    command = [executable, "--override-with-envs"]
    if headless:
        command += ["--headless", "--always-approve", "-t", TASK]
    env = {
        "LLM_MODEL": model,
        "LLM_API_KEY": "k",
        "LLM_BASE_URL": url,
        "OPENHANDS_PERSISTENCE_DIR": str(home / "openhands"),
        "OPENHANDS_WORK_DIR": str(workspace),
        "OPENHANDS_SUPPRESS_BANNER": "1",
    }
    return command, env


def _first_frames(command: list[str], env: dict[str, str], ready: str, runs: int) -> list[float]:
    """Launch the interactive app in tmux (no task) until its prompt is on screen."""
    settings = {**LOCAL_PRICES, **env, "TERM": "xterm-256color"}
    line = "env -u COLUMNS -u LINES " + shlex.join([f"{k}={v}" for k, v in settings.items()] + command)
    return first_frame_times(line, ready, runs)


def _run(build, runs: int) -> tuple[list[float], list[float], list[float]]:
    totals, first_request, per_step = [], [], []
    for _ in range(runs):
        with ScriptedLLMServer([_script()]) as server:
            workspace, home = Path(tempfile.mkdtemp()), Path(tempfile.mkdtemp())
            command, env = build(server.base_url, workspace, home)
            started = time.monotonic()
            result = subprocess.run(
                command,
                cwd=workspace,
                env={**os.environ, "HOME": str(home), **LOCAL_PRICES, **env},
                capture_output=True,
                text=True,
                stdin=subprocess.DEVNULL,
                timeout=600,
            )
            totals.append(time.monotonic() - started)
            requests = server.requests
        if result.returncode != 0 or len(requests) != STEPS + 1:
            raise RuntimeError(
                f"{command[0]}: exit {result.returncode}, {len(requests)} requests\n{result.stderr[-2000:]}"
            )
        first_request.append(requests[0].received - started)
        per_step.append((requests[-1].received - requests[0].received) / STEPS)
    return totals, first_request, per_step


CLAUDE = "anthropic/claude-sonnet-4-5"


def _claude_run(build) -> str:
    """One 20-step run on the Anthropic path; what the server saw of its prompt caching."""
    with ScriptedAnthropicServer([_script()]) as server:
        workspace, home = Path(tempfile.mkdtemp()), Path(tempfile.mkdtemp())
        command, env = build(server.base_url, workspace, home)
        result = subprocess.run(
            command,
            cwd=workspace,
            env={**os.environ, "HOME": str(home), **LOCAL_PRICES, **env},
            capture_output=True,
            text=True,
            stdin=subprocess.DEVNULL,
            timeout=600,
        )
        requests, refusals = [r for r in server.requests if r.status == 200], list(server.refusals)
    if result.returncode != 0:
        return f"exit {result.returncode} after {len(requests)} requests ({refusals[:1]}): {result.stderr[-300:]!r}"
    prices = load_litellm().get_model_info(CLAUDE)
    read = sum(r.usage["cache_read_input_tokens"] for r in requests)
    written = sum(r.usage["cache_creation_input_tokens"] for r in requests)
    total = sum(r.usage["input_tokens"] for r in requests) + read + written
    output = sum(r.usage["output_tokens"] for r in requests)
    cost = (
        (total - read - written) * prices["input_cost_per_token"]
        + read * prices["cache_read_input_token_cost"]
        + written * prices["cache_creation_input_token_cost"]
        + output * prices["output_cost_per_token"]
    )
    marks = sorted({sum(b.ttl is not None for b in request_blocks(r.body)) for r in requests})
    thinking = sum("thinking" in r.body for r in requests)
    return (
        f"{len(requests)} requests ({len(refusals)} refused), {total:,} input tokens, "
        f"{100 * read / max(total, 1):.1f}% read from the cache, {written:,} written, "
        f"{'-'.join(map(str, marks))} breakpoints per request, {thinking} with thinking, cost ${cost:.4f}"
    )


def main() -> None:
    if len(sys.argv) < 2:
        raise SystemExit(__doc__)
    openhands, runs = sys.argv[1], int(sys.argv[2]) if len(sys.argv) > 2 else 5
    tui = shutil.which("tui") or str(Path(sys.executable).with_name("tui"))
    ours_help, theirs_help = _help_times([tui], runs * 2), _help_times([openhands], runs * 2)
    home, workspace = Path(tempfile.mkdtemp()), Path(tempfile.mkdtemp())
    nowhere = "http://127.0.0.1:9/v1"  # the app only has to show its prompt
    ours_cmd, ours_env = _ours(nowhere, workspace, home, headless=False)
    theirs_cmd, theirs_env = _openhands(openhands, nowhere, workspace, home, headless=False)
    ours_frame = _first_frames(ours_cmd, {"HOME": str(home), **ours_env}, "Type a task", runs * 2)
    theirs_frame = _first_frames(theirs_cmd, {"HOME": str(home), **theirs_env}, "Type your message", runs * 2)
    ours_total, ours_first, ours_step = _run(_ours, runs)
    theirs_total, theirs_first, theirs_step = _run(lambda url, ws, home: _openhands(openhands, url, ws, home), runs)

    def row(name: str, ours: list[float], theirs: list[float], unit: str = "s") -> None:
        ratio = statistics.median(theirs) / statistics.median(ours)
        print(
            f"{name}:\n  openhands-tui  {describe(ours, unit)}\n  OpenHands CLI  {describe(theirs, unit)}"
            f"\n  OpenHands / ours: {ratio:.1f}x"
        )

    row("--help wall time", ours_help, theirs_help)
    row("launch -> interactive prompt on screen (tmux)", ours_frame, theirs_frame)
    row(f"{STEPS}-step headless run, launch to exit", ours_total, theirs_total)
    row("headless launch to the first model request", ours_first, theirs_first)
    row(
        "per step (server side: first to last request / 20)",
        [s * 1000 for s in ours_step],
        [s * 1000 for s in theirs_step],
        " ms",
    )
    print(f"{STEPS}-step run with {CLAUDE} (scripted Anthropic Messages API, prompt caching):")
    print(f"  openhands-tui  {_claude_run(lambda url, ws, home: _ours(url, ws, home, True, CLAUDE))}")
    thinking = _claude_run(lambda url, ws, home: _ours(url, ws, home, True, CLAUDE, "--reasoning-effort", "high"))
    print(f"  openhands-tui --reasoning-effort high  {thinking}")
    theirs = _claude_run(lambda url, ws, home: _openhands(openhands, url, ws, home, model=CLAUDE))
    print(f"  OpenHands CLI (thinking on by default)  {theirs}")


if __name__ == "__main__":
    main()
