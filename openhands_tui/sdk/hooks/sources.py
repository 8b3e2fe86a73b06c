"""Where hooks come from, and which of them may run.

The user's own files run as they are: our config's `hooks.json`, `~/.openhands/hooks.json`
and the `hooks` of `~/.claude/settings.json`. The project's — `.openhands/hooks.json`, and the
`hooks` of `.claude/settings.json` and `.claude/settings.local.json` — are code from the
repository that would run outside the sandbox, so they run only after the user trusted that
exact content: the files, and every workspace script their commands name (`hook_scripts`). A
script named by any hook is also recorded in the session's trusted files: the agent cannot
rewrite what will run unconfined without the user seeing it (HIGH to edit, read-only to
commands), and a project hook whose script changed anyway is not run.

A file that cannot be read or parsed, an entry that is not valid, or an event we do not run is
one line naming the file; the rest of the file still loads.
"""

from __future__ import annotations

import hashlib
import json
import os
import shlex
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Literal

from pydantic import ValidationError

from openhands_tui.sdk.files.read import read_regular
from openhands_tui.sdk.files.xdg import config_base
from openhands_tui.sdk.hooks.config import EVENTS, HookConfig, HookMatcher, HookType, without_unsupported_events
from openhands_tui.sdk.hooks.payload import Dialect
from openhands_tui.sdk.model import UnsupportedArgument
from openhands_tui.sdk.security.trust import ProjectTrust, TrustRequest

Origin = Literal["user", "project", "strategy"]
_PROJECT_DIR_VARIABLES = ("CLAUDE_PROJECT_DIR", "OPENHANDS_PROJECT_DIR")


@dataclass
class HookSource:
    """The hooks of one file (or of a strategy's code)."""

    label: str
    origin: Origin
    dialect: Dialect
    config: HookConfig
    path: Path | None = None
    #: Workspace files its commands run, with their digest when loaded: a project hook whose
    #: script no longer matches is not run.
    scripts: dict[str, str] = field(default_factory=dict)
    #: Variables its commands get besides the session's (a plugin's `CLAUDE_PLUGIN_ROOT`).
    environment: dict[str, str] = field(default_factory=dict)


@dataclass
class LoadedHooks:
    sources: list[HookSource] = field(default_factory=list)
    warnings: list[str] = field(default_factory=list)
    #: The project's hooks, waiting for the user's trust (None: there are none, or trusted).
    trust_request: TrustRequest | None = None
    waiting: list[HookSource] = field(default_factory=list)

    def scripts(self) -> list[str]:
        return sorted({path for source in self.sources + self.waiting for path in source.scripts})


def user_hook_files() -> list[tuple[Path, Dialect, bool]]:
    """(file, dialect, whether the hooks are under a `hooks` key of a settings file)."""
    home = Path.home()
    return [
        (config_base() / "openhands-tui" / "hooks.json", "openhands", False),
        (home / ".openhands" / "hooks.json", "openhands", False),
        (home / ".claude" / "settings.json", "claude", True),
    ]


def project_hook_files(workspace: Path) -> list[tuple[Path, Dialect, bool]]:
    return [
        (workspace / ".openhands" / "hooks.json", "openhands", False),
        (workspace / ".claude" / "settings.json", "claude", True),
        (workspace / ".claude" / "settings.local.json", "claude", True),
    ]


def load_hooks(workspace: Path, *, trust_project: bool = False, trust: ProjectTrust | None = None) -> LoadedHooks:
    """Every hook file of the user and the project; the project's only if trusted."""
    loaded = LoadedHooks()
    seen: set[str] = set()
    for origin, files in (("user", user_hook_files()), ("project", project_hook_files(workspace))):
        for path, dialect, under_key in files:
            real = os.path.realpath(path)
            if real in seen:  # a workspace that is the home folder: its files are the user's
                continue
            seen.add(real)
            source = _load_file(path, dialect, under_key, origin, workspace, loaded.warnings)  # type: ignore[arg-type]
            if source is None:
                continue
            (loaded.waiting if origin == "project" else loaded.sources).append(source)
    if loaded.waiting:
        request = _trust_request(workspace, loaded.waiting)
        if trust_project or (trust or ProjectTrust()).is_trusted(request):
            loaded.sources += loaded.waiting
            loaded.waiting = []
        else:
            loaded.trust_request = request
    return loaded


def code_source(config: HookConfig, label: str, workspace: Path) -> HookSource:
    """Hooks a strategy gives in code (`Agent(hook_config=...)`): the strategy is trusted code."""
    return HookSource(label, "strategy", "openhands", config, scripts=hook_scripts(config, workspace))


