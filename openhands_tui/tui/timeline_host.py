"""Rewind and fork in the app: Esc Esc or /rewind go back to before a turn, /fork [TURN]
continues a copy of the session in a new one. A part of the app (`OpenHandsApp` derives from
it), beside `SessionHost`, whose switching between sessions it uses.

A rewind works on the session's log, as `tui rewind` does (`sdk/timeline/rewind.py`), never on a
live conversation: the app closes the conversation (which releases the session's lock), rewinds
with the log locked, and opens the same session again, so what the app continues from is exactly
what a later `--resume` rebuilds. All of it waits on a worker thread (closing stops the shell and
MCP servers, restoring runs git, opening loads the strategy); a task typed meanwhile is queued
as while the first session opens. The session is reopened whatever happened, so it stays usable.
"""

from __future__ import annotations

import concurrent.futures
import time
from typing import TYPE_CHECKING

from textual.message import Message

from openhands_tui.sdk.errors import OpenHandsTUIError
from openhands_tui.sdk.facts.store import SessionStore
from openhands_tui.sdk.timeline.fork import fork_session
from openhands_tui.sdk.timeline.history import effective_history, last_rewind, turns
from openhands_tui.sdk.timeline.rewind import RewindDone, rewind, undo_rewind
from openhands_tui.timeline_lines import rewind_line
from openhands_tui.tui.screens.rewind import RewindChoice, RewindScreen
from openhands_tui.tui.session import LiveSession
from openhands_tui.tui.session_host import SessionHost

if TYPE_CHECKING:
    from openhands_tui.sdk.facts.store import SessionLog
    from openhands_tui.sdk.timeline.shadow_repo import ShadowRepo

#: Seconds between two Esc presses (nothing running) that open the rewind list.
DOUBLE_ESCAPE = 1.0
#: Seconds the engine is given to close the conversation before the rewind goes on regardless.
CLOSE_TIMEOUT = 30.0


class SessionReopened(Message):
    """The session came back after a rewind (`session`; None: it could not be opened again,
    `reopen_error` says why), with what the rewind did (`done`) or why it did not (`problem`)."""

    def __init__(
        self, session: LiveSession | None, done: RewindDone | None, problem: str = "", reopen_error: str = ""
    ) -> None:
        super().__init__()
        self.session = session
        self.done = done
        self.problem = problem
        self.reopen_error = reopen_error


