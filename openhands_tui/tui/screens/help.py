"""Help, and the list of stored sessions for /resume."""

from __future__ import annotations

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.screen import ModalScreen
from textual.widgets import Markdown, OptionList, Static
from textual.widgets.option_list import Option

from openhands_tui.sdk.errors import SessionError
from openhands_tui.sdk.facts.store import SessionStore
from openhands_tui.sdk.terminal_text import one_line


class HelpScreen(ModalScreen[None]):
    BINDINGS = [Binding("escape,q,f1", "dismiss", "Close")]

    def __init__(self, text: str) -> None:
        super().__init__()
        self.text = text

    def compose(self) -> ComposeResult:
        with Vertical(id="help-dialog"):
            yield Markdown(self.text, open_links=False)  # a topic page links to other pages, not URLs
            yield Static("[dim]Esc closes[/dim]")


class SessionsScreen(ModalScreen[str | None]):
    BINDINGS = [Binding("escape", "dismiss_none", "Close")]

    def compose(self) -> ComposeResult:
        try:
            metas, problem = SessionStore().list_sessions()[:50], ""
        except SessionError as exc:  # a state directory that cannot be read: said, not a crash
            metas, problem = [], str(exc)
        with Vertical(id="sessions-dialog"):
            yield Static("[b]Stored sessions[/b] (newest first) — Enter reopens one")
            if problem:
                yield Static(Text(problem))
            # Text, not markup: a title is a task's words, and `[@click=...]` in it must stay words
            rows = [Text(f"{m.id}  {m.status:<9} {one_line(m.title)[:60]}") for m in metas]
            yield OptionList(*[Option(row, id=m.id) for row, m in zip(rows, metas, strict=True)])

    def on_option_list_option_selected(self, event: OptionList.OptionSelected) -> None:
        self.dismiss(event.option.id)

    def action_dismiss_none(self) -> None:
        self.dismiss(None)
