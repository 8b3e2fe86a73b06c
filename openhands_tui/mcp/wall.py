"""The jail a stdio MCP server starts in: the terminal's jail (`openhands_tui.jail`), built from
the server's own `sandbox` entry instead of the session's policy.

A server is code from outside that the model steers with arguments (a notebook's `run_cell`, a
database's `query`), so it gets what its entry grants and no more: by default the workspace
read-only, no network, a private `/tmp`, its own PID namespace, no capabilities, and
`--die-with-parent`, so it dies with `tui`. `"workspace": "write"` binds the workspace writable
(minus the protected paths the terminal's jail keeps read-only too), `"none"` hides it,
`"network": true` keeps the host's network, `"writable"` lists folders it may write,
`"mode": "off"` runs it unconfined, as every server runs when the session's sandbox is off (under
`sdk/processes/orphan_guard.py` then, which ties it to `tui`'s life as the jail would).

Its environment is the shell's (`shell_environment`: no secret of ours, no model API key) plus
its entry's `env`. A launcher (`npx`, `uvx`, `pipx`, `bunx`) writes a package cache: each server
gets a cache folder of its own (per workspace and server name, under the user's cache
directory), the only place outside the workspace it may write unless its entry lists more. One
server cannot write another's cache, nor the user's own `~/.npm`, whose packages the user's
next `npx` would run.
"""

from __future__ import annotations

import hashlib
import os
from dataclasses import dataclass
from pathlib import Path

from openhands_tui.jail.bubblewrap import find_bubblewrap
from openhands_tui.jail.jail import Jail
from openhands_tui.sdk.files.xdg import base_directory
from openhands_tui.sdk.mcp_config import MCPServerConfig, tool_name_part
from openhands_tui.sdk.processes.orphan_guard import guarded_argv
from openhands_tui.sdk.sandbox import HIDDEN_IN_HOME, SandboxPolicy
from openhands_tui.sdk.security.secrets import shell_environment
from openhands_tui.sdk.security.trusted import TrustedFiles


class WallError(Exception):
    """The server cannot be started inside its wall (no usable bubblewrap here)."""


@dataclass(frozen=True)
class Launch:
    """How to start one stdio server: the whole argv (the jail's prefix first, when jailed)."""

    argv: list[str]
    env: dict[str, str]
    cwd: str
    jailed: bool


def launch(
    name: str, config: MCPServerConfig, workspace: Path, session: SandboxPolicy, trusted: TrustedFiles | None = None
) -> Launch:
    """The command line, environment and folder that start `config` (a stdio server) inside
    its wall, or unconfined when its entry or the session's sandbox is off. Raises WallError
    when a wall is wanted but cannot be built here. `trusted`: the session's trusted files,
    bound read-only like the other protected paths (None: none)."""
    assert config.command is not None
    command = os.path.expandvars(config.command)
    args = [os.path.expandvars(arg) for arg in config.args]
    cwd = _cwd(config, workspace)
    env = shell_environment(os.environ, keep=session.keep_env)
    env.pop("LLM_API_KEY", None)  # the model's key is ours, never a server's
    if not session.enabled or config.sandbox.mode == "off":
        env.update(_own_env(config))
        return Launch(guarded_argv([command, *args]), env, cwd, jailed=False)  # still dies with tui
    bwrap = find_bubblewrap()
    if bwrap.path is None:
        raise WallError(
            f"cannot start it inside its sandbox: {bwrap.problem}; give its entry "
            '"sandbox": {"mode": "off"} to run it unconfined, or start tui with --sandbox off'
        )
    cache = server_cache(name, workspace)
    env.update(_cache_env(cache))
    env.update(_own_env(config))  # the entry's own settings win
    wall = config.sandbox
    policy = SandboxPolicy(
        mode="workspace-write" if wall.workspace == "write" else "read-only",
        network=wall.network,
        writable=[str(cache), *(_writable(path, workspace) for path in wall.writable)],
        keep_env=session.keep_env,
    )
    writable = [Path(os.path.realpath(path)) for path in policy.writable]
    readable = [
        path
        for path in _readable([command, *args], cwd, workspace)
        if not any(_under(path, folder) for folder in writable)  # bound read-only after: it would win
    ]
    extra: list[str] = []
    if wall.workspace == "none":  # an empty folder where the workspace was; what the server runs is kept
        extra = ["--tmpfs", str(workspace)]
        for path in readable:
            if _under(path, workspace) and path != workspace and str(path) != cwd:
                extra += ["--ro-bind", str(path), str(path)]
        if _under(Path(cwd), workspace):
            extra += ["--dir", cwd]
    outside = [p for p in readable if not _under(p, workspace)]
    prefix = Jail(policy, workspace, bwrap.path, trusted=trusted).argv(cwd, outside, extra=extra)
    return Launch([*prefix, command, *args], env, cwd, jailed=True)


