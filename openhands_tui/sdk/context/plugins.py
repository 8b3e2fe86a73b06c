"""The Claude Code plugins the user installed (`/plugin install superpowers@...`): their skills and
commands, as Claude Code offers them.

Claude Code keeps what is installed in `~/.claude/plugins/installed_plugins.json` (each plugin's
`installPath`, under `~/.claude/plugins/`, and its `scope`: the user's everywhere, a project's
only in that project) and what is switched off in `enabledPlugins` of `~/.claude/settings.json`
(a project's `.claude/settings.json` may switch one on or off for itself). A plugin's skills
(`skills/<name>/SKILL.md`) and commands (`commands/<name>.md`) are named after the plugin,
`superpowers:brainstorming`, and run as `/superpowers:brainstorm`; `/brainstorm` works too
when nothing nearer has the name. `${CLAUDE_PLUGIN_ROOT}` in them is the plugin's folder.

Scope, on purpose: only installed plugins, whose files lie in the user's home under
`~/.claude/plugins/` (read-only to every command in the sandbox). A plugin repository opened
as the workspace (`.claude-plugin/plugin.json` with `skills/`, `commands/`) is not read: its
`skills/` and `commands/` are ordinary folders that commands may write, and whatever the loader
reads reaches every later session's prompt. Its agents (`agents/*.md`), hooks and MCP servers
are not loaded either. An installed plugin's hooks, MCP servers and agents are the session's
too (`installed_plugin_roots`; sdk/plugin/session.py), as Claude Code runs them.
"""

from __future__ import annotations

import json
import os
import re
from pathlib import Path
from typing import Any

from openhands_tui.sdk.context.arguments import CLAUDE
from openhands_tui.sdk.context.commands import CommandFolder, command_folder
from openhands_tui.sdk.context.skill import COMMAND_NAME, Skill
from openhands_tui.sdk.context.skill_dirs import load_directory
from openhands_tui.sdk.files.read import read_regular

PLUGINS_DIR = ".claude/plugins"
INSTALLED = f"{PLUGINS_DIR}/installed_plugins.json"
MAX_JSON_BYTES = 1024 * 1024
MAX_PLUGINS = 100
_PLUGIN_ROOT = "${CLAUDE_PLUGIN_ROOT}"
_PLUGIN_NAME = re.compile(COMMAND_NAME)


def installed_plugins(home: Path, workspace: Path, warnings: list[str]) -> list[Skill]:
    """The skills and commands of every plugin installed for the user, or for `workspace`, and
    not switched off."""
    skills: list[Skill] = []
    for root, name in installed_plugin_roots(home, workspace, warnings):
        skills += plugin_skills(root, name, warnings)
    return skills


def installed_plugin_roots(home: Path, workspace: Path, warnings: list[str]) -> list[tuple[Path, str]]:
    """(folder, name) of every Claude Code plugin installed for the user, or for `workspace`, and
    not switched off: the session also takes their hooks, MCP servers and agents, as Claude Code does."""
    installed = _json(home / INSTALLED, warnings)
    plugins = installed.get("plugins") if isinstance(installed, dict) else None
    if not isinstance(plugins, dict):
        return []
    switched = _enabled(home / ".claude/settings.json", warnings)
    for name in (".claude/settings.json", ".claude/settings.local.json"):
        for key, on in _enabled(workspace / name, warnings).items():
            if not on:  # a project may switch a plugin off for itself, never on: its hooks would run unasked
                switched[key] = False
            elif switched.get(key) is False:
                warnings.append(f"{workspace / name}: switches on plugin {key}, which you switched off; it stays off")
    allowed = os.path.realpath(home / PLUGINS_DIR)
    roots: list[tuple[Path, str]] = []
    for key, entries in list(plugins.items())[:MAX_PLUGINS]:
        if switched.get(key) is False:
            continue
        path = _install_path(entries, workspace)
        if path is None:
            continue
        real = os.path.realpath(path)
        if not real.startswith(allowed + os.sep):
            warnings.append(f"{home / INSTALLED}: plugin {key} skipped, it is not installed under ~/{PLUGINS_DIR}")
            continue
        roots.append((Path(real), str(key).split("@")[0]))
    return roots


def plugin_skills(root: Path, plugin: str, warnings: list[str]) -> list[Skill]:
    """One plugin's skills and commands, named `plugin:name`."""
    if not _PLUGIN_NAME.fullmatch(plugin):
        warnings.append(f"{root}: plugin name {plugin!r} skipped, it is no single word")
        return []
    folder = str(root)
    found: list[Skill] = []
    for skill in load_directory(root / "skills", "user", warnings, skills_dir=True):
        if Path(skill.source).name.lower() != "skill.md":
            continue
        name = f"{plugin}:{skill.name}"
        triggers = [*skill.triggers, *([f"/{name}"] if skill.commands() else [])]
        renamed = skill.model_copy(update={"name": name, "triggers": triggers, "content": _rooted(skill, folder)})
        found.append(renamed)
    commands = CommandFolder("commands", ".md", CLAUDE, prefix=f"{plugin}:")
    for command in command_folder(root, commands, "user", warnings):
        plain = command.name.split(":", 1)[1]
        update = {"triggers": [*command.triggers, f"/{plain}"], "content": _rooted(command, folder)}
        found.append(command.model_copy(update=update))
    return found


def _rooted(skill: Skill, folder: str) -> str:
    return skill.content.replace(_PLUGIN_ROOT, folder).replace("$CLAUDE_PLUGIN_ROOT", folder)


def _install_path(entries: Any, workspace: Path) -> str | None:
    """The folder of the plugin's install that applies here: the user's, or the workspace's own
    (`scope: project` or `local` with its `projectPath`). Version 1 of the file has one entry."""
    here = os.path.realpath(workspace)
    for entry in entries if isinstance(entries, list) else [entries]:
        if not isinstance(entry, dict) or not isinstance(entry.get("installPath"), str):
            continue
        scope = entry.get("scope", "user")
        project = entry.get("projectPath")
        if scope == "user" or (isinstance(project, str) and os.path.realpath(project) == here):
            return str(entry["installPath"])
    return None


def _enabled(path: Path, warnings: list[str]) -> dict[str, bool]:
    settings = _json(path, warnings)
    switched = settings.get("enabledPlugins") if isinstance(settings, dict) else None
    if not isinstance(switched, dict):
        return {}
    return {str(key): value for key, value in switched.items() if isinstance(value, bool)}


def _json(path: Path, warnings: list[str]) -> Any:
    try:
        return json.loads(read_regular(path, MAX_JSON_BYTES))
    except FileNotFoundError:
        return None
    except (OSError, ValueError) as exc:
        warnings.append(f"{path}: skipped, unreadable ({getattr(exc, 'strerror', None) or exc})")
        return None
