"""The app's sessions: opening the first one after the first frame, attaching it, switching to
another (/new, /resume), asking for a model on the first run, and the user's trust in a
project's files. A part of the app (`OpenHandsApp` derives from it), kept apart so the app's
module is about layout and events; what it uses of the app is declared below.
"""

from __future__ import annotations

import concurrent.futures
from collections.abc import Callable, Iterable
from functools import partial
from typing import TYPE_CHECKING

from openhands_tui.sdk.errors import ModelNotConfigured, OpenHandsTUIError
from openhands_tui.sdk.security.trust import TrustRequest
from openhands_tui.tui.bridge import EngineBridge
from openhands_tui.tui.config import ContextWindowKnown, FirstSession, Notice, welcome_text
from openhands_tui.tui.keys import KeyedApp
from openhands_tui.tui.screens.trust import TrustScreen
from openhands_tui.tui.session import LiveSession
from openhands_tui.tui.state import SessionView
from openhands_tui.tui.widgets.transcript import TranscriptView
from openhands_tui.tui.widgets.tree import AgentTree

if TYPE_CHECKING:
    from openhands_tui.sdk.facts.event import Event


#: What ignoring a project file a trust question was about means, by its kind.
_IGNORED = {
    "permissions": "its rules do not approve anything",
    "mcp": "its servers do not start",
    "hooks": "its hooks do not run",
}


