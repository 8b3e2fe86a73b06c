"""What a plugin folder holds, read as Claude Code reads it: named after the plugin, rooted at
its folder, never reaching outside it."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from openhands_tui.sdk.plugin import PluginError, read_plugin


def test_a_plugins_mcp_servers_are_named_after_it_and_run_from_its_folder(tmp_path: Path) -> None:
    (tmp_path / ".claude-plugin").mkdir()
    manifest = {"name": "db", "mcpServers": {"query": {"command": "${CLAUDE_PLUGIN_ROOT}/bin/q", "args": ["--x"]}}}
    (tmp_path / ".claude-plugin" / "plugin.json").write_text(json.dumps(manifest))
    servers = read_plugin(tmp_path).mcp_servers()
    assert list(servers) == ["db-query"]
    assert servers["db-query"].command == f"{tmp_path.resolve()}/bin/q" and servers["db-query"].args == ["--x"]


def test_a_manifest_cannot_point_a_plugin_outside_its_folder(tmp_path: Path) -> None:
    plugin = tmp_path / "p"
    (plugin / ".claude-plugin").mkdir(parents=True)
    (tmp_path / "elsewhere").mkdir()
    (tmp_path / "elsewhere" / "hooks.json").write_text(json.dumps({"hooks": {"Stop": [{"hooks": [{"command": "x"}]}]}}))
    (plugin / ".claude-plugin" / "plugin.json").write_text(
        json.dumps({"name": "p", "hooks": "../elsewhere/hooks.json"})
    )
    folder = read_plugin(plugin)
    assert folder.hooks() is None
    assert any("is outside the plugin; ignored" in w for w in folder.warnings)


def test_a_plugin_name_must_be_one_word(tmp_path: Path) -> None:
    (tmp_path / ".claude-plugin").mkdir()
    (tmp_path / ".claude-plugin" / "plugin.json").write_text(json.dumps({"name": "two words"}))
    with pytest.raises(PluginError, match="must be one word"):
        read_plugin(tmp_path)
