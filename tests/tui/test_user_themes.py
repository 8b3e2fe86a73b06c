"""Themes a user copies into their config folder: theirs beside (or over) the shipped ones, and a
broken file is one line on the screen, never a crash."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from openhands_tui.cli_usage import check_theme
from openhands_tui.tui.app import OpenHandsApp
from openhands_tui.tui.config import AppConfig
from openhands_tui.tui.themes import SHIPPED, load_themes, theme_names
from tests.tui import canned
from tests.tui.conftest import SIZE, wait_until

REPOSITORY_THEMES = Path(__file__).resolve().parents[2] / "themes"


@pytest.fixture
def user_themes(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "config"))
    folder = tmp_path / "config" / "openhands-tui" / "themes"
    folder.mkdir(parents=True)
    return folder


def test_the_shipped_themes_are_the_repositorys_top_level_folder() -> None:
    assert sorted(p.name for p in SHIPPED.glob("*.toml")) == sorted(p.name for p in REPOSITORY_THEMES.glob("*.toml"))
    assert {"openhands-dark", "openhands-light"} <= set(theme_names())


async def test_a_users_copy_of_a_theme_is_offered_and_used(user_themes: Path) -> None:
    text = (REPOSITORY_THEMES / "dark.toml").read_text().replace('"openhands-dark"', '"my-dusk"')
    (user_themes / "dusk.toml").write_text(text.replace("#14161B", "#101820"))
    assert "my-dusk" in theme_names()
    check_theme("my-dusk")  # `--theme my-dusk` is accepted
    app = OpenHandsApp(AppConfig(history=canned.nested(), read_only=True, preload_litellm=False, theme="my-dusk"))
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause(0.1)
        assert app.theme == "my-dusk"
        assert app.current_theme.background == "#101820"


async def test_a_broken_theme_file_is_one_warning_and_the_app_runs(user_themes: Path) -> None:
    (user_themes / "broken.toml").write_text('name = "x"\nprimary = ')
    (user_themes / "wrong.toml").write_text('name = "y"\nno_such_field = 1\n')
    app = OpenHandsApp(AppConfig(history=canned.nested(), read_only=True, preload_litellm=False))
    async with app.run_test(size=SIZE) as pilot:
        await wait_until(pilot, lambda: bool(app._notifications))
        shown = " ".join(n.message for n in app._notifications)
        assert "broken.toml: not a theme" in shown and "wrong.toml: not a theme" in shown
        assert app.theme == "openhands-dark"


def test_a_theme_file_that_is_a_pipe_is_skipped_not_waited_on(user_themes: Path) -> None:
    os.mkfifo(user_themes / "pipe.toml")  # reading it whole would wait for a writer forever
    problems: list[str] = []
    assert "openhands-dark" in [theme.name for theme in load_themes(problems)]
    cause = "cannot read (not a regular file (a pipe, device or socket))"
    assert problems == [f"{user_themes / 'pipe.toml'}: not a theme ({cause}); skipped"]
