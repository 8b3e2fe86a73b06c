"""Plugins: a strategy with its skills, commands, agents, hooks and MCP servers in one folder;
Claude Code's plugins and marketplaces read the same way; installed with `tui plugin add`."""

from openhands_tui.sdk.plugin.folder import PluginError, PluginFolder, is_plugin_folder, read_plugin
from openhands_tui.sdk.plugin.session import SessionPlugins, session_plugins

__all__ = ["PluginError", "PluginFolder", "SessionPlugins", "is_plugin_folder", "read_plugin", "session_plugins"]
