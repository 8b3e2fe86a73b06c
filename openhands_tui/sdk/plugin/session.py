"""The plugins one session uses: its strategy plugin (if `--strategy` named a folder) and every
installed plugin that is switched on — and what each brings to the session: skills and
commands, agents, hooks, MCP servers. Two plugins of one name are said once; two that both
define a bare `/command` are said by the microagent loader (sdk/context/command_owners.py)."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

from openhands_tui.sdk.context.plugins import installed_plugin_roots
from openhands_tui.sdk.hooks.sources import HookSource, hook_scripts
from openhands_tui.sdk.mcp_config import MCPServerConfig
from openhands_tui.sdk.plugin.folder import PluginError, PluginFolder, read_plugin
from openhands_tui.sdk.plugin.installed import installed_plugins


@dataclass
class SessionPlugins:
    folders: list[PluginFolder] = field(default_factory=list)
    warnings: list[str] = field(default_factory=list)
    #: Claude Code's installed plugins: their skills and commands are loaded with the user's
    #: (context/plugins.py); their hooks, MCP servers and agents come from here.
    claude_installed: list[PluginFolder] = field(default_factory=list)

    def skill_roots(self) -> list[tuple[Path, str]]:
        """(folder, plugin name) of each plugin, for the microagent loader (`skills/`, `commands/`)."""
        return [(folder.root, folder.name) for folder in self.folders]

    def agent_dirs(self) -> list[tuple[str, Path]]:
        return [(folder.name, path) for folder in self._every() for path in folder.agent_dirs()]

    def hook_sources(self, workspace: Path) -> list[HookSource]:
        """Their hooks; a path a hook names relative to where it runs (the workspace) is pinned
        and protected like the plugin's own scripts."""
        found = [folder.hooks() for folder in self._every()]
        self._collect_warnings()
        sources = [source for source in found if source is not None]
        for source in sources:
            source.scripts.update(hook_scripts(source.config, workspace))
        return sources

    def mcp_servers(self) -> dict[str, MCPServerConfig]:
        servers: dict[str, MCPServerConfig] = {}
        for folder in self._every():
            servers.update({name: config for name, config in folder.mcp_servers().items() if not config.disabled})
        self._collect_warnings()
        return servers

    def _every(self) -> list[PluginFolder]:
        return [*self.folders, *self.claude_installed]

    def _collect_warnings(self) -> None:
        for folder in self._every():
            self.warnings += [w for w in folder.warnings if w not in self.warnings]
            folder.warnings.clear()


def session_plugins(strategy_plugin: PluginFolder | None = None, workspace: Path | None = None) -> SessionPlugins:
    """The strategy's plugin first, then the installed ones that are switched on (ours, and
    Claude Code's for `workspace`)."""
    chosen = SessionPlugins()
    if workspace is not None:
        for root, name in installed_plugin_roots(Path.home(), workspace, chosen.warnings):
            try:
                chosen.claude_installed.append(read_plugin(root, name))
            except PluginError as exc:
                chosen.warnings.append(f"Claude Code plugin {name}: {exc}; its hooks and servers are not used")
    if strategy_plugin is not None:
        chosen.folders.append(strategy_plugin)
    for entry in installed_plugins(chosen.warnings):
        if not entry.enabled:
            continue
        try:
            folder = entry.folder()
        except PluginError as exc:
            chosen.warnings.append(f"installed plugin {entry.name}: {exc}; not used")
            continue
        if any(existing.name == folder.name for existing in chosen.folders):
            chosen.warnings.append(f"plugin {folder.name} from {entry.path}: a plugin of that name is already used")
            continue
        chosen.folders.append(folder)
    return chosen
