"""What the app is started with, built by the runner, tests and snapshots alike."""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass, field

from textual.message import Message
from textual.notifications import SeverityLevel

from openhands_tui.sdk.errors import OpenHandsTUIError
from openhands_tui.sdk.facts.event import Event
from openhands_tui.tui.attention import Attention
from openhands_tui.tui.bridge import EngineBridge, EventsReady
from openhands_tui.tui.session import LiveSession
from openhands_tui.tui.themes import DEFAULT_THEME


class FirstSession(Message):
    """The first session opened (`session`), or could not be: no model configured yet (both
    None), or `error`. Posted from the worker that opened it."""

    def __init__(self, session: LiveSession | None, error: OpenHandsTUIError | None = None) -> None:
        super().__init__()
        self.session = session
        self.error = error


class Notice(Message):
    """A notice to show, posted from another thread (a future's callback runs in whichever
    thread completes it, or in the app's own if it was already done)."""

    def __init__(self, text: str, severity: SeverityLevel = "information") -> None:
        super().__init__()
        self.text = text
        self.severity: SeverityLevel = severity


@dataclass(frozen=True)
class ModelChoice:
    """A model as the user typed it in the settings screen: its litellm name, and how to reach it."""

    model: str
    api_key: str | None = field(default=None, repr=False)
    base_url: str | None = None


#: Tries a model choice: returns the model's answer to one short request, or raises what the
#: provider said. It blocks while the request runs (the app calls it on a worker thread).
ModelCheck = Callable[[ModelChoice], str]


class ContextWindowKnown(EventsReady):
    def __init__(self, window: int | None) -> None:
        super().__init__()
        self.window = window


@dataclass
class AppConfig:
    """`session` is the live session to attach (None: first run, or a read-only view), `bridge`
    the engine's thread, created before the session so it was launched with the app's confirmer,
    and `relaunch` opens another session (a resume id, or None for a new one) for /new and /resume."""

    session: LiveSession | None = None
    bridge: EngineBridge | None = None
    history: list[Event] = field(default_factory=list)
    #: `history` was recorded by an earlier process, so nobody in it still runs or waits (see
    #: `SessionView.settle`); snapshots that draw live states from canned events turn it off.
    settle_history: bool = True
    task: str | None = None
    inputs: dict[str, str] = field(default_factory=dict)
    theme: str = DEFAULT_THEME
    remember_theme: bool = True
    read_only: bool = False
    demo: bool = False
    title: str = ""
    clock: Callable[[], float] = time.monotonic
    #: Load the model client on a worker once the first frame is drawn (`warm_up`), and look up
    #: the session's context window there.
    preload_litellm: bool = True
    #: The model client's first call made early, offline (given by the launcher: the app never
    #: calls the model client itself; None: nothing to warm).
    warm_up: Callable[[], object] | None = None
    #: The settings screen's "Test connection" (given by the launcher; None: not offered here).
    check_model: ModelCheck | None = None
    relaunch: Callable[[str | None], LiveSession] | None = None
    #: Opens the first session, on a worker thread after the first frame: the engine, the
    #: strategy and the session log load while the user already sees the prompt (None: the
    #: session, if any, is `session`). It may raise ModelNotConfigured (first run: the app asks
    #: for a model) or any OpenHandsTUIError (the app leaves and the error is reported).
    first_session: Callable[[], LiveSession] | None = None
    #: Open the first session as the app mounts, before its first frame: when the engine is
    #: already imported (a `tui warm` child) the session is then ready when the prompt shows.
    #: (Opened on a worker there instead, a task typed at once waited ~0.3 s for it: the launch
    #: took ~0.2 s in the child while the first frames were drawn.)
    open_at_mount: bool = False
    #: How waiting is made visible outside the terminal (`notify`, `notify_when` in the config file).
    attention: Attention = field(default_factory=Attention)


def welcome_text(config: AppConfig) -> str:
    """What the transcript says before anything happened: what this is and how to start."""
    if config.read_only:
        return f"Viewing a stored session ({config.title or 'read-only'}). Select agents in the tree."
    session = config.session
    if session is None and config.first_session is not None:
        return "Starting the session…  (type a task now: it is sent once the session is ready)"
    strategy = f"Strategy [b]{session.strategy_name}[/b]: {session.strategy_description}\n" if session else ""
    where = f"Workspace {session.workspace} · sandbox {session.sandbox}\n" if session else ""
    demo = "[b]DEMO[/b]: a scripted model plays every agent; nothing is sent anywhere.\n" if config.demo else ""
    return (
        f"{demo}{strategy}{where}\nType a task below and press Enter. /help lists commands; "
        "ctrl+p opens the command palette."
    )
