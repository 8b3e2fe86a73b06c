"""The prompt: multi-line input with history, `/` command and `@` file completion.

Enter sends; Alt+Enter or Ctrl+J starts a new line; Up/Down on the first/last line walk the
history; typing `/` lists the commands (and task microagents) that match, Tab completes;
typing `@` lists the workspace's files that match what follows it, Tab or Enter inserts one.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from typing import overload

from rich.text import Text
from textual import events
from textual.binding import Binding
from textual.message import Message
from textual.widgets import OptionList, TextArea
from textual.widgets.option_list import Option

from openhands_tui.tui.file_picker import matches, mention, typed_mention

#: Ids of file options start with this (command ids are command names, which never do).
FILE = "@"


@dataclass(frozen=True)
class SlashCommand:
    name: str
    help: str


class LiveCommands(Sequence[SlashCommand]):
    """The commands as they are at each use, read from `source`. A repository's own commands
    (`.claude/commands/review.md` as `/review`) are known only once the session has loaded its
    microagents, after the prompt is built, and change with `/new` or `/resume`: a list taken
    when the prompt was built would never show them."""

    def __init__(self, source: Callable[[], list[SlashCommand]]) -> None:
        self._source = source

    @overload
    def __getitem__(self, index: int) -> SlashCommand: ...

    @overload
    def __getitem__(self, index: slice) -> Sequence[SlashCommand]: ...

    def __getitem__(self, index: int | slice) -> SlashCommand | Sequence[SlashCommand]:
        return self._source()[index]

    def __len__(self) -> int:
        return len(self._source())

    def __iter__(self) -> Iterator[SlashCommand]:
        return iter(self._source())


class Prompt(TextArea):
    BINDINGS = [
        Binding("ctrl+j,alt+enter", "newline", "New line", show=False),
    ]

    class Submitted(Message):
        def __init__(self, text: str) -> None:
            super().__init__()
            self.text = text

    def __init__(self, commands: Sequence[SlashCommand], **kwargs: object) -> None:
        super().__init__(soft_wrap=True, show_line_numbers=False, tab_behavior="focus", **kwargs)  # type: ignore[arg-type]
        self.commands = commands
        self.sent: list[str] = []
        self._history_index: int | None = None
        self._completions: OptionList | None = None
        self._files: Callable[[], list[str] | None] = lambda: None

    def attach_completions(self, options: OptionList) -> None:
        self._completions = options

    def attach_files(self, files: Callable[[], list[str] | None]) -> None:
        """Where `@` finds the workspace's files (None: not known yet, or no workspace)."""
        self._files = files

    def action_newline(self) -> None:
        self.insert("\n")

    async def _on_key(self, event: events.Key) -> None:
        completions = self._completions
        showing = completions is not None and completions.display
        if event.key == "enter":
            event.prevent_default()
            event.stop()
            chosen = showing and completions is not None and completions.highlighted is not None
            if chosen and self._accept_completion():
                return  # a file inserted: the message is not finished
            self._submit()
            return
        if event.key == "tab" and showing:
            event.prevent_default()
            event.stop()
            self._accept_completion()
            return
        if event.key in ("up", "down") and showing and completions is not None:
            event.prevent_default()
            event.stop()
            completions.action_cursor_up() if event.key == "up" else completions.action_cursor_down()
            return
        if event.key == "up" and self.cursor_location[0] == 0 and self.sent:
            event.prevent_default()
            event.stop()
            self._walk_history(-1)
            return
        if (
            event.key == "down"
            and self.cursor_location[0] == self.document.line_count - 1
            and self._history_index is not None
        ):
            event.prevent_default()
            event.stop()
            self._walk_history(+1)
            return
        await super()._on_key(event)

    def _submit(self) -> None:
        text = self.text.strip()
        if not text:
            return
        if not self.sent or self.sent[-1] != text:
            self.sent.append(text)
        self._history_index = None
        self.clear()
        self.post_message(self.Submitted(text))

    def _walk_history(self, step: int) -> None:
        index = len(self.sent) if self._history_index is None else self._history_index
        index = max(0, min(len(self.sent), index + step))
        self._history_index = index if index < len(self.sent) else None
        self.load_text(self.sent[index] if index < len(self.sent) else "")
        self.move_cursor(self.document.end)

    def _on_text_area_changed(self, event: TextArea.Changed) -> None:
        self.update_completions()

    def update_completions(self) -> None:
        options = self._completions
        if options is None:
            return
        text = self.text
        if self._offer_files(options):
            return
        if not text.startswith("/") or " " in text or "\n" in text:
            options.display = False
            return
        typed = text[1:].lower()  # `/Review` runs `/review`: commands match in any case
        matches = [c for c in self.commands if c.name.lower().startswith(typed)]  # as loaded now
        options.clear_options()
        # Text, not markup: a task's name and description are a repository's words
        options.add_options([Option(Text.assemble(f"/{c.name}  ", (c.help, "dim")), id=c.name) for c in matches])
        options.display = bool(matches)
        if matches:
            options.highlighted = 0

    def _typed_mention(self) -> tuple[int, str] | None:
        row, column = self.cursor_location
        return typed_mention(self.document.get_line(row)[:column])

    def _offer_files(self, options: OptionList) -> bool:
        """The files matching an `@` being typed, if one is (True: the list is theirs)."""
        typed = self._typed_mention()
        if typed is None:
            return False
        files = self._files()
        found = matches(typed[1], files) if files else []
        options.clear_options()
        # Text, not markup: a file's name is the repository's
        options.add_options([Option(Text(path), id=FILE + path) for path in found])
        options.display = bool(found)
        if found:
            options.highlighted = 0
        return True

    def _accept_completion(self) -> bool:
        """Put the highlighted completion in; True if it was a file (inserted where `@` is typed)."""
        options = self._completions
        if options is None or options.highlighted is None:
            return False
        option = options.get_option_at_index(options.highlighted)
        typed = self._typed_mention()
        if option.id and option.id.startswith(FILE) and typed is not None:
            row, column = self.cursor_location
            self.replace(mention(option.id[len(FILE) :]) + " ", (row, typed[0]), (row, column))
            options.display = False
            return True
        self.load_text(f"/{option.id} " if option.id else self.text)
        self.move_cursor(self.document.end)
        options.display = False
        return False
