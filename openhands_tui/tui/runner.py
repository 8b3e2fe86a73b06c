"""Starting the app from command-line choices: a live session, a resumed one, the demo,
first-run settings, or a read-only view of a stored session."""

from __future__ import annotations

from dataclasses import replace

from openhands_tui.launch import Launched, LaunchOptions, launch
from openhands_tui.sdk.errors import SettingsError
from openhands_tui.sdk.settings import load_config
from openhands_tui.sdk.store import SessionStore
from openhands_tui.tui.app import OpenHandsApp
from openhands_tui.tui.bridge import TUIConfirmer
from openhands_tui.tui.config import AppConfig
from openhands_tui.tui.themes import DEFAULT_THEME


def _theme(flag: str | None) -> str:
    return flag or str(load_config().get("theme", DEFAULT_THEME))


def _launcher(options: LaunchOptions):
    def relaunch(resume: str | None) -> Launched:
        # the app installs its own confirmer when it attaches the session
        return launch(replace(options, resume=resume, task=None), confirmer=TUIConfirmer(lambda m: None))

    return relaunch


def run_app(options: LaunchOptions, *, theme: str | None = None, demo: bool = False) -> int:
    """Run the interactive app; returns the process exit code."""
    relaunch = _launcher(options)
    config = AppConfig(theme=_theme(theme), demo=demo, task=options.task, relaunch=relaunch)
    try:
        launched = launch(replace(options), confirmer=TUIConfirmer(lambda m: None))
    except SettingsError as exc:
        if "no model configured" not in str(exc):
            raise
        launched = None  # first run: the app asks for a model, then starts the session
    if launched is not None:
        config.launched = launched
        config.history = launched.history
        config.inputs = launched.inputs
    app = OpenHandsApp(config)
    if launched is None:
        app.needs_model = True
    result = app.run()
    return result if isinstance(result, int) else 0


def view_session(session: str, theme: str | None = None) -> int:
    """Browse a stored session read-only: its transcripts and tree, no engine."""
    log = SessionStore().open(session)
    loaded = log.load()
    config = AppConfig(
        history=loaded.events, read_only=True, theme=_theme(theme), preload_litellm=False, title=f"viewing {log.id}"
    )
    result = OpenHandsApp(config).run()
    return result if isinstance(result, int) else 0
