"""The app's side of a run: starting one, queueing what is typed meanwhile, answering the
engine's confirmation requests one at a time, and stopping (Esc interrupts, Ctrl+C twice quits).

A base class of the app, so the layout code (app.py) and the run code stay apart.
"""

from __future__ import annotations

import concurrent.futures
import time
from typing import Any

from textual.app import App
from textual.screen import Screen
from textual.widgets import OptionList, Static

from openhands_tui.sdk.confirmation import ConfirmationRequest, Decision
from openhands_tui.tui.bridge import ConfirmationNeeded, EngineBridge, RunEnded
from openhands_tui.tui.commands import SlashCommands
from openhands_tui.tui.config import AppConfig
from openhands_tui.tui.screens.confirm import ConfirmScreen
from openhands_tui.tui.widgets.prompt import Prompt


class RunControl(App[int]):
    def __init__(self, config: AppConfig) -> None:
        super().__init__()
        self.config = config
        self.bridge: EngineBridge | None = None
        self.confirmations: list[tuple[ConfirmationRequest, concurrent.futures.Future[Decision]]] = []
        self.queued: list[str] = []
        self.run_started: float | None = None
        self._last_ctrl_c = 0.0
        self.commands = SlashCommands(self)  # type: ignore[arg-type]

    def _tick(self) -> None:
        """Redraw the working line and the status bar (the app does)."""

    def _update_status(self) -> None:
        """Redraw the status bar (the app does)."""

    # -- runs ------------------------------------------------------------------------------

    def start_run(self, text: str | None, inputs: dict[str, str] | None = None) -> None:
        if self.bridge is None:
            self.notify("This session is read-only.", severity="warning")
            return
        if self.bridge.running:
            self.queue_message(text or "")
            return
        self.run_started = self.config.clock()
        self.bridge.start_run(text, inputs)
        self._tick()

    def queue_message(self, text: str) -> None:
        self.queued.append(text)
        self._show_queue()

    def _show_queue(self) -> None:
        queued = self.query_one("#queued", Static)
        queued.display = bool(self.queued)
        queued.update("\n".join(f"⧗ queued: {text.splitlines()[0][:100]}" for text in self.queued))

    def on_run_ended(self, message: RunEnded) -> None:
        if message.error:
            self.notify(message.error, severity="error", timeout=8)
        self.run_started = None
        self._tick()
        if self.queued:
            next_message = self.queued.pop(0)
            self._show_queue()
            self.start_run(next_message)

    def on_prompt_submitted(self, message: Prompt.Submitted) -> None:
        if message.text.startswith("/") and self.commands.run(message.text):
            return
        self.start_run(message.text)

    # -- confirmations ---------------------------------------------------------------------

    def on_confirmation_needed(self, message: ConfirmationNeeded) -> None:
        self.confirmations.append((message.request, message.answer))
        if len(self.confirmations) == 1:
            self._ask_next()
        elif isinstance(self.screen, ConfirmScreen):
            self.screen.set_queued(len(self.confirmations) - 1)
        self._update_status()

    def _ask_next(self) -> None:
        if not self.confirmations:
            return
        request, answer = self.confirmations[0]

        def answered(decision: Decision | None) -> None:
            self.confirmations.pop(0)
            answer.set_result(decision or Decision(approved=False, reason="dismissed"))
            self._update_status()
            self._ask_next()

        self.push_screen(ConfirmScreen(request, queued=len(self.confirmations) - 1), answered)

    # -- actions ---------------------------------------------------------------------------

    def action_interrupt(self) -> None:
        prompt = self.query_one("#completions", OptionList)
        if prompt.display:
            prompt.display = False
            return
        if self.bridge is not None and self.bridge.running:
            self.bridge.interrupt()
            self.queued.clear()
            self._show_queue()
            self.notify("Interrupted. The session is saved; type to continue.", timeout=4)

    def action_ctrl_c(self) -> None:
        screen: Screen[Any] = self.screen
        if screen.get_selected_text():
            screen.action_copy_text()
            return
        now = time.monotonic()
        if now - self._last_ctrl_c < 2.0:
            self.exit(0)
        else:
            self._last_ctrl_c = now
            self.notify("Press Ctrl+C again to quit.", timeout=2)
