"""The transcript of one agent: a scrolling column of entry widgets, capped in number.

Only the most recent `MAX_MOUNTED` entries are mounted (older ones are a key press away),
so a long session costs the same to draw as a short one. Updates are applied in batches by
the app, at most ~30 times a second, however fast tokens arrive.
"""

from __future__ import annotations

from rich.text import Text
from textual.containers import VerticalScroll
from textual.widgets import Static

from openhands_tui.tui.state import Entry, SessionView
from openhands_tui.tui.widgets.entries import EntryWidget, widget_for

MAX_MOUNTED = 50


class TranscriptTitle(Static):
    """Whose transcript this is: the agent chain from the root, and the agent's task (cut with
    an ellipsis at the edge; hovering shows the whole task)."""

    def show(self, view: SessionView, agent_id: str, following: bool) -> None:
        node = view.tree.nodes.get(agent_id)
        chain = " → ".join(view.tree.chain(agent_id)) if node else view.names.get(agent_id, agent_id)
        title = Text(chain, style="bold", no_wrap=True, overflow="ellipsis")
        if following:
            title.append("  (following the active agent)", style="dim")
        if node is not None and node.task:
            title.append(f" — {node.task.splitlines()[0]}", style="italic")
        self.tooltip = node.task if node is not None and node.task else None
        self.update(title)


class TranscriptView(VerticalScroll):
    can_focus = True

    def __init__(self, **kwargs: object) -> None:
        super().__init__(**kwargs)  # type: ignore[arg-type]
        self.agent_id: str | None = None
        self.limit = MAX_MOUNTED
        self._welcome_text = ""
        self._widgets: dict[int, EntryWidget] = {}
        self._hidden_note: Static | None = None
        self._welcome: Static | None = None

    @property
    def welcome(self) -> str:
        return self._welcome_text

    @welcome.setter
    def welcome(self, text: str) -> None:
        """What an empty transcript says; changed once the session is ready ("Starting the
        session…" becomes its strategy and workspace), so a welcome already drawn is redrawn."""
        self._welcome_text = text
        if self._welcome is not None:
            self._welcome.update(text)

    def show(self, agent_id: str, entries: list[Entry]) -> None:
        """Switch to another agent's transcript (or redraw from scratch)."""
        self.agent_id = agent_id
        self.limit = MAX_MOUNTED
        self.remove_children()
        self._widgets.clear()
        self._hidden_note = None
        self._welcome = None
        self.sync(entries)
        self.anchor()  # follow new output until the user scrolls up; scrolling back down re-anchors

    def show_more(self, entries: list[Entry]) -> None:
        self.limit += MAX_MOUNTED
        assert self.agent_id is not None
        self.show_keep_limit(entries)

    def show_keep_limit(self, entries: list[Entry]) -> None:
        limit = self.limit
        self.remove_children()
        self._widgets.clear()
        self._hidden_note = None
        self._welcome = None
        self.limit = limit
        self.sync(entries)

    def sync(self, entries: list[Entry]) -> None:
        """Mount new entries, refresh changed ones, drop the oldest past the cap."""
        visible = entries[-self.limit :]
        hidden = len(entries) - len(visible)
        self._show_welcome(not entries)
        keep = {entry.key for entry in visible}
        for key in [k for k in self._widgets if k not in keep]:
            self._widgets.pop(key).remove()
        shown = set(self._widgets)
        new = [widget_for(e) for e in visible if e.key not in shown]
        at_end: list[EntryWidget] = []
        positions = {e.key: i for i, e in enumerate(visible)} if shown and new else {}
        for widget in new:
            self._widgets[widget.entry.key] = widget
            # An entry placed above one already shown (thinking above streamed text) goes there.
            start = positions.get(widget.entry.key, len(visible)) + 1
            following = next((e.key for e in visible[start:] if e.key in shown), None)
            if following is not None:
                self.mount(widget, before=self._widgets[following])
            else:
                at_end.append(widget)
        if at_end:
            self.mount_all(at_end)
        for entry in visible:
            current = self._widgets.get(entry.key)
            if current is not None and current not in new:
                current.refresh_entry()
        self._update_hidden_note(hidden)

    def _show_welcome(self, empty: bool) -> None:
        if empty and self.welcome and self._welcome is None:
            self._welcome = Static(self.welcome, classes="welcome")
            self.mount(self._welcome)
        elif not empty and self._welcome is not None:
            self._welcome.remove()
            self._welcome = None

    def _update_hidden_note(self, hidden: int) -> None:
        if hidden and self._hidden_note is None:
            self._hidden_note = Static(classes="hidden-note")
            self.mount(self._hidden_note, before=0)
        if self._hidden_note is not None:
            self._hidden_note.update(f"… {hidden} earlier entries (ctrl+e shows more)" if hidden else "")
