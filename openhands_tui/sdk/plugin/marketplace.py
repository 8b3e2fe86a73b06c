"""Claude Code's plugin marketplaces: `.claude-plugin/marketplace.json`, a list of plugins by
name, each with where it is — a folder of the marketplace (`"./plugins/x"`), a GitHub
repository (`{"source": "github", "repo": "owner/name"}`) or any git URL
(`{"source": "url", "url": "..."}`)."""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from openhands_tui.sdk.files.read import read_regular
from openhands_tui.sdk.plugin.folder import MARKETPLACE, MAX_JSON_BYTES, PluginError


@dataclass(frozen=True)
class Listed:
    """One plugin a marketplace lists: a folder inside it, or a git URL (and a ref)."""

    name: str
    description: str = ""
    folder: Path | None = None
    git_url: str | None = None
    ref: str | None = None


def is_marketplace(root: Path) -> bool:
    return (root / MARKETPLACE).is_file()


def read_marketplace(root: Path) -> list[Listed]:
    path = root / MARKETPLACE
    try:
        data = json.loads(read_regular(path, MAX_JSON_BYTES))
    except (OSError, ValueError) as exc:
        raise PluginError(f"{path}: cannot read it ({getattr(exc, 'strerror', None) or exc})") from None
    plugins = data.get("plugins") if isinstance(data, dict) else None
    if not isinstance(plugins, list):
        raise PluginError(f"{path}: expected a `plugins` list")
    base = data.get("metadata", {}).get("pluginRoot") if isinstance(data.get("metadata"), dict) else None
    listed = [_entry(root, base, item, path) for item in plugins]
    return [entry for entry in listed if entry is not None]


def _entry(root: Path, base: Any, item: Any, path: Path) -> Listed | None:
    if not isinstance(item, dict) or not isinstance(item.get("name"), str):
        return None
    name, description = item["name"], str(item.get("description") or "")
    source = item.get("source")
    if isinstance(source, str):
        if "://" in source:
            return Listed(name, description, git_url=_remote(source, name, path))
        folder = (root / (base if isinstance(base, str) else ".") / source).resolve()
        if folder != root.resolve() and root.resolve() not in folder.parents:
            raise PluginError(f"{path}: plugin {name}: {source!r} is outside the marketplace")
        return Listed(name, description, folder=folder)
    if isinstance(source, dict):
        kind, ref = source.get("source"), source.get("ref") or source.get("sha")
        ref = ref if isinstance(ref, str) else None
        if kind == "github" and isinstance(source.get("repo"), str):
            return Listed(name, description, git_url=f"https://github.com/{source['repo']}.git", ref=ref)
        if kind in ("url", "git") and isinstance(source.get("url"), str):
            return Listed(name, description, git_url=_remote(source["url"], name, path), ref=ref)
    raise PluginError(f"{path}: plugin {name}: a source this version cannot fetch: {json.dumps(source)[:100]}")


def _remote(url: str, name: str, path: Path) -> str:
    """A marketplace's git source must be remote: a local path or `file://` would install
    whatever lies elsewhere on this machine (its folder entries stay inside the marketplace)."""
    if not url.startswith(("https://", "http://", "ssh://", "git://", "git@")):
        raise PluginError(f"{path}: plugin {name}: {url!r} is not a remote git URL")
    return url
