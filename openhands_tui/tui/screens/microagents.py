"""Microagent screens: what is loaded (and what went wrong), and the form for task inputs."""

from __future__ import annotations

from typing import Any

from rich.table import Table
from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical, VerticalScroll
from textual.markup import escape
from textual.screen import ModalScreen
from textual.widgets import Button, Collapsible, Input, Label, Markdown, Static

from openhands_tui.sdk.facts.event import MicroagentsLoadedEvent, MicroagentTriggeredEvent


class MicroagentsScreen(ModalScreen[None]):
    """Every loaded microagent (type, triggers, source, size) and every load warning; the ones
    that fired in this session, for which agent and on which keyword, open to their content."""

    BINDINGS = [Binding("escape,q", "dismiss", "Close")]

    def __init__(
        self,
        loaded: MicroagentsLoadedEvent | None,
        fired: list[MicroagentTriggeredEvent],
        names: dict[str, str],
    ) -> None:
        super().__init__()
        self.loaded = loaded
        self.fired = fired
        self.names = names

    def compose(self) -> ComposeResult:
        with Vertical(id="microagents-dialog"):
            yield Static(Text("Microagents", style="bold"), id="microagents-title")
            with VerticalScroll():
                if self.fired:
                    yield Static(Text("Injected in this session", style="bold underline"))
                    for event in self.fired:
                        who = self.names.get(event.agent_id, event.agent_id)
                        why = f"keyword '{event.keyword}'" if event.keyword else "always on"
                        title = f"◆ {event.name} → {who} · {why} · +{event.tokens} tokens"
                        yield Collapsible(Markdown(event.content), title=escape(title), collapsed=True)
                yield Static(Text("Loaded", style="bold underline"))
                yield Static(loaded_table(self.loaded.microagents if self.loaded else []), id="microagents-loaded")
                problems = (self.loaded.warnings + self.loaded.shadowed) if self.loaded else []
                if problems:
                    yield Static(Text("Warnings", style="bold underline"))
                    for problem in problems:
                        yield Static(Text(f"⚠ {problem}"), classes="warning")
            yield Button("Close (esc)", id="close")

    def on_button_pressed(self, event: Button.Pressed) -> None:
        self.dismiss(None)


def loaded_table(microagents: list[dict[str, Any]]) -> Table:
    """Name, type, size, then triggers and source in a column of their own: a long trigger list
    wraps inside that column instead of running back under the names."""
    table = Table.grid(padding=(0, 1))
    table.add_column(width=18, no_wrap=True, overflow="ellipsis", style="bold")
    table.add_column(width=9, no_wrap=True)
    table.add_column(justify="right", no_wrap=True)
    table.add_column(ratio=1, overflow="fold")
    for info in microagents:
        triggers = ", ".join(info["triggers"]) if info["type"] != "repo" else "always on"
        if info.get("agent_skill"):  # a rule has no triggers: it is only listed
            triggers = f"{triggers}; listed, read on demand" if triggers else "listed, read on demand"
        what = Text(f"[{triggers}]\n")
        what.append(str(info["source"]), style="dim")
        # Text, not markup: a name is the repository's words, and `[/b]` in it must not break the list
        table.add_row(Text(str(info["name"])), Text(str(info["type"])), f"{info['tokens']} tok", what)
    return table


class TaskInputsScreen(ModalScreen[dict[str, str] | None]):
    """A small form for the `${inputs}` a task microagent needs that were not given."""

    BINDINGS = [Binding("escape", "cancel", "Cancel")]

    def __init__(self, task: str, names: list[str], descriptions: dict[str, str]) -> None:
        super().__init__()
        self.task_name = task
        self.names = names
        self.descriptions = descriptions

    def compose(self) -> ComposeResult:
        with Vertical(id="task-inputs-dialog"):
            yield Static(Text(f"/{self.task_name} needs:", style="bold"))
            for name in self.names:
                about = f" — {self.descriptions[name]}" if self.descriptions.get(name) else ""
                yield Label(Text(name + about))  # a repository's words, not markup
                yield Input(id=f"input-{name}", placeholder=name)
            yield Button("Run (enter)", id="run", variant="primary")

    def on_input_submitted(self, event: Input.Submitted) -> None:
        inputs = self.query(Input).results(Input)
        empty = [i for i in inputs if not i.value.strip()]
        if empty:
            empty[0].focus()
            return
        self._finish()

    def on_button_pressed(self, event: Button.Pressed) -> None:
        self._finish()

    def _finish(self) -> None:
        self.dismiss({name: self.query_one(f"#input-{name}", Input).value for name in self.names})

    def action_cancel(self) -> None:
        self.dismiss(None)
