"""A plugin folder: one package of a strategy, skills, commands, agents, hooks and MCP servers.

Two layouts are read the same way. A *strategy plugin* (the RFC's "strategy.py + skills/ +
hooks/") has `strategy.py` at its root. A *Claude Code plugin* has `.claude-plugin/plugin.json`
(name, version, description, and optional extra paths for `commands`, `agents`, `hooks`,
`mcpServers`). Either may hold `skills/<name>/SKILL.md`, `commands/*.md`, `agents/*.md`,
`hooks/hooks.json` and `.mcp.json`. Everything a plugin brings is named after it —
`/plugin:command`, the `plugin:skill` skill, the `plugin-server` MCP server — and
`${CLAUDE_PLUGIN_ROOT}` in its files is its folder.

A plugin's hooks and MCP servers are code: they are used only for plugins the user installed
(and so reviewed: `tui plugin add` shows what it holds) or gave as the session's strategy.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from pydantic import ValidationError

from openhands_tui.sdk.context.skill import COMMAND_NAME
from openhands_tui.sdk.errors import OpenHandsTUIError
from openhands_tui.sdk.files.read import read_regular
from openhands_tui.sdk.hooks.config import EVENTS, HookConfig
from openhands_tui.sdk.hooks.sources import HookSource, hook_scripts
from openhands_tui.sdk.mcp_config import MCPServerConfig, parse_servers
from openhands_tui.sdk.model import UnsupportedArgument

MANIFEST = ".claude-plugin/plugin.json"
MARKETPLACE = ".claude-plugin/marketplace.json"
STRATEGY_FILE = "strategy.py"
_NAME = re.compile(COMMAND_NAME)
_ROOT_VARIABLES = ("${CLAUDE_PLUGIN_ROOT}", "$CLAUDE_PLUGIN_ROOT")
MAX_JSON_BYTES = 1 << 20


class PluginError(OpenHandsTUIError):
    """A plugin folder that cannot be used: one line naming it and why."""


@dataclass
class PluginFolder:
    root: Path
    name: str
    description: str = ""
    version: str = ""
    manifest: dict[str, Any] = field(default_factory=dict)
    warnings: list[str] = field(default_factory=list)

    @property
    def strategy_file(self) -> Path | None:
        path = self.root / STRATEGY_FILE
        return path if path.is_file() else None

    def agent_dirs(self) -> list[Path]:
        """Where its agent files are: `agents/` and any the manifest adds."""
        return [p for p in [self.root / "agents", *self._extra_paths("agents")] if p.is_dir()]

    def environment(self) -> dict[str, str]:
        return {"CLAUDE_PLUGIN_ROOT": str(self.root)}

    def hooks(self) -> HookSource | None:
        """Its hooks (`hooks/hooks.json`, or the manifest's `hooks`: a path or the hooks themselves)."""
        declared = self.manifest.get("hooks")
        data: Any = None
        where = self.root / "hooks" / "hooks.json"
        if isinstance(declared, dict):
            data, where = declared, self.root / MANIFEST
        elif isinstance(declared, str):
            where = self._inside(declared)
        if data is None:
            data = self._json(where)
        if not isinstance(data, dict):
            return None
        try:
            config = HookConfig.model_validate(_rooted(data, self.root))
        except (ValidationError, UnsupportedArgument) as exc:
            self.warnings.append(f"{where}: its hooks are not used: {_first_line(exc)}")
            return None
        if config.is_empty():
            return None
        scripts = hook_scripts(config, self.root)
        return HookSource(f"plugin {self.name}", "user", "claude", config, where, scripts, self.environment())

    def mcp_servers(self) -> dict[str, MCPServerConfig]:
        """Its MCP servers (`.mcp.json`, or the manifest's `mcpServers`), named `plugin-server`."""
        declared = self.manifest.get("mcpServers")
        if isinstance(declared, dict):
            data, where = declared, self.root / MANIFEST
            data = data if "mcpServers" in data else {"mcpServers": data}
        else:
            where = self._inside(declared) if isinstance(declared, str) else self.root / ".mcp.json"
            data = self._json(where)
        if data is None:
            return {}
        servers, problems = parse_servers(_rooted(data, self.root), str(where))
        self.warnings += problems
        return {f"{self.name}-{name}": config for name, config in servers.items()}

    def contents(self) -> list[str]:
        """What it holds, one line each: what `tui plugin add` shows before asking for trust."""
        lines: list[str] = []
        if self.strategy_file is not None:
            lines.append(f"strategy: {STRATEGY_FILE} (Python, runs as you when used as --strategy)")
        skills = sorted(p.parent.name for p in (self.root / "skills").glob("*/SKILL.md"))
        commands = sorted(p.stem for p in (self.root / "commands").glob("*.md"))
        agents = sorted(p.stem for d in self.agent_dirs() for p in d.glob("*.md"))
        lines += [f"skill: {self.name}:{name}" for name in skills]
        lines += [f"command: /{self.name}:{name}" for name in commands]
        lines += [f"agent: {self.name}:{name}" for name in agents]
        hooks = self.hooks()
        if hooks is not None:
            for spec in EVENTS:
                for matcher in hooks.config.matchers(spec.name):
                    lines += [f"hook {spec.name}: runs {hook.label()}" for hook in matcher.hooks]
        for name, server in self.mcp_servers().items():
            lines.append(f"MCP server {name}: {server.describe()}")
        return lines

    def _extra_paths(self, key: str) -> list[Path]:
        value = self.manifest.get(key)
        paths = [value] if isinstance(value, str) else value if isinstance(value, list) else []
        return [self._inside(p) for p in paths if isinstance(p, str)]

    def _inside(self, relative: str) -> Path:
        """A path the manifest names, kept inside the plugin (`../../.ssh` is not its to name)."""
        path = (self.root / relative).resolve()
        if path != self.root.resolve() and self.root.resolve() not in path.parents:
            self.warnings.append(f"{self.root / MANIFEST}: {relative!r} is outside the plugin; ignored")
            return self.root / ".outside-ignored"
        return path

    def _json(self, path: Path) -> Any:
        try:
            return json.loads(read_regular(path, MAX_JSON_BYTES))
        except FileNotFoundError:
            return None
        except (OSError, ValueError) as exc:
            self.warnings.append(f"{path}: not used ({getattr(exc, 'strerror', None) or exc})")
            return None


def is_plugin_folder(path: Path) -> bool:
    return path.is_dir() and ((path / STRATEGY_FILE).is_file() or (path / MANIFEST).is_file())


def read_plugin(root: Path, name: str | None = None) -> PluginFolder:
    """The plugin in `root`; its name from the manifest, else `name`, else the folder's name."""
    if not root.is_dir():
        raise PluginError(f"{root}: not a folder")
    manifest: dict[str, Any] = {}
    manifest_file = root / MANIFEST
    if manifest_file.exists():
        try:
            data = json.loads(read_regular(manifest_file, MAX_JSON_BYTES))
        except (OSError, ValueError) as exc:
            raise PluginError(f"{manifest_file}: cannot read it ({getattr(exc, 'strerror', None) or exc})") from None
        if not isinstance(data, dict):
            raise PluginError(f"{manifest_file}: expected a JSON object")
        manifest = data
    chosen = str(manifest.get("name") or name or root.resolve().name)
    if not _NAME.fullmatch(chosen) or ":" in chosen:
        raise PluginError(f"{root}: plugin name {chosen!r} must be one word (letters, digits, - _ .)")
    return PluginFolder(
        root=root.resolve(),
        name=chosen,
        description=str(manifest.get("description") or ""),
        version=str(manifest.get("version") or ""),
        manifest=manifest,
    )


def _rooted(data: Any, root: Path) -> Any:
    """`${CLAUDE_PLUGIN_ROOT}` in every string of `data` made the plugin's folder."""
    if isinstance(data, str):
        for variable in _ROOT_VARIABLES:
            data = data.replace(variable, str(root))
        return data
    if isinstance(data, list):
        return [_rooted(item, root) for item in data]
    if isinstance(data, dict):
        return {key: _rooted(value, root) for key, value in data.items()}
    return data


def _first_line(exc: Exception) -> str:
    if isinstance(exc, ValidationError):
        error = exc.errors()[0]
        return f"{'.'.join(str(p) for p in error['loc'])}: {error['msg']}"
    return str(exc).splitlines()[0]
