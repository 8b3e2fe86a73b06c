"""Shared fixtures: an isolated state/config home, a workspace, and the scripted model server."""

from __future__ import annotations

import contextlib
import os
import signal
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from openhands_tui.sdk import LLM
from openhands_tui.testing import Script, ScriptedAnthropicServer, ScriptedLLMServer, ScriptedServer
from tests.launcher import Finished, WarmLauncher, shared_launcher

REPO = Path(__file__).resolve().parent.parent


@pytest.fixture(autouse=True)
def isolated_home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """No test reads or writes the developer's real sessions or config."""
    home = tmp_path / "home"
    (home / "state").mkdir(parents=True)
    (home / "config").mkdir()
    monkeypatch.setenv("HOME", str(home))  # no test sees the developer's ~/.openhands either
    monkeypatch.setenv("XDG_STATE_HOME", str(home / "state"))
    monkeypatch.setenv("XDG_CONFIG_HOME", str(home / "config"))
    for name in ("LLM_MODEL", "LLM_API_KEY", "LLM_BASE_URL"):
        monkeypatch.delenv(name, raising=False)
    return home


@pytest.fixture(autouse=True)
def clean_agent_registry() -> Iterator[None]:
    """Strategies register agents process-wide; each test starts from an empty registry."""
    from openhands_tui.tools.delegate import registry

    saved = registry.unregister_all()
    yield
    registry.restore(saved)


@pytest.fixture
def workspace(tmp_path: Path) -> Path:
    path = tmp_path / "workspace"
    path.mkdir()
    return path


SERVERS: dict[str, type[ScriptedServer]] = {"openai": ScriptedLLMServer, "anthropic": ScriptedAnthropicServer}


@pytest.fixture
def serve() -> Iterator[object]:
    """`serve(scripts)` starts a scripted server for this test and returns it: the
    OpenAI-compatible one, or with `api="anthropic"` the Anthropic Messages one."""
    servers: list[ScriptedServer] = []

    def start(scripts: list[Script], api: str = "openai", **kwargs: object) -> ScriptedServer:
        server = SERVERS[api](scripts, **kwargs).start()  # type: ignore[arg-type]
        servers.append(server)
        return server

    yield start
    for server in servers:
        server.stop()


def llm_for(server: ScriptedServer, **overrides: object) -> LLM:
    """An LLM that reaches `server` through litellm's path for its API."""
    settings: dict[str, object] = {
        "model": server.model,
        "api_key": "sk-test-key",
        "base_url": server.base_url,
        "num_retries": 2,
        "retry_min_wait": 0.01,
        "retry_max_wait": 0.05,
        "timeout": 10,
    }
    settings.update(overrides)
    return LLM(**settings)  # type: ignore[arg-type]


def model_args(server: ScriptedServer, api_key: str = "k", model: str | None = None) -> list[str]:
    """The `tui` flags that point a run at the scripted server."""
    return ["--model", model or server.model, "--base-url", server.base_url, "--api-key", api_key]


def run_tui(
    *args: str,
    env: dict[str, str] | None = None,
    timeout: float = 120,
    cwd: Path | None = None,
    input: str | None = None,
    fresh: bool = False,
) -> subprocess.CompletedProcess[str] | Finished:
    """Run the real `tui` entry point in a child process: forked from the warm launcher
    (tests/warm_tui.py) unless `fresh`, which pays a whole interpreter start-up."""
    if not fresh:
        return shared_launcher().run(list(args), env=env, cwd=cwd, input=input, timeout=timeout)
    full_env = {**os.environ, **(env or {})}
    return subprocess.run(
        [sys.executable, "-m", "openhands_tui", *args],
        capture_output=True,
        text=True,
        env=full_env,
        timeout=timeout,
        cwd=cwd,
        input=input if input is not None else "",
    )


@pytest.fixture
def forker() -> Iterator[WarmLauncher]:
    """The warm launcher, for tests that start a run and signal or wait for it; children a
    failed test left running are killed when it ends."""
    launcher = shared_launcher()
    before = set(launcher.running)
    yield launcher
    for pid in set(launcher.running) - before:
        with contextlib.suppress(ProcessLookupError):
            os.kill(pid, signal.SIGKILL)
        launcher.ended(pid)


def still_running_after(marker: str, seconds: float = 5.0) -> list[int]:
    """The processes `live_processes(marker)` finds once `seconds` have passed without them all
    ending. A jailed server ends a moment after it is stopped, not at once: the kernel kills the
    rest of a PID namespace after its first process has died, and on a loaded machine that
    moment was long enough for a check made at once to find the server still there."""
    deadline = time.monotonic() + seconds
    while (found := live_processes(marker)) and time.monotonic() < deadline:
        time.sleep(0.05)
    return found


def language_servers(workspace: Path) -> list[int]:
    """basedpyright processes (its node) started for this test: their folder is the workspace.
    Not every basedpyright on the machine: another run of the suite may have its own going."""
    found = []
    for pid in live_processes("basedpyright"):
        try:
            if os.readlink(f"/proc/{pid}/cwd") == str(workspace):
                found.append(pid)
        except OSError:
            continue
    return found


def live_processes(marker: str) -> list[int]:
    """Host pids of running (not zombie) processes whose command line holds `marker`: a
    command's own pid means nothing outside the sandbox's PID namespace."""
    found = []
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            cmdline = (entry / "cmdline").read_bytes().replace(b"\0", b" ").decode(errors="replace")
            state = (entry / "stat").read_text().rsplit(")", 1)[1].split()[0]
        except OSError:
            continue
        if marker in cmdline and state != "Z" and int(entry.name) != os.getpid():
            found.append(int(entry.name))
    return found
