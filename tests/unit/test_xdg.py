"""A relative XDG base directory is ignored, as the XDG specification says: taken as it was, it
was resolved against the current directory, so the repository `tui` was started in supplied the
user's own config, permission rules, MCP servers and trusted projects."""

from __future__ import annotations

from pathlib import Path

import pytest

from openhands_tui.sdk.facts.store import state_home
from openhands_tui.sdk.mcp_config import user_mcp_file
from openhands_tui.sdk.security.paths import PathJudge
from openhands_tui.sdk.security.permissions import user_rules_file
from openhands_tui.sdk.security.trust import trust_store_file
from openhands_tui.sdk.settings import config_path


def _user_files(workspace: Path) -> list[Path]:
    own = Path(PathJudge(str(workspace)).own_config)
    return [config_path(), user_mcp_file(), trust_store_file(), user_rules_file(), own / "x", state_home()]


@pytest.mark.parametrize("relative", [".config", "rel/dir", "./x"])
def test_a_relative_xdg_directory_is_ignored(
    relative: str, workspace: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    home = tmp_path / "home"
    monkeypatch.setenv("HOME", str(home))
    monkeypatch.setenv("XDG_CONFIG_HOME", relative)
    monkeypatch.setenv("XDG_STATE_HOME", relative)
    monkeypatch.chdir(workspace)
    for path in _user_files(workspace):
        assert path.is_absolute() and path.is_relative_to(home), path
        assert not path.resolve().is_relative_to(workspace.resolve()), path


def test_an_absolute_xdg_directory_is_used(workspace: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    elsewhere = tmp_path / "xdg"
    monkeypatch.setenv("XDG_CONFIG_HOME", str(elsewhere))
    monkeypatch.setenv("XDG_STATE_HOME", str(elsewhere))
    for path in _user_files(workspace):
        assert path.is_relative_to(elsewhere), path
