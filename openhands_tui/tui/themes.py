"""Themes: the shipped ones from the repository's top-level `themes/` folder (installed inside
the package, as `strategies/` is), then the user's own from `~/.config/openhands-tui/themes/`.
A theme is a TOML file of `textual.theme.Theme`'s fields; a user's file with the name of a
shipped theme replaces it. A user's file that is not a theme is one line at start, never a
crash."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from textual.app import App
from textual.theme import Theme

from openhands_tui.sdk.files.toml_file import TomlFileError, read_toml
from openhands_tui.sdk.files.xdg import config_base
from openhands_tui.sdk.terminal_text import one_line

DEFAULT_THEME = "openhands-dark"
SHIPPED = Path(__file__).resolve().parent.parent / "themes"


def user_themes_folder() -> Path:
    return config_base() / "openhands-tui" / "themes"


def load_themes(problems: list[str] | None = None) -> list[Theme]:
    """Every theme, by name (a user's file overrides a shipped one of the same name); what was
    wrong with a user's file is appended to `problems`."""
    found: dict[str, Theme] = {}
    for folder, shipped in ((SHIPPED, True), (user_themes_folder(), False)):
        try:
            files = sorted(p for p in folder.iterdir() if p.suffix == ".toml")
        except OSError:
            continue
        for path in files:
            try:
                theme = Theme(**read_toml(path))
            except (TomlFileError, TypeError, ValueError) as error:  # unreadable, not TOML, not a Theme's fields
                if shipped:
                    raise
                if problems is not None:
                    cause = error.cause if isinstance(error, TomlFileError) else str(error)
                    problems.append(f"{path}: not a theme ({one_line(cause)[:120]}); skipped")
                continue
            found[theme.name] = theme
    return list(found.values())


def theme_names() -> list[str]:
    """Every theme `--theme` and `/theme` accept: ours first, then Textual's built-in ones."""
    from textual.theme import BUILTIN_THEMES

    ours = [theme.name for theme in load_themes()]
    return ours + sorted(name for name in BUILTIN_THEMES if name not in ours)


def apply_initial_theme(app: App[Any], name: str) -> str | None:
    """Register our themes and choose one before the stylesheet is first built: setting
    `app.theme` after mount re-parses all CSS (~40 ms of the first frame). Returns what to
    tell the user when `name` (from `--theme` or the config) is no theme (a typo used to give
    the default without a word) or a user's theme file is broken."""
    problems: list[str] = []
    for theme in load_themes(problems):
        app.register_theme(theme)
    if name not in app.available_themes:
        ours = ", ".join(sorted(t for t in app.available_themes if t.startswith("openhands")))
        problems.append(
            f"theme {one_line(str(name))[:60]!r} is not one of this app's ({ours}, …): using {DEFAULT_THEME}"
        )
        name = DEFAULT_THEME
    app.set_reactive(App.theme, name)
    dark = app.current_theme.dark
    app.set_class(True, f"-theme-{name}", update=False)
    app.set_class(dark, "-dark-mode", update=False)
    app.set_class(not dark, "-light-mode", update=False)
    app._refresh_truecolor_filter(app.ansi_theme)
    app.stylesheet.set_variables(app.get_css_variables())
    return "\n".join(problems) or None