class TimelineHost(SessionHost):
    _last_escape: float = 0.0

    def escape_when_idle(self) -> None:
        """Esc with nothing running: the first says how to rewind, a second within a second opens
        the list (the first Esc of a run still interrupts it: see `KeyedApp.action_interrupt`)."""
        if self.session is None or self.config.read_only or self.starting:
            return
        now = time.monotonic()
        if now - self._last_escape < DOUBLE_ESCAPE:
            self._last_escape = 0.0
            self.open_rewind()
        else:
            self._last_escape = now
            self.notify("Esc again to rewind", timeout=DOUBLE_ESCAPE + 0.5)

    def _timeline_refusal(self) -> str:
        """Why the session cannot be rewound or forked now ("" if it can)."""
        if self.bridge is None or self.config.relaunch is None:
            return "Not available here."
        if self.starting:
            return "The session is still starting."
        if self.runs.running:
            return "Interrupt the run first (Esc)."
        if self.session is None or self.session.conversation.log is None:
            return "No session to go back in yet."
        return ""

    def _live_log(self) -> SessionLog | None:
        refusal = self._timeline_refusal()
        if refusal:
            self.notify(refusal, severity="warning")
            return None
        assert self.session is not None
        return self.session.conversation.log

    # -- rewind ----------------------------------------------------------------------------

    def open_rewind(self) -> None:
        """The list of turns to go back to (and the last rewind, to undo it)."""
        log = self._live_log()
        if log is None:
            return
        try:  # only read: the log is the live session's own, not repaired under it
            history = effective_history(log.load(repair=False).events)
        except OpenHandsTUIError as exc:
            self.notify(str(exc), severity="error", markup=False)
            return
        found, undoable = turns(history), last_rewind(history)
        if not found and undoable is None:
            self.notify("Nothing to rewind yet: the session has no turns.", severity="warning")
            return
        self.push_screen(RewindScreen(found, undoable), self._rewind_chosen)

    def _rewind_chosen(self, choice: RewindChoice | None) -> None:
        if choice is not None:
            self.rewind_session(choice)

    def rewind_session(self, choice: RewindChoice) -> None:
        """Close the conversation, rewind its log, open the session again (on a worker)."""
        log = self._live_log()
        if log is None:
            return
        assert self.session is not None and self.bridge is not None and self.config.relaunch is not None
        conversation = self.session.conversation
        repo = conversation.checkpoints
        closed = self.bridge.submit(conversation.aclose())
        self.bridge.conversation = None  # nothing starts on it while it closes
        self.starting = True  # tasks typed meanwhile wait for the reopened session
        relaunch, session_id = self.config.relaunch, self.session.session_id

        def work() -> None:  # messages, not calls: the app may have left meanwhile
            done, problem = _rewind_closed(closed, log, repo, choice)
            try:
                session = relaunch(session_id)
            except Exception as exc:
                self.post_message(SessionReopened(None, done, problem, str(exc)))
                return
            if not self.post_message(SessionReopened(session, done, problem)) and session.conversation.log:
                session.conversation.log.close()  # nobody will use it: release the session

        self.notify("Rewinding…", timeout=2)
        self.run_worker(work, thread=True, group="rewind")

    def on_session_reopened(self, message: SessionReopened) -> None:
        self.starting = False
        problem = f"Not rewound: {message.problem}" if message.problem else ""
        if message.session is None:
            self.session = self.config.session = None
            said = f"{problem}. " if problem else ""
            self.notify(f"{said}The session could not be opened again: {message.reopen_error}", severity="error")
            return
        self.show_session(message.session, announce=False)
        if problem:
            self.notify(problem, severity="error", timeout=8, markup=False)
        elif message.done is not None:
            self.notify(rewind_line(message.done.event), timeout=6, markup=False)
        if self.runs.queued:  # typed while it was rewinding
            self.start_run(self.runs.queued.pop(0))
            self.show_queue(self.runs.queued)

    # -- fork ------------------------------------------------------------------------------

    def fork_current(self, at_turn: int | None) -> None:
        """A new session with this one's history (up to before `at_turn`), continued in the app;
        this one stays as it was (it is only read, so it need not be closed first)."""
        log = self._live_log()
        if log is None:
            return
        try:
            store = SessionStore(log.directory.parent.parent)
            fork = fork_session(store, log, log.load(repair=False).events, at_turn)
        except OpenHandsTUIError as exc:  # "--at 5: session X has turns 1 to 2", said as typed
            self.notify(str(exc).replace("--at ", "/fork ", 1), severity="error", markup=False)
            return
        origin = log.id
        self.switch_session(fork.id)
        if self.session is not None and self.session.session_id == fork.id:
            self.notify(f"Forked session {origin} into {fork.id}; the original is unchanged.", timeout=6)


def _rewind_closed(
    closed: concurrent.futures.Future[object], log: SessionLog, repo: ShadowRepo | None, choice: RewindChoice
) -> tuple[RewindDone | None, str]:
    """Once the conversation has closed: the rewind, with the log locked (and released again);
    what it did, or why not in one line."""
    try:
        closed.result(timeout=CLOSE_TIMEOUT)
    except Exception:  # it closed badly or slowly: the log is released all the same, below
        log.close()
    try:
        log.lock()
        try:
            if choice.turn is None:
                return undo_rewind(log, repo), ""
            return rewind(log, repo, choice.turn, code=choice.code, conversation=choice.conversation), ""
        finally:
            log.close()
    except OpenHandsTUIError as exc:
        return None, str(exc).replace("(--conversation)", "(Conversation only)")
    except Exception as exc:  # git, the disk: said, and the session reopened regardless
        return None, f"{type(exc).__name__}: {exc}"