def server_cache(name: str, workspace: Path) -> Path:
    """The server's own writable cache folder (made, private to the user)."""
    key = hashlib.sha256(f"{os.path.realpath(workspace)}\0{name}".encode()).hexdigest()[:12]
    base = base_directory("XDG_CACHE_HOME", Path.home() / ".cache") / "openhands-tui" / "mcp"
    folder = base / f"{tool_name_part(name)[:40]}-{key}"
    folder.mkdir(parents=True, exist_ok=True, mode=0o700)
    return folder


def _cache_env(cache: Path) -> dict[str, str]:
    """Where launchers and the programs they start keep what they download or build."""
    return {
        "XDG_CACHE_HOME": str(cache),
        "npm_config_cache": str(cache / "npm"),
        "npm_config_update_notifier": "false",
        "UV_CACHE_DIR": str(cache / "uv"),
        "UV_TOOL_DIR": str(cache / "uv-tools"),
        "PIPX_HOME": str(cache / "pipx"),
        "PIP_CACHE_DIR": str(cache / "pip"),
        "BUN_INSTALL_CACHE_DIR": str(cache / "bun"),
        "PYTHONPYCACHEPREFIX": str(cache / "pycache"),
    }


def _own_env(config: MCPServerConfig) -> dict[str, str]:
    return {key: os.path.expandvars(value) for key, value in config.env.items()}


def _cwd(config: MCPServerConfig, workspace: Path) -> str:
    """The server's folder: its `cwd` (`~` expanded; relative to the workspace), else the workspace."""
    if not config.cwd:
        return str(workspace)
    return os.path.normpath(workspace / os.path.expanduser(os.path.expandvars(config.cwd)))


def _writable(path: str, workspace: Path) -> str:
    return os.path.normpath(workspace / os.path.expanduser(os.path.expandvars(path)))


def _readable(words: list[str], cwd: str, workspace: Path) -> list[Path]:
    """The files and folders the command line names (its script, the server's own folder),
    bound read-only so the server can load them whatever the jail hides; never a credential
    store of the user's."""
    home = Path.home()
    hidden = [home / entry for entry in HIDDEN_IN_HOME]
    found: list[Path] = []
    for word in [*words, cwd]:
        if not word or "\0" in word or word.startswith("-") or ("/" not in word and word != cwd):
            continue
        path = Path(os.path.normpath(Path(cwd) / os.path.expanduser(word)))
        real = Path(os.path.realpath(path))  # a link is bound as what it points at (bwrap cannot bind one)
        if not real.exists() or real == Path("/") or real in found:
            continue
        if any(real == secret or _under(real, secret) for secret in hidden):
            continue
        found.append(real)
        if path != real and _under(path, home) and not any(_under(path, secret) for secret in hidden):
            found.append(path)  # the link's own place too: HOME is empty in the jail, the name must resolve
    return found


def _under(path: Path, folder: Path) -> bool:
    return path == folder or folder in path.parents
