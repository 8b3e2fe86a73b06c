"""The plan panel: the plan a planning run ended with, to read, edit, and approve or send back.

Approving carries the plan (as edited here) out in the same session, out of plan mode: asking
as the session did (`ctrl+s`), or without asking (`ctrl+n`). `ctrl+r` sends the note back for
a revised plan, still in plan mode. Esc closes the panel and keeps planning (`/plan show`
opens it again). Keys that type nothing, because the plan and the note are typed in.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical
from textual.screen import ModalScreen
from textual.widgets import Button, Input, Static, TextArea

from openhands_tui.sdk.run.confirmation_mode import ConfirmationMode


@dataclass(frozen=True)
class PlanDecision:
    #: approve: carry `plan` out, asking as `mode` says; revise: send `note` back for a new plan.
    action: Literal["approve", "revise"]
    plan: str
    note: str = ""
    mode: ConfirmationMode | None = None


class PlanScreen(ModalScreen[PlanDecision | None]):
    BINDINGS = [
        Binding("ctrl+s", "approve", "Approve"),
        Binding("ctrl+n", "approve_unasked", "Approve, never ask"),
        Binding("ctrl+r", "revise", "Revise with note"),
        Binding("escape", "keep_planning", "Keep planning"),
    ]

    def __init__(self, plan: str, asking: ConfirmationMode) -> None:
        super().__init__()
        self.plan = plan
        #: How approving with ctrl+s asks: the session's mode (risky if it was never).
        self.asking = asking if asking is not ConfirmationMode.NEVER else ConfirmationMode.RISKY

    def compose(self) -> ComposeResult:
        with Vertical(id="plan-dialog"):
            yield Static(Text("The plan — edit it if you like, then approve it or ask for changes", style="bold"))
            yield TextArea(self.plan, id="plan-text", soft_wrap=True)
            yield Input(id="plan-note", placeholder="A note for the agent: what to change (ctrl+r sends it back)")
            with Horizontal(id="plan-buttons"):
                yield Button(f"Approve, ask if {self.asking.value} (ctrl+s)", id="approve", variant="success")
                yield Button("Approve, never ask (ctrl+n)", id="approve_unasked", variant="warning")
                yield Button("Revise with note (ctrl+r)", id="revise", variant="primary")
                yield Button("Keep planning (esc)", id="keep_planning")

    def on_mount(self) -> None:
        self.query_one("#plan-text", TextArea).focus()

    def on_input_submitted(self, event: Input.Submitted) -> None:
        self.action_revise()

    def on_button_pressed(self, event: Button.Pressed) -> None:
        actions = {
            "approve": self.action_approve,
            "approve_unasked": self.action_approve_unasked,
            "revise": self.action_revise,
        }
        actions.get(event.button.id or "", self.action_keep_planning)()

    def _edited(self) -> str:
        return self.query_one("#plan-text", TextArea).text

    def action_approve(self) -> None:
        self.dismiss(PlanDecision("approve", self._edited(), mode=self.asking))

    def action_approve_unasked(self) -> None:
        self.dismiss(PlanDecision("approve", self._edited(), mode=ConfirmationMode.NEVER))

    def action_revise(self) -> None:
        note = self.query_one("#plan-note", Input)
        if not note.value.strip():
            self.notify("Type a note first: what should change in the plan?", severity="warning")
            note.focus()
            return
        self.dismiss(PlanDecision("revise", self._edited(), note=note.value))

    def action_keep_planning(self) -> None:
        self.dismiss(None)