class SessionHost(KeyedApp):
    session: LiveSession | None
    bridge: EngineBridge | None
    starting: bool
    _opening: bool
    needs_model: bool
    launch_error: OpenHandsTUIError | None
    _dirty: set[str]

    if TYPE_CHECKING:  # supplied by OpenHandsApp

        def feed(self, events: Iterable[Event]) -> None: ...

        def start_run(self, text: str | None, inputs: dict[str, str] | None = None) -> None: ...

        @property
        def task_inputs(self) -> dict[str, str]: ...

    def _start_preload(self, delay: float = 0.3) -> None:
        """Warm the model client on a worker (the launcher's `AppConfig.warm_up`: importing litellm
        holds the GIL for seconds): by default once the first frame is surely drawn; at once when
        the app has been up a while (its first session opened)."""
        if delay:
            self.set_timer(delay, partial(self._start_preload, 0))
        else:
            self.run_worker(self._preload, thread=True, exclusive=True, group="preload")

    def _open_first_session(self) -> None:
        """Open the first session on a worker, once (on its timer, or at once for a task typed
        before it fired: the frame the user typed into is drawn)."""
        opener = self.config.first_session
        if opener is None or self._opening:
            return
        self._opening = True

        def work() -> None:  # messages, not calls: the app may have left meanwhile (Ctrl+Q, SIGTERM)
            opened = self._opened(opener)
            log = opened.session.conversation.log if opened.session is not None else None
            if not self.post_message(opened) and log is not None:
                log.close()  # nobody will use it: release the session

        self.run_worker(work, thread=True, group="first-session")

    @staticmethod
    def _opened(opener: Callable[[], LiveSession]) -> FirstSession:
        try:
            return FirstSession(opener())
        except ModelNotConfigured:
            return FirstSession(None)
        except OpenHandsTUIError as exc:
            return FirstSession(None, exc)

    def on_notice(self, message: Notice) -> None:
        self.notify(message.text, severity=message.severity, timeout=8, markup=False)

    def on_first_session(self, message: FirstSession) -> None:
        if message.session is None:
            self._first_session_failed(message.error)
            return
        session = message.session
        self.starting = False
        self.config.first_session = None
        self.feed(session.history)
        if self.config.settle_history:
            self._dirty |= self.view.settle()
        self.attach(session)
        if self.config.preload_litellm:
            self._start_preload(delay=0)  # a task typed now waits for it: start before anything else
        if self.config.task:
            self.start_run(self.config.task, self.task_inputs)
        if self.runs.queued:  # typed while the session was starting
            self.start_run(self.runs.queued.pop(0))
            self.show_queue(self.runs.queued)

    def _first_session_failed(self, error: OpenHandsTUIError | None) -> None:
        """No model yet (None): ask for one. Anything else: leave; `tui` reports it in one line."""
        self.starting = False
        self.config.first_session = None
        if error is None:
            self.needs_model = True
            self.query_one(TranscriptView).welcome = welcome_text(self.config)
            self._ask_for_model()
            return
        self.launch_error = error
        self.exit(error.exit_code)

    def attach(self, session: LiveSession) -> None:
        """Connect a live session (launched with this app's confirmer): its events flow in
        through the bridge, and the engine opens it on its own thread and loop."""
        assert self.bridge is not None, "a live session needs the engine bridge"
        self.session = session
        self.config.session = session
        self.query_one(TranscriptView).welcome = welcome_text(self.config)  # its strategy and workspace
        session.conversation.bus.subscribe(self.bridge.subscriber)
        self.bridge.conversation = session.conversation
        # opened after the first frame, as litellm is loaded: opening starts MCP servers (processes, an import)
        self.set_timer(0.3, partial(self._open_attached, session))
        for request in session.trust_requests:
            self.push_screen(TrustScreen(request), partial(self._trust, session, request))

    def _open_attached(self, session: LiveSession) -> None:
        """Open the engine's side of a session still attached (a rewind may have closed it since)."""
        if self.bridge is not None and self.bridge.conversation is session.conversation:
            self.bridge.submit(session.conversation.open())

    def _trust(self, session: LiveSession, request: TrustRequest, yes: bool | None) -> None:
        if not yes:  # said once, so a project's hooks or servers are not silently missing
            ignored = _IGNORED.get(request.kind, "it is not used")
            self.post_message(Notice(f"Ignored {request.file}: {ignored} in this session.", "warning"))
            return
        if self.bridge is None:
            return
        conversation = session.conversation

        async def trust() -> str | None:  # on the engine's loop, between its steps
            return conversation.trust(request)

        def said(done: concurrent.futures.Future[str | None]) -> None:
            try:
                unsaved = done.result()
            except Exception as exc:  # e.g. the rules it trusts could not be read: said, not lost
                self.post_message(Notice(f"Trust not applied: {exc}", "error"))
                return
            if unsaved is None:
                self.post_message(Notice(f"Trusted {request.file} as it is now."))
            else:
                text = f"Trusted {request.file} for this session only: {unsaved}; you will be asked again."
                self.post_message(Notice(text, "warning"))

        self.bridge.submit(trust()).add_done_callback(said)

    def _ask_for_model(self) -> None:
        from openhands_tui.tui.screens.settings import SettingsScreen

        def configured(llm: object) -> None:
            if llm is None:  # Quit or Esc: leaving is not an error (exit 0, as ctrl+c)
                self.exit(0)
                return
            self.needs_model = False
            self.switch_session(None)
            if self.config.task and self.session is not None:
                self.start_run(self.config.task, self.task_inputs)

        self.push_screen(SettingsScreen(self.config.check_model), configured)

    def switch_session(self, resume: str | None) -> None:
        """Open another session (/new, /resume ID): fresh view, its history, its engine."""
        relaunch = self.config.relaunch
        if relaunch is None or self.bridge is None:
            self.notify("Not available here.", severity="warning")
            return
        if self.starting:
            self.notify("The session is still starting.", severity="warning")
            return
        if self.runs.running:
            self.notify("Interrupt the run first (Esc).", severity="warning")
            return
        try:
            session = relaunch(resume)
        except Exception as exc:  # a bad id or a damaged session: say so, keep the current one
            self.notify(str(exc), severity="error", markup=False)
            return
        if self.bridge.conversation is not None:
            self.bridge.submit(self.bridge.conversation.close())
        self.show_session(session)

    def show_session(self, session: LiveSession, *, announce: bool = True) -> None:
        """Show a session just opened in place of the current one (closed already, or being
        closed): a fresh view, its history, its engine. A rewind reopens the same session here."""
        self.view = SessionView()
        self.shown_agent = "root"
        self.runs.last_duration = None
        self.query_one(TranscriptView).agent_id = None
        self.query_one(AgentTree).forget_agents()  # the previous session's agents go with it
        self.feed(session.history)
        self._dirty |= self.view.settle()
        self.attach(session)
        if announce:
            self.notify(f"Session {session.session_id}", timeout=3)

    def _preload(self) -> None:
        """In the background: the first frame and the first call never wait for it."""
        if self.config.warm_up is not None:
            self.config.warm_up()
        window = self.session.llm.window() if self.session is not None else None
        self.post_message(ContextWindowKnown(window))
