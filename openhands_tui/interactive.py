"""Starting the app from command-line choices: a live session, a resumed one, the demo,
first-run settings, or a read-only view of a stored session.

The engine bridge is created first, so every session — the first one, and those `/new` and
`/resume` open later — is launched with the app's real confirmer; nothing is swapped in later.
"""

from __future__ import annotations

import contextlib
import os
import sys
from collections.abc import Iterator
from dataclasses import replace
from typing import TYPE_CHECKING

from openhands_tui import startup
from openhands_tui.demo import resume_hint
from openhands_tui.sdk.errors import SettingsError
from openhands_tui.sdk.facts.store import SessionStore
from openhands_tui.sdk.settings import load_config
from openhands_tui.sdk.timeline.history import effective_history
from openhands_tui.tui.app import OpenHandsApp
from openhands_tui.tui.attention import Attention
from openhands_tui.tui.bridge import EngineBridge, TUIConfirmer
from openhands_tui.tui.config import AppConfig, ModelChoice
from openhands_tui.tui.session import LiveSession
from openhands_tui.tui.themes import DEFAULT_THEME

if TYPE_CHECKING:
    from openhands_tui.launch import Launched
    from openhands_tui.launch_options import LaunchOptions


def _theme(flag: str | None) -> str:
    return flag or str(load_config().get("theme", DEFAULT_THEME))


def _attention() -> Attention:
    config = load_config()
    return Attention.from_config(config.get("notify", "bell"), config.get("notify_when", "unfocused"))


def live_session(launched: Launched) -> LiveSession:
    return LiveSession(
        conversation=launched.conversation,
        session_id=launched.log.id,
        strategy_name=launched.strategy.name,
        strategy_description=launched.strategy.description,
        workspace=launched.workspace,
        llm=launched.conversation.current_model(),  # a /model switch shows in the status bar
        history=launched.history,
        inputs=launched.inputs,
        trust_requests=launched.trust_requests,
        sandbox=launched.sandbox,
    )


def check_model(choice: ModelChoice) -> str:
    """The settings screen's "Test connection": the app is handed this, it never calls the
    model client itself."""
    from openhands_tui.sdk.llm.check import check_connection  # the client: off the first frame's path

    return check_connection(choice.model, choice.api_key, choice.base_url)


def warm_up_model_client() -> None:
    """litellm imported and its first call made offline, on the app's background thread."""
    from openhands_tui.sdk.llm.warmup import warm_up

    warm_up()


def build_app(
    options: LaunchOptions,
    *,
    theme: str | None = None,
    demo: bool = False,
    preload_litellm: bool = True,
    remember_theme: bool = True,
    open_at_mount: bool = False,
) -> OpenHandsApp:
    """The app for a live session (or, without a model configured, the first-run settings).
    The session itself is opened by the app after its first frame (`AppConfig.first_session`):
    the prompt shows before the engine and the strategy load."""
    bridge = EngineBridge()
    confirmer = TUIConfirmer(bridge)

    def open_session(resume: str | None, task: str | None, fork: bool = False) -> LiveSession:
        from openhands_tui.launch import launch  # the engine: loaded off the first frame's path

        chosen = replace(options, resume=resume, task=task, fork=fork, fork_at=options.fork_at if fork else None)
        return live_session(launch(chosen, confirmer=confirmer))

    config = AppConfig(
        bridge=bridge,
        task=options.task,
        theme=_theme(theme),
        remember_theme=remember_theme,
        demo=demo,
        preload_litellm=preload_litellm,
        warm_up=warm_up_model_client,
        check_model=check_model,
        relaunch=lambda resume: open_session(resume, None),
        # only the first session is the fork `--fork` asked for: /resume, /new and a rewind's
        # reopening open the session they name (a fork of it each time was a new session each time)
        first_session=lambda: open_session(options.resume, options.task, options.fork),
        open_at_mount=open_at_mount,
        attention=_attention(),
    )
    return OpenHandsApp(config)


def run_app(options: LaunchOptions, *, theme: str | None = None, demo: bool = False) -> int:
    """Run the interactive app; returns the process exit code. On the way out, one line says
    how to come back to the session (for a demo session: with `--demo`)."""
    app = build_app(options, theme=theme, demo=demo, open_at_mount=startup.engine_preloaded)
    with drawing_on_the_terminal():
        result = app.run()
    if app.launch_error is not None:  # the session could not be opened: one line, after the app left
        raise app.launch_error
    if app.session is not None:
        hint = resume_hint(app.session.session_id, app.session.llm.model)
        print(f"session {app.session.session_id} (resume with: {hint})", file=sys.stderr)
    elif app.needs_model:  # left the first-run dialog
        print("tui: no model configured yet: run tui again, or set LLM_MODEL (see tui --help)", file=sys.stderr)
    return result if isinstance(result, int) else (app.return_code or 0)  # a crash of the app is 1, not 0


def view_session(session: str, theme: str | None = None) -> int:
    """Browse a stored session read-only: its transcripts and tree, no engine."""
    log = SessionStore().open(session)
    loaded = log.load(repair=False)  # it may be running: a line being written is not cut off
    if not (sys.stdin.isatty() and sys.stdout.isatty()):  # the viewer would wait for keys no one can press
        raise SettingsError(f"view {session}: the viewer needs a terminal (standard input or output is not one)")
    config = AppConfig(
        history=effective_history(loaded.events),
        read_only=True,
        theme=_theme(theme),
        preload_litellm=False,
        title=f"viewing {log.id}",
    )
    viewer = OpenHandsApp(config)
    with drawing_on_the_terminal():
        result = viewer.run()
    return result if isinstance(result, int) else (viewer.return_code or 0)


@contextlib.contextmanager
def drawing_on_the_terminal() -> Iterator[None]:
    """Textual draws on standard error: `tui 2>log` (to a file, a pipe, /dev/null) left the
    terminal blank while the app waited for keys nobody could see to press. The app runs only
    when standard output is the terminal, so while it runs it draws there; standard error is
    put back afterwards, and what is printed once the app has left (how to resume, a launch
    error) goes where the user sent it."""
    if os.isatty(2) or not os.isatty(1):
        yield
        return
    sys.stderr.flush()
    saved = os.dup(2)
    os.dup2(1, 2)
    try:
        yield
    finally:
        with contextlib.suppress(OSError, ValueError):
            sys.stderr.flush()
        os.dup2(saved, 2)
        os.close(saved)
