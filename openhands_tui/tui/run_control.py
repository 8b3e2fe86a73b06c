"""The app's side of a run: starting one, queueing what is typed meanwhile, and answering the
engine's confirmation requests one at a time.

A controller the app owns. The requests waiting for an answer are the session view's
`pending` (folded from the events, like every fact the app shows); the controller only keeps,
for each of them, the channel its answer goes back through.
"""

from __future__ import annotations

import concurrent.futures
from collections.abc import Callable
from typing import Any, Protocol

from textual.screen import Screen

from openhands_tui.sdk.run.confirmation import ConfirmationRequest, Decision
from openhands_tui.tui.bridge import ConfirmationNeeded, EngineBridge, RunDone
from openhands_tui.tui.screens.confirm import ConfirmScreen, is_interrupt
from openhands_tui.tui.state import SessionView


class RunHost(Protocol):
    """What the controller needs from the app."""

    view: SessionView

    def notify(
        self, message: str, *, severity: Any = "information", timeout: float | None = None, markup: bool = True
    ) -> None: ...

    def push_screen(self, screen: Screen[Any], callback: Callable[[Any], None] | None = None) -> Any: ...

    def show_queue(self, queued: list[str]) -> None: ...

    def run_state_changed(self) -> None: ...

    def interrupt_run(self) -> None: ...


class RunController:
    def __init__(self, host: RunHost, bridge: EngineBridge | None, clock: Callable[[], float]) -> None:
        self.host = host
        self.bridge = bridge
        self.clock = clock
        self.queued: list[str] = []
        self.started: float | None = None
        #: How long the last run took, once it ended (the status bar's clock stops there).
        self.last_duration: float | None = None
        #: Where each waiting request's answer goes, by the id of the action it is about.
        self.answers: dict[str, concurrent.futures.Future[Decision]] = {}
        self._requests: dict[str, ConfirmationRequest] = {}
        self._asking: str | None = None

    @property
    def running(self) -> bool:
        return self.bridge is not None and self.bridge.running

    def elapsed(self, view: SessionView) -> float:
        """The status bar's clock: this run's time while it runs, then the last run's time
        (stopped); before any run here (a resumed or viewed session), the session's own."""
        if self.running and self.started is not None:
            return self.clock() - self.started
        if self.last_duration is not None:
            return self.last_duration
        root = view.tree.nodes.get(view.tree.root_id or "")
        return root.elapsed_s if root is not None else 0.0

    @property
    def waiting(self) -> int:
        """How many confirmation requests wait for the user."""
        return len(self.answers)

    # -- runs ------------------------------------------------------------------------------

    def start(self, text: str | None, inputs: dict[str, str] | None = None) -> None:
        if self.bridge is None or self.bridge.conversation is None:
            self.host.notify("This session is read-only.", severity="warning")
            return
        if self.bridge.running:
            self.queue(text or "")
            return
        self.started = self.clock()
        self.bridge.start_run(text, inputs)
        self.host.run_state_changed()

    def queue(self, text: str) -> None:
        self.queued.append(text)
        self.host.show_queue(self.queued)

    def done(self, message: RunDone) -> None:
        if message.error:
            self.host.notify(
                message.error, severity="error", timeout=8, markup=False
            )  # a provider's or a crash's words
        if self.started is not None:
            self.last_duration = self.clock() - self.started
        self.started = None
        self.host.run_state_changed()
        if self.queued:
            next_message = self.queued.pop(0)
            self.host.show_queue(self.queued)
            self.start(next_message)

    def interrupt(self) -> bool:
        """Stop the running task; every question still waiting is answered no, so no dialog
        pops up for a run that is over. False if nothing ran."""
        if self.bridge is None or not self.bridge.running:
            return False
        self.bridge.interrupt()  # first: the cancel reaches the engine before any answer does
        for answer in self.answers.values():
            if not answer.done():
                answer.set_result(Decision(approved=False, reason="interrupted"))
        self.answers.clear()
        self._requests.clear()
        self._asking = None
        if isinstance(self.host.screen, ConfirmScreen):  # type: ignore[attr-defined]
            self.host.screen.dismiss(None)  # type: ignore[attr-defined]
        return True

    # -- confirmations ---------------------------------------------------------------------

    def confirmation_needed(self, message: ConfirmationNeeded) -> None:
        self.answers[message.request.action_id] = message.answer
        self._requests[message.request.action_id] = message.request
        if self._asking is None:
            self._ask_next()
        elif isinstance(self.host.screen, ConfirmScreen):  # type: ignore[attr-defined]
            self.host.screen.set_queued(self.waiting - 1)  # type: ignore[attr-defined]
        self.host.run_state_changed()

    def _ask_next(self) -> None:
        # in the order the events asked them; the message's own copy only if the view lost it
        waiting = [r for r in self.host.view.pending.values() if r.action_id in self.answers]
        request = waiting[0] if waiting else next(iter(self._requests.values()), None)
        if request is None:
            self._asking = None
            return
        self._asking = request.action_id

        def answered(decision: Decision | None) -> None:
            if is_interrupt(decision):  # Esc: stop the run; this question is answered on the way
                self.host.interrupt_run()
                self.host.run_state_changed()
                return
            answer = self.answers.pop(request.action_id, None)
            self._requests.pop(request.action_id, None)
            if answer is not None and not answer.done():
                answer.set_result(decision or Decision(approved=False, reason="dismissed"))
            self.host.run_state_changed()
            self._ask_next()

        self.host.push_screen(ConfirmScreen(request, queued=self.waiting - 1), answered)
