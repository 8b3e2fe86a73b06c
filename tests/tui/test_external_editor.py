"""Ctrl+G opens the prompt's text in the user's `$EDITOR` (a private temporary file) and puts
what they saved back in the prompt; a missing editor is one notice, the prompt left as it was."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

from openhands_tui.tui.app import OpenHandsApp
from openhands_tui.tui.config import AppConfig
from openhands_tui.tui.external_editor import EditorProblem, editor_command
from openhands_tui.tui.widgets.prompt import Prompt
from tests.tui.conftest import SIZE, wait_until
from tests.tui.drawn import drawn_in, drawn_notices

#: The "editor": appends a line saying what it was given and the file's mode.
EDITOR = """\
import os, stat, sys
path = sys.argv[1]
with open(path) as file:
    text = file.read()
mode = oct(stat.S_IMODE(os.stat(path).st_mode))
with open(path, "w") as file:
    file.write(f"{text} edited (mode {mode})\\nsecond line\\n")
"""


def _editor(tmp_path: Path) -> Path:
    script = tmp_path / "editor.py"
    script.write_text(EDITOR)
    return script


def _app() -> OpenHandsApp:
    return OpenHandsApp(AppConfig(preload_litellm=False, remember_theme=False))


async def test_ctrl_g_edits_the_prompt_in_the_users_editor(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("VISUAL", raising=False)
    monkeypatch.setenv("EDITOR", f"{sys.executable} {_editor(tmp_path)}")
    app = _app()
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press(*"draft")
        await pilot.press("ctrl+g")
        prompt = app.query_one(Prompt)
        await wait_until(pilot, lambda: "second line" in drawn_in(app, prompt), timeout=20)
        assert "draft edited (mode 0o600)" in drawn_in(app, prompt)
        assert prompt.text == "draft edited (mode 0o600)\nsecond line"  # the editor's last newline off


async def test_a_missing_editor_is_one_notice_and_the_prompt_stays(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("VISUAL", raising=False)
    monkeypatch.setenv("EDITOR", "/nonexistent/editor --wait")
    app = _app()
    async with app.run_test(size=SIZE, notifications=True) as pilot:
        await pilot.press(*"draft", "ctrl+g")
        await wait_until(pilot, lambda: any("could not start" in n for n in drawn_notices(app)), timeout=20)
        assert any("'/nonexistent/editor' could not start" in notice for notice in drawn_notices(app))
        assert app.query_one(Prompt).text == "draft"


def test_visual_wins_over_editor_and_without_either_nano_or_vi(monkeypatch: pytest.MonkeyPatch) -> None:
    assert editor_command({"VISUAL": "code --wait", "EDITOR": "vim"}) == ["code", "--wait"]
    assert editor_command({"EDITOR": "vim"}) == ["vim"]
    monkeypatch.setattr("shutil.which", lambda name: "/usr/bin/vi" if name == "vi" else None)
    assert editor_command({}) == ["vi"]
    monkeypatch.setattr("shutil.which", lambda name: None)
    with pytest.raises(EditorProblem, match="set \\$EDITOR"):
        editor_command({})
