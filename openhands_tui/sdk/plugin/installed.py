"""The plugins the user installed with `tui plugin add`, and installing them.

An installed plugin is a copy, never a link to where it came from: a folder is copied into our
state folder, a git source is cloned there at one commit (recorded; `update` moves it on, and
asks again). A copy the agent cannot reach is what the user reviewed: a plugin's hooks and MCP
servers are code, and a plugin left in a workspace could be rewritten by the work itself. The
copy holds regular files and folders only (links are left out, so none points at `~/.ssh`), up
to MAX_FILES files and MAX_BYTES in all. What is installed is listed in `plugins.json` in our
config folder, replaced whole under a lock, so two `tui plugin add` at once both land.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import stat
import subprocess
import tempfile
from dataclasses import asdict, dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from openhands_tui.sdk.files.private import one_writer, replace_privately
from openhands_tui.sdk.files.read import read_regular
from openhands_tui.sdk.files.xdg import config_base, state_base
from openhands_tui.sdk.plugin.folder import PluginError, PluginFolder, read_plugin

MAX_FILES = 5000
MAX_BYTES = 100 << 20
MAX_DEPTH = 40
_SHA = re.compile(r"[0-9a-f]{7,40}")


@dataclass
class InstalledPlugin:
    name: str
    source: str
    path: str
    commit: str = ""
    ref: str = ""
    installed: str = ""
    enabled: bool = True

    def folder(self) -> PluginFolder:
        return read_plugin(Path(self.path), self.name)


def registry_file() -> Path:
    return config_base() / "openhands-tui" / "plugins.json"


def plugins_home() -> Path:
    return state_base() / "openhands-tui" / "plugins"


def installed_plugins(warnings: list[str] | None = None) -> list[InstalledPlugin]:
    """What is installed, in the order it was installed; an entry that cannot be read is a warning."""
    data = _read(warnings if warnings is not None else [])
    found = []
    for name, entry in data.items():
        try:
            found.append(InstalledPlugin(**{**entry, "name": name}))
        except TypeError:
            (warnings if warnings is not None else []).append(f"{registry_file()}: entry {name!r} skipped")
    return found


def fetch(source: str, ref: str | None, scratch: Path) -> tuple[Path, str]:
    """A local folder as it is, or a git URL cloned into `scratch` at `ref` (default: the latest
    commit): (its folder, the commit or "")."""
    local = Path(source).expanduser()
    if local.exists():
        if not local.is_dir():
            raise PluginError(f"{source}: not a folder")
        return local.resolve(), ""
    if not _looks_like_git(source) or source.startswith("-"):
        raise PluginError(f"{source}: no such folder, and not a git URL")
    if ref is not None and (ref.startswith("-") or not ref.strip()):
        raise PluginError(f"--ref {ref}: not a branch, tag or commit")
    target = scratch / "clone"
    environment = {**os.environ, "GIT_TERMINAL_PROMPT": "0", "GIT_ASKPASS": "true"}
    hardened = ["-c", "core.hooksPath=/dev/null", "-c", "core.fsmonitor=false", "-c", "protocol.ext.allow=never"]
    shallow = ref is None or not _SHA.fullmatch(ref)
    options = ["--quiet", "--no-recurse-submodules", *(["--depth", "1"] if shallow else [])]
    if shallow and ref:
        options += ["--branch", ref]
    command = ["git", *hardened, "clone", *options, "--", source, str(target)]  # `--`: a URL is never an option
    _git(command, environment, source)
    if not shallow:
        _git(["git", *hardened, "-C", str(target), "checkout", "--quiet", "--detach", str(ref)], environment, source)
    head = _git(["git", "-C", str(target), "rev-parse", "HEAD"], environment, source).strip()
    shutil.rmtree(target / ".git", ignore_errors=True)  # the copy is files, not a repository
    return target, head


def install(plugin: PluginFolder, source: str, commit: str, ref: str | None) -> InstalledPlugin:
    """Copy `plugin` into our state folder and list it (replacing an earlier install of it)."""
    destination = plugins_home() / plugin.name
    staging = Path(tempfile.mkdtemp(prefix=f".{plugin.name}.", dir=_made(plugins_home())))
    try:
        _copy_regular(plugin.root, staging / "files")
        with one_writer(registry_file()):
            if destination.exists():
                shutil.rmtree(destination)
            os.replace(staging / "files", destination)
            entry = InstalledPlugin(
                name=plugin.name,
                source=source,
                path=str(destination),
                commit=commit,
                ref=ref or "",
                installed=datetime.now(UTC).isoformat(timespec="seconds"),
            )
            data = _read([])
            data[plugin.name] = {k: v for k, v in asdict(entry).items() if k != "name"}
            replace_privately(registry_file(), json.dumps(data, indent=2))
    finally:
        shutil.rmtree(staging, ignore_errors=True)
    return entry


def remove(name: str) -> InstalledPlugin:
    with one_writer(registry_file()):
        data = _read([])
        if name not in data:
            have = ", ".join(data) or "none"
            raise PluginError(f"{name}: no such installed plugin (installed: {have})")
        entry = InstalledPlugin(**{**data.pop(name), "name": name})
        replace_privately(registry_file(), json.dumps(data, indent=2))
    if Path(entry.path).resolve().parent == plugins_home().resolve():
        shutil.rmtree(entry.path, ignore_errors=True)
    return entry


def _read(warnings: list[str]) -> dict[str, dict[str, Any]]:
    try:
        data = json.loads(read_regular(registry_file(), 4 << 20))
    except FileNotFoundError:
        return {}
    except (OSError, ValueError) as exc:
        warnings.append(f"{registry_file()}: cannot read it ({getattr(exc, 'strerror', None) or exc})")
        return {}
    plugins = data.get("plugins", data) if isinstance(data, dict) else None
    return {k: v for k, v in plugins.items() if isinstance(v, dict)} if isinstance(plugins, dict) else {}


def _copy_regular(source: Path, destination: Path) -> None:
    """Regular files and folders only; a plugin over the limits is refused, naming the limit."""
    files = size = 0
    home = plugins_home().resolve()
    if home == source.resolve() or source.resolve() in home.parents:
        raise PluginError(f"{source}: holds the folder plugins are installed in; give the plugin's own folder")
    destination.mkdir(parents=True)
    for folder, dirs, names in os.walk(source, followlinks=False):
        relative = Path(folder).relative_to(source)
        if len(relative.parts) >= MAX_DEPTH:
            raise PluginError(f"{source}: too deep to install (folders more than {MAX_DEPTH} levels down)")
        dirs[:] = [d for d in dirs if d != ".git" and not os.path.islink(os.path.join(folder, d))]
        for d in dirs:
            (destination / relative / d).mkdir()
        for name in names:
            path = os.path.join(folder, name)
            info = os.lstat(path)
            if not stat.S_ISREG(info.st_mode):
                continue  # a link, a FIFO...: not part of what is installed
            files, size = files + 1, size + info.st_size
            if files > MAX_FILES or size > MAX_BYTES:
                raise PluginError(f"{source}: too big to install (over {MAX_FILES} files or {MAX_BYTES >> 20} MB)")
            shutil.copy2(path, destination / relative / name, follow_symlinks=False)


def _made(path: Path) -> Path:
    path.mkdir(parents=True, exist_ok=True)
    return path


def _looks_like_git(source: str) -> bool:
    return "://" in source or source.endswith(".git") or bool(re.match(r"^[\w.-]+@[\w.-]+:", source))


def _git(command: list[str], environment: dict[str, str], source: str) -> str:
    try:
        done = subprocess.run(command, capture_output=True, text=True, timeout=300, env=environment, check=False)
    except (OSError, subprocess.TimeoutExpired) as exc:
        raise PluginError(f"{source}: git failed ({exc})") from None
    if done.returncode != 0:
        why = (done.stderr.strip().splitlines() or ["no output"])[-1]
        raise PluginError(f"{source}: git failed: {why}")
    return done.stdout
