"""Themes from the `themes/` directory (shipped in the package as `openhands_tui.themes`)."""

from __future__ import annotations

import tomllib
from importlib import resources
from typing import Any

from textual.app import App
from textual.theme import Theme

from openhands_tui.sdk.terminal_text import one_line

DEFAULT_THEME = "openhands-dark"


def load_themes() -> list[Theme]:
    themes = []
    for item in sorted(resources.files("openhands_tui.themes").iterdir(), key=lambda p: p.name):
        if item.name.endswith(".toml"):
            data = tomllib.loads(item.read_text())
            themes.append(Theme(**data))
    return themes


def theme_names() -> list[str]:
    """Every theme `--theme` and `/theme` accept: ours first, then Textual's built-in ones."""
    from textual.theme import BUILTIN_THEMES

    ours = [theme.name for theme in load_themes()]
    return ours + sorted(name for name in BUILTIN_THEMES if name not in ours)


def apply_initial_theme(app: App[Any], name: str) -> str | None:
    """Register our themes and choose one before the stylesheet is first built: setting
    `app.theme` after mount re-parses all CSS (~40 ms of the first frame). Returns what to
    tell the user when `name` (from `--theme` or the config) is no theme: a typo used to give
    the default without a word."""
    for theme in load_themes():
        app.register_theme(theme)
    unknown = None
    if name not in app.available_themes:
        ours = ", ".join(sorted(t for t in app.available_themes if t.startswith("openhands")))
        unknown = f"theme {one_line(str(name))[:60]!r} is not one of this app's ({ours}, …): using {DEFAULT_THEME}"
        name = DEFAULT_THEME
    app.set_reactive(App.theme, name)
    dark = app.current_theme.dark
    app.set_class(True, f"-theme-{name}", update=False)
    app.set_class(dark, "-dark-mode", update=False)
    app.set_class(not dark, "-light-mode", update=False)
    app._refresh_truecolor_filter(app.ansi_theme)
    app.stylesheet.set_variables(app.get_css_variables())
    return unknown
