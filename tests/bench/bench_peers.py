"""Start-up against the peers: ours (cold, and forked from `tui warm`) beside whichever of
OpenHands CLI, Claude Code, opencode and Codex are installed, on the same scripted server.

Every tool gets the same job: 20 shell commands (`echo N`, one per model turn, each in the
tool's own shell-tool format), then a final answer. Per run: launch -> first model request of
the task (the server's clock; side requests such as title generation are answered by another
script and not counted), launch -> exit, and the time per step (first to last task request,
divided by 20). Runs are interleaved (one of each tool, then again), each tool keeps one home
directory for all its runs (caches, installed provider packages, our warm server's key), and
each tool's first run only warms caches and is dropped. Medians, min-max, and each figure's
ratio to ours.

Peers, installed outside the repository (never committed), e.g.
    npm install --prefix /tmp/peers @anthropic-ai/claude-code opencode-ai @openai/codex
    python3.12 -m venv /tmp/oh && /tmp/oh/bin/pip install openhands
are looked for in --peers DIR/node_modules/.bin and --openhands PATH. Codex speaks only the
Responses API: the scripted OpenAI server answers it too (`openhands_tui/testing/responses.py`).

Usage: python tests/bench/bench_peers.py [runs] [--peers DIR] [--openhands PATH] [--only NAME,...]
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
import uuid
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

from _common import describe, first_frame_times

from openhands_tui.testing import Script, ScriptedAnthropicServer, ScriptedLLMServer, ScriptedToolCall, Turn
from openhands_tui.testing.http import ScriptedServer

STEPS = 20
TASK = "Run the echo commands."
Command = tuple[list[str], dict[str, str]]


@dataclass
class Peer:
    name: str
    api: str  # "openai" or "anthropic"
    shell_call: Callable[[int], ScriptedToolCall]
    command: Callable[[str, Path, Path], Command]  # (server url, workspace, home)
    final: Turn = field(default_factory=lambda: Turn(text="done"))
    #: How the task's requests are told from side requests (titles...): the first user message
    #: by default; Codex puts its environment there, so its system prompt instead.
    match_user: str | None = TASK
    match: str = ""
    setup: Callable[[Path], None] | None = None  # once, with the tool's home
    teardown: Callable[[Path], None] | None = None
    results: dict[str, list[float]] = field(default_factory=lambda: {"first": [], "total": [], "step": []})


def _script(peer: Peer) -> list[Script]:
    turns = [Turn(tool_calls=[peer.shell_call(n)]) for n in range(STEPS)]
    task = Script(name="task", match=peer.match, match_user=peer.match_user, turns=[*turns, peer.final])
    side = Script(name="side", turns=[Turn(text="Echo commands", repeat=100)])  # titles, summaries...
    return [task, side]


def _tui() -> str:
    return shutil.which("tui") or str(Path(sys.executable).with_name("tui"))


def _ours_env(home: Path) -> dict[str, str]:
    return {"XDG_STATE_HOME": str(home / "state"), "XDG_CONFIG_HOME": str(home / "config")}


def ours(warm: bool) -> Peer:
    def command(url: str, workspace: Path, home: Path) -> Command:
        args = [_tui(), "--headless", "--task", TASK, "--confirm", "never", "--model", "openai/scripted"]
        args += ["--base-url", url, "--api-key", "k", "--workspace", str(workspace)]
        return args, {**_ours_env(home), **({} if warm else {"OPENHANDS_TUI_COLD": "1"})}

    def warm_server(home: Path, stop: bool = False) -> None:
        flags = ["--stop"] if stop else []
        done = subprocess.run([_tui(), "warm", *flags], env=_environment(home, _ours_env(home)), capture_output=True)
        if done.returncode != 0:
            raise RuntimeError(done.stderr.decode())

    return Peer(
        name="openhands-tui (warm)" if warm else "openhands-tui",
        api="openai",
        shell_call=lambda n: ScriptedToolCall(name="terminal", arguments={"command": f"echo {n}"}),
        final=Turn.finish("done"),
        command=command,
        setup=warm_server if warm else None,
        teardown=(lambda home: warm_server(home, stop=True)) if warm else None,
    )


def openhands(executable: str) -> Peer:
    def command(url: str, workspace: Path, home: Path) -> Command:
        env = {
            "LLM_MODEL": "openai/scripted",
            "LLM_API_KEY": "k",
            "LLM_BASE_URL": url,
            "OPENHANDS_PERSISTENCE_DIR": str(home / "openhands"),
            "OPENHANDS_WORK_DIR": str(workspace),
            "OPENHANDS_SUPPRESS_BANNER": "1",
        }
        return [executable, "--override-with-envs", "--headless", "--always-approve", "-t", TASK], env

    return Peer(
        name="OpenHands CLI",
        api="openai",
        shell_call=lambda n: ScriptedToolCall(
            name="terminal", arguments={"command": f"echo {n}", "security_risk": "LOW"}
        ),
        final=Turn.finish("done"),
        command=command,
    )


def claude_code(executable: str) -> Peer:
    def command(url: str, workspace: Path, home: Path) -> Command:
        env = {
            "ANTHROPIC_BASE_URL": url,
            "ANTHROPIC_API_KEY": "k",
            "CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC": "1",
            "DISABLE_AUTOUPDATER": "1",
        }
        return [executable, "-p", TASK, "--allowedTools", "Bash", "--model", "claude-sonnet-4-5"], env

    return Peer(
        name="Claude Code",
        api="anthropic",
        shell_call=lambda n: ScriptedToolCall(name="Bash", arguments={"command": f"echo {n}", "description": "echo"}),
        command=command,
    )


def opencode(executable: str) -> Peer:
    def command(url: str, workspace: Path, home: Path) -> Command:
        config = {
            "provider": {
                "scripted": {
                    "npm": "@ai-sdk/openai-compatible",
                    "name": "Scripted",
                    "options": {"baseURL": url, "apiKey": "k"},
                    "models": {"scripted": {"name": "scripted"}},
                }
            },
            "model": "scripted/scripted",
            "autoupdate": False,
            "share": "disabled",
        }
        (workspace / "opencode.json").write_text(json.dumps(config))
        return [executable, "run", TASK, "-m", "scripted/scripted"], {}

    return Peer(
        name="opencode",
        api="openai",
        shell_call=lambda n: ScriptedToolCall(name="bash", arguments={"command": f"echo {n}", "description": "echo"}),
        command=command,
    )


def codex(executable: str) -> Peer:
    def command(url: str, workspace: Path, home: Path) -> Command:
        provider = f'{{name="scripted",base_url="{url}",wire_api="responses",env_key="SCRIPTED_KEY"}}'
        args = [executable, "exec", "--skip-git-repo-check", "--dangerously-bypass-approvals-and-sandbox"]
        args += ["-c", "model_provider=scripted", "-c", f"model_providers.scripted={provider}", "-m", "scripted"]
        return [*args, TASK], {"SCRIPTED_KEY": "k", "CODEX_HOME": str(home / ".codex")}

    return Peer(
        name="Codex",
        api="openai",
        shell_call=lambda n: ScriptedToolCall(name="exec_command", arguments={"cmd": f"echo {n}"}),
        command=command,
        match_user=None,
        match="Codex CLI",
        setup=lambda home: (home / ".codex").mkdir(exist_ok=True),
    )


def _environment(home: Path, extra: dict[str, str]) -> dict[str, str]:
    # litellm (ours, OpenHands) would otherwise try to download a price list at import
    return {**os.environ, "HOME": str(home), "LITELLM_LOCAL_MODEL_COST_MAP": "True", **extra}


def run_once(peer: Peer, home: Path) -> tuple[float, float, float]:
    server_class: type[ScriptedServer] = ScriptedAnthropicServer if peer.api == "anthropic" else ScriptedLLMServer
    with server_class(_script(peer)) as server:  # type: ignore[arg-type]
        workspace = Path(tempfile.mkdtemp(prefix="bench-ws-"))
        command, extra = peer.command(server.base_url, workspace, home)
        env = _environment(home, {"PWD": str(workspace), **extra})
        started = time.monotonic()
        result = subprocess.run(
            command, cwd=workspace, env=env, capture_output=True, text=True, stdin=subprocess.DEVNULL, timeout=600
        )
        total = time.monotonic() - started
        task = [r for r in server.requests if r.script == "task" and r.status == 200]
        shutil.rmtree(workspace, ignore_errors=True)
    if result.returncode != 0 or len(task) != STEPS + 1:
        raise RuntimeError(f"{peer.name}: exit {result.returncode}, {len(task)} task requests\n{result.stderr[-1500:]}")
    return task[0].received - started, total, (task[-1].received - task[0].received) / STEPS


def _installed(peers_dir: Path, openhands_path: str | None) -> tuple[list[Peer], list[str]]:
    found: list[Peer] = [ours(warm=False), ours(warm=True)]
    missing = []
    if openhands_path and Path(openhands_path).exists():
        found.append(openhands(openhands_path))
    else:
        missing.append("OpenHands CLI (pass --openhands PATH)")
    for name, make in (("codex", codex), ("claude", claude_code), ("opencode", opencode)):
        executable = peers_dir / "node_modules" / ".bin" / name
        if executable.exists():
            found.append(make(str(executable)))
        else:
            missing.append(f"{name} (not in {peers_dir}/node_modules/.bin)")
    return found, missing


def _enter_to_request(env: str, runs: int) -> list[float]:
    """Type a task the moment the prompt shows and press Enter: time until the model request
    arrives (the app's litellm import, or its warm-up, may still be under way)."""
    times = []
    for _ in range(runs):
        with ScriptedLLMServer([Script(turns=[Turn(text="hello")])]) as server:
            app = f"{_tui()} --model openai/scripted --base-url {server.base_url} --api-key k --confirm never"
            session = f"bench-enter-{uuid.uuid4().hex[:6]}"
            subprocess.run(["tmux", "new-session", "-d", "-s", session, "-x", "140", "-y", "40", f"{env} {app}"])
            try:
                deadline = time.monotonic() + 60
                while "Type a task" not in _pane(session):
                    if time.monotonic() > deadline:
                        raise RuntimeError("the prompt never appeared")
                    time.sleep(0.005)
                subprocess.run(["tmux", "send-keys", "-t", session, "say hello", "Enter"])
                pressed = time.monotonic()
                while not server.requests and time.monotonic() < deadline:
                    time.sleep(0.002)
                times.append(server.requests[0].received - pressed)
            finally:
                subprocess.run(["tmux", "kill-session", "-t", session], capture_output=True)
    return times


def _pane(session: str) -> str:
    return subprocess.run(["tmux", "capture-pane", "-t", session, "-p"], capture_output=True, text=True).stdout


def prompt_times(runs: int) -> dict[str, list[float]]:
    """Ours, launch -> interactive prompt on screen in tmux, cold and forked from a warm
    server; the server is started in tmux too, so that its environment is the runs' own."""
    home = Path(tempfile.mkdtemp(prefix="bench-home-"))
    env = f"env -u COLUMNS -u LINES HOME={home} XDG_STATE_HOME={home}/state XDG_CONFIG_HOME={home}/config"
    env += " TERM=xterm-256color LITELLM_LOCAL_MODEL_COST_MAP=True"
    app = f"{_tui()} --model openai/scripted --base-url http://127.0.0.1:9/v1 --api-key k --workspace {home}"
    try:
        cold = first_frame_times(f"{env} OPENHANDS_TUI_COLD=1 {app}", "Type a task", runs)
        cold_enter = _enter_to_request(f"{env} OPENHANDS_TUI_COLD=1", max(3, runs // 2))
        first_frame_times(f"{env} {_tui()} warm --idle 10; sleep 30", "warm start: ready", 0)
        warm = first_frame_times(f"{env} {app}", "Type a task", runs)
        warm_enter = _enter_to_request(env, max(3, runs // 2))
        first_frame_times(f"{env} {_tui()} warm --stop; sleep 30", "warm start: stopped", 0)
    finally:
        shutil.rmtree(home, ignore_errors=True)
    return {
        "launch -> interactive prompt on screen (tmux), openhands-tui": cold,
        "launch -> interactive prompt on screen (tmux), openhands-tui (warm)": warm,
        "Enter pressed as the prompt shows -> the model request, openhands-tui": cold_enter,
        "Enter pressed as the prompt shows -> the model request, openhands-tui (warm)": warm_enter,
    }


def _row(label: str, peers: list[Peer], key: str, scale: float, unit: str) -> None:
    print(label)
    cold, warm = (statistics.median(p.results[key]) for p in peers[:2])
    for peer in peers:
        values = [v * scale for v in peer.results[key]]
        median = statistics.median(peer.results[key])
        print(
            f"  {peer.name:22} median {median * scale:8.3f}{unit}  min {min(values):.3f}  max {max(values):.3f}"
            f"  (n={len(values)})  {median / cold:5.2f}x ours cold  {median / warm:5.2f}x ours warm"
        )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("runs", type=int, nargs="?", default=5)
    parser.add_argument("--peers", type=Path, default=Path("/tmp/peers"))
    parser.add_argument("--openhands", default="/tmp/oh/bin/openhands")
    parser.add_argument("--only", default="", help="comma-separated names (substrings) to run")
    args = parser.parse_args()
    peers, missing = _installed(args.peers, args.openhands)
    if args.only:
        wanted = [w.strip().lower() for w in args.only.split(",")]
        peers = peers[:2] + [p for p in peers[2:] if any(w in p.name.lower() for w in wanted)]
    prompts = prompt_times(args.runs * 2) if shutil.which("tmux") else {}
    homes = {peer.name: Path(tempfile.mkdtemp(prefix="bench-home-")) for peer in peers}
    try:
        for peer in peers:
            if peer.setup:
                peer.setup(homes[peer.name])
        for round_ in range(args.runs + 1):
            for peer in peers:
                first, total, step = run_once(peer, homes[peer.name])
                if round_ > 0:  # the first round warms caches
                    for key, value in (("first", first), ("total", total), ("step", step)):
                        peer.results[key].append(value)
    finally:
        for peer in peers:
            if peer.teardown:
                peer.teardown(homes[peer.name])
            shutil.rmtree(homes[peer.name], ignore_errors=True)
    load = " ".join(f"{value:.2f}" for value in os.getloadavg())
    print(f"{time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime())}, load average {load}")
    for label, values in prompts.items():
        print(f"{label}: {describe(values)}")
    _row("headless launch -> first model request of the task", peers, "first", 1, " s")
    _row(f"{STEPS}-step headless run, launch -> exit", peers, "total", 1, " s")
    _row(f"per step (server side: first to last task request / {STEPS})", peers, "step", 1000, " ms")
    for line in missing:
        print(f"not measured: {line}")


if __name__ == "__main__":
    main()
