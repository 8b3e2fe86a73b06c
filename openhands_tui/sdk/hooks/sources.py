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
import shutil
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Literal

from pydantic import ValidationError

from openhands_tui.sdk.files.read import read_regular
from openhands_tui.sdk.files.xdg import config_base
from openhands_tui.sdk.hooks.config import (
    EVENTS,
    HookConfig,
    HookDefinition,
    HookMatcher,
    HookType,
    without_unsupported_events,
)
from openhands_tui.sdk.hooks.payload import Dialect
from openhands_tui.sdk.model import UnsupportedArgument
from openhands_tui.sdk.security.trust import ProjectTrust, TrustRequest

Origin = Literal["user", "project", "strategy"]
_PROJECT_DIR_VARIABLES = ("CLAUDE_PROJECT_DIR", "OPENHANDS_PROJECT_DIR")
#: Shell syntax after which a command's words no longer say what it runs.
_SHELL_MARKS = (";", "&", "|", "<", ">", "`", "$", "(", ")", "\n")
#: Programs that run what a project's own files say (a Makefile, package.json, tox.ini...).
_PROJECT_RUNNERS = frozenset(
    {
        "make",
        "npm",
        "npx",
        "yarn",
        "pnpm",
        "bun",
        "cargo",
        "go",
        "just",
        "task",
        "tox",
        "nox",
        "pytest",
        "gradle",
        "mvn",
        "rake",
        "bundle",
        "composer",
        "poetry",
        "uv",
        "pre-commit",
        "lefthook",
        "husky",
        "direnv",
        "nix",
    }
)
#: Programs whose next word is the script they run.
_INTERPRETERS = frozenset({"sh", "bash", "zsh", "dash", "python", "python3", "node", "ruby", "perl", "deno", "bun"})


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
    """Workspace paths the commands of `config` name (a script, a module run by an interpreter),
    as written — not resolved, so a link is pinned as a link — each with its state now
    (`script_state`): a path that does not exist yet is pinned as missing."""
    found: dict[str, str] = {}
    root = os.path.realpath(workspace)
    for hook in _command_hooks(config):
        for word in _words(hook.command, root):
            candidate = os.path.normpath(os.path.join(root, word))
            if not candidate.startswith(root + os.sep):
                continue
            if "/" in word or os.path.lexists(candidate):  # `./check.sh`, `tools/x.py`, `hook.sh` that is there
                found[candidate] = script_state(candidate)
    return found


def unpinned(command: str, workspace: Path) -> bool:
    """Whether a command may run project code that no path it names pins: shell operators or
    expansions, `cd`, or a program (`make`, `npm run`) that reads the project's own files."""
    root = os.path.realpath(workspace)
    text = command
    for name in _PROJECT_DIR_VARIABLES:
        text = text.replace("${" + name + "}", root).replace("$" + name, root)
    if any(mark in text for mark in _SHELL_MARKS):
        return True
    words = _words(text, root)
    if not words:
        return True
    first = os.path.normpath(os.path.join(root, words[0]))
    if ("/" in words[0] or os.path.lexists(first)) and first.startswith(root + os.sep):
        return False  # the script itself
    if os.path.basename(words[0]) in _INTERPRETERS and len(words) > 1:
        script = os.path.normpath(os.path.join(root, words[1]))
        return not (script.startswith(root + os.sep) and os.path.isfile(script))
    program = os.path.basename(words[0])
    if program in _PROJECT_RUNNERS:
        return True  # `make lint`, `npm run check`: what runs is the project's own file
    found = words[0] if os.path.isabs(words[0]) else shutil.which(words[0])
    return found is None or os.path.realpath(found).startswith(root + os.sep)  # `echo`, `jq`: the user's


def script_state(path: str) -> str:
    """Where a hook's path leads and what is there: a changed link, content or absence differs."""
    if not os.path.lexists(path):
        return "missing"
    real = os.path.realpath(path)
    return f"{real}\0{file_digest(real) if os.path.isfile(real) else 'not a file'}"


def paths_to_protect(scripts: list[str], workspace: Path) -> list[str]:
    """What must stay as trusted for the hooks' scripts: each path as written and where it
    leads, and the folders they are in (an interpreter loads its neighbours: `python3
    hooks/check.py` imports `hooks/util.py`; a link's folder holds the link), unless that folder
    is the workspace itself, where the work is."""
    root = os.path.realpath(workspace)
    paths = set(scripts) | {os.path.realpath(script) for script in scripts}
    folders = {os.path.dirname(path) for path in paths} - {root}
    return sorted(paths | folders)


def _command_hooks(config: HookConfig) -> list[HookDefinition]:
    return [
        hook
        for spec in EVENTS
        for matcher in config.matchers(spec.name)
        for hook in matcher.hooks
        if hook.type is HookType.COMMAND
    ]


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
                for hook in matcher.hooks:
                    loose = " (runs project code no file pins: trust the whole repository)"
                    grants.append(
                        f"{spec.name}{where}: {hook.label()}{loose if unpinned(hook.command, workspace) else ''}"
                    )
    files = ", ".join(s.label for s in sources)
    return TrustRequest("hooks", str(workspace), files, digest.hexdigest(), grants)
