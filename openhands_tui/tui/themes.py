"""Themes from the `themes/` directory (shipped in the package as `openhands_tui.themes`)."""

from __future__ import annotations

import tomllib
from importlib import resources

from textual.theme import Theme

DEFAULT_THEME = "openhands-dark"


def load_themes() -> list[Theme]:
    themes = []
    for item in sorted(resources.files("openhands_tui.themes").iterdir(), key=lambda p: p.name):
        if item.name.endswith(".toml"):
            data = tomllib.loads(item.read_text())
            themes.append(Theme(**data))
    return themes