def _load_file(
    path: Path, dialect: Dialect, under_key: bool, origin: Origin, workspace: Path, warnings: list[str]
) -> HookSource | None:
    try:
        raw = read_regular(path, 4 << 20)
    except FileNotFoundError:
        return None
    except OSError as exc:
        warnings.append(f"{path}: cannot read it ({exc.strerror or exc}); its hooks are not used")
        return None
    try:
        data = json.loads(raw)
    except (ValueError, RecursionError) as exc:
        warnings.append(f"{path}: not valid JSON ({exc}); its hooks are not used")
        return None
    if not isinstance(data, dict):
        warnings.append(f"{path}: expected a JSON object; its hooks are not used")
        return None
    hooks = data.get("hooks") if under_key or set(data) == {"hooks"} else data
    if hooks is None:
        return None
    if not isinstance(hooks, dict):
        warnings.append(f"{path}: `hooks` must be an object of events; its hooks are not used")
        return None
    config = _valid_parts(path, hooks, warnings)
    if config.is_empty():
        return None
    return HookSource(_label(path, workspace), origin, dialect, config, path, hook_scripts(config, workspace))


def _valid_parts(path: Path, hooks: dict[str, Any], warnings: list[str]) -> HookConfig:
    """The valid matchers of each event; each invalid one is a warning naming where it is."""
    hooks, skipped = without_unsupported_events(hooks)
    if skipped:
        warnings.append(f"{path}: hook events not run by openhands-tui, ignored: {', '.join(sorted(skipped))}")
    by_name = {spec.name: spec.name for spec in EVENTS} | {spec.field: spec.name for spec in EVENTS}
    kept: dict[str, list[HookMatcher]] = {}  # `pre_tool_use` and `PreToolUse` both given: one list
    for key, groups in hooks.items():
        event = by_name.get(key)
        if event is None:
            warnings.append(f"{path}: unknown hook event {key!r}; ignored")
            continue
        if not isinstance(groups, list):
            warnings.append(f"{path}: {key} must be a list of matchers; ignored")
            continue
        for index, group in enumerate(groups):
            try:
                matcher = HookMatcher.model_validate(group)
                if any(h.type is HookType.CALLBACK for h in matcher.hooks):
                    raise UnsupportedArgument("a file cannot hold a Python callback")
            except (ValidationError, UnsupportedArgument) as exc:
                warnings.append(f"{path}: {key}[{index}]: {_first_error(exc)}; ignored")
                continue
            kept.setdefault(event, []).append(matcher)
    return HookConfig.model_validate(kept)


def _first_error(exc: Exception) -> str:
    if isinstance(exc, ValidationError):
        error = exc.errors()[0]
        where = ".".join(str(p) for p in error["loc"])
        return f"{where}: {error['msg']}" if where else str(error["msg"])
    return str(exc)


def _label(path: Path, workspace: Path) -> str:
    try:
        return str(path.relative_to(workspace))
    except ValueError:
        home = str(Path.home())
        text = str(path)
        return "~" + text[len(home) :] if text.startswith(home + os.sep) else text


def hook_scripts(config: HookConfig, workspace: Path) -> dict[str, str]:
    """Workspace files the commands of `config` name (a script, a module run by an interpreter),
    each with the digest of its content now."""
    found: dict[str, str] = {}
    root = os.path.realpath(workspace)
    for spec in EVENTS:
        for matcher in config.matchers(spec.name):
            for hook in matcher.hooks:
                if hook.type is not HookType.COMMAND:
                    continue
                for word in _words(hook.command, root):
                    candidate = os.path.realpath(os.path.join(root, word))
                    if candidate.startswith(root + os.sep) and os.path.isfile(candidate):
                        found[candidate] = file_digest(candidate)
    return found


def paths_to_protect(scripts: list[str], workspace: Path) -> list[str]:
    """What must stay as trusted for the hooks' scripts: each script, and the folder it is in
    (an interpreter loads its neighbours: `python3 hooks/check.py` imports `hooks/util.py`),
    unless that folder is the workspace itself, where the work is."""
    root = os.path.realpath(workspace)
    folders = {os.path.dirname(script) for script in scripts} - {root}
    return sorted(set(scripts) | folders)


def _words(command: str, root: str) -> list[str]:
    for name in _PROJECT_DIR_VARIABLES:
        command = command.replace("${" + name + "}", root).replace("$" + name, root)
    try:
        return [w for w in shlex.split(command) if w and not w.startswith("-")]
    except ValueError:
        return command.split()


def file_digest(path: str) -> str:
    try:
        return hashlib.sha256(read_regular(path, 16 << 20)).hexdigest()
    except OSError:
        return "unreadable"


def _trust_request(workspace: Path, sources: list[HookSource]) -> TrustRequest:
    digest = hashlib.sha256()
    grants: list[str] = []
    for source in sources:
        assert source.path is not None
        digest.update(str(source.path).encode() + b"\0" + read_regular(source.path, 4 << 20) + b"\0")
        for script, script_digest in sorted(source.scripts.items()):
            digest.update(f"{script}\0{script_digest}\0".encode())
        for spec in EVENTS:
            for matcher in source.config.matchers(spec.name):
                where = f" [{matcher.matcher}]" if spec.matches and matcher.matcher not in ("", "*") else ""
                grants += [f"{spec.name}{where}: {hook.label()}" for hook in matcher.hooks]
    files = ", ".join(s.label for s in sources)
    return TrustRequest("hooks", str(workspace), files, digest.hexdigest(), grants)
