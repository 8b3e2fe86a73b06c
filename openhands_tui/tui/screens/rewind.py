"""Rewinding from the app (Esc Esc, or /rewind): the session's turns, to go back to before one
of them (or the last rewind, to undo it), then what to restore of that moment.

The screens only choose; the app does the rewind (`tui/timeline_host.py`). Every turn's text is
the user's own, and may hold `[b]` or `[@click=...]`: it is drawn as Text, never as markup.
"""

from __future__ import annotations

from dataclasses import dataclass

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.screen import ModalScreen
from textual.widgets import OptionList, Static
from textual.widgets.option_list import Option

from openhands_tui.sdk.facts.event import RewindEvent
from openhands_tui.sdk.terminal_text import one_line
from openhands_tui.sdk.timeline.history import Turn
from openhands_tui.timeline_lines import turn_row, undo_row

UNDO = "undo"


@dataclass(frozen=True)
class RewindChoice:
    """Go back to before `turn` (None: undo the last rewind, as it was), restoring the files
    (`code`), the conversation, or both."""

    turn: int | None
    code: bool = True
    conversation: bool = True


class RewindScreen(ModalScreen[RewindChoice | None]):
    """The turns, oldest first; the newest is highlighted, so Enter goes back one turn."""

    BINDINGS = [Binding("escape", "dismiss_none", "Close")]

    def __init__(self, turns: list[Turn], undoable: RewindEvent | None) -> None:
        super().__init__()
        self.turns = turns
        self.undoable = undoable

    def compose(self) -> ComposeResult:
        with Vertical(id="rewind-dialog"):
            yield Static(Text.assemble(("Rewind", "bold"), " to before a turn — Enter chooses, Esc closes"))
            if not self.turns:
                yield Static(Text("No turns yet: the conversation has nothing to go back to.", style="dim"))
            options = [Option(Text(undo_row(self.undoable)), id=UNDO)] if self.undoable is not None else []
            options += [Option(Text(turn_row(turn)), id=f"turn-{turn.number}") for turn in self.turns]
            yield OptionList(*options, id="rewind-turns")

    def on_mount(self) -> None:
        turns = self.query_one("#rewind-turns", OptionList)
        turns.highlighted = turns.option_count - 1 if turns.option_count else None
        turns.focus()

    def on_option_list_option_selected(self, event: OptionList.OptionSelected) -> None:
        event.stop()
        if event.option.id == UNDO:
            self.dismiss(RewindChoice(None))
            return
        turn = self.turns[int(str(event.option.id).removeprefix("turn-")) - 1]
        self.app.push_screen(RestoreScreen(turn), self._restore_chosen)

    def _restore_chosen(self, choice: RewindChoice | None) -> None:
        if choice is not None:  # Esc there comes back to the turns
            self.dismiss(choice)

    def action_dismiss_none(self) -> None:
        self.dismiss(None)


#: (id, what it restores, what it means); the files' choices need the turn's checkpoint.
RESTORE = [
    ("both", "Files and conversation", "the files as they were, and the conversation from before the turn"),
    ("conversation", "Conversation only", "the files stay as they are now"),
    ("code", "Files only", "the conversation goes on as it is"),
]


class RestoreScreen(ModalScreen[RewindChoice | None]):
    """What to restore of the moment before a turn: both (Enter), the conversation, the files.
    Without a checkpoint of that turn's files only the conversation can go back, and it says why."""

    BINDINGS = [Binding("escape", "dismiss_none", "Back")]

    def __init__(self, turn: Turn) -> None:
        super().__init__()
        self.turn = turn

    def compose(self) -> ComposeResult:
        turn = self.turn
        with Vertical(id="restore-dialog"):
            yield Static(Text.assemble((f"Rewind to before turn {turn.number}: ", "bold"), one_line(turn.text)[:100]))
            if not turn.tree:
                note = one_line(turn.checkpoint_note) or "no checkpoint of the files was taken"
                yield Static(
                    Text(f"The files cannot be restored ({note}): only the conversation can."), classes="warning"
                )
            files_kept = bool(turn.tree)
            options = [
                Option(
                    Text.assemble((label, "bold"), f" — {meaning}"),
                    id=name,
                    disabled=not files_kept and name != "conversation",
                )
                for name, label, meaning in RESTORE
            ]
            yield OptionList(*options, id="restore-choices")
            yield Static(Text("Esc goes back to the turns", style="dim"))

    def on_mount(self) -> None:
        choices = self.query_one("#restore-choices", OptionList)
        choices.highlighted = 0 if self.turn.tree else 1
        choices.focus()

    def on_option_list_option_selected(self, event: OptionList.OptionSelected) -> None:
        event.stop()
        name = event.option.id
        self.dismiss(RewindChoice(self.turn.number, code=name in ("both", "code"), conversation=name != "code"))

    def action_dismiss_none(self) -> None:
        self.dismiss(None)
