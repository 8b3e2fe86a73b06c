"""What the app's keys do, kept apart from how the app follows the engine.

Focus is never a trap: a printable key pressed anywhere on the main screen but the prompt
(the tree, the transcript) goes to the prompt, so nobody tabs their way back to type. Esc
stops the run and hands back what was queued behind it, so nothing typed is lost silently;
with nothing running, Esc twice opens the list of turns to rewind to.
A read-only view has nothing to interrupt and nothing to confirm, so those keys are hidden.
"""

from __future__ import annotations

import time
from collections.abc import Iterable
from typing import TYPE_CHECKING, Any

from textual import events
from textual.app import App, SystemCommand
from textual.binding import Binding
from textual.screen import Screen
from textual.widget import Widget
from textual.widgets import OptionList, Tree

from openhands_tui.tui.commands import SlashCommands
from openhands_tui.tui.config import AppConfig
from openhands_tui.tui.run_control import RunController
from openhands_tui.tui.state import SessionView
from openhands_tui.tui.widgets.prompt import Prompt
from openhands_tui.tui.widgets.transcript import TranscriptView
from openhands_tui.tui.widgets.tree import AgentTree

#: Keys that act on a live run; a read-only view hides them.
LIVE_ONLY = {"interrupt", "cycle_confirm", "cycle_plan"}
#: Columns the transcript keeps at least, beside the tree; the tree's narrowest; its largest share.
READABLE = 50
TREE_MIN = 24
TREE_SHARE = 0.45


class KeyedApp(App[int]):
    """The app's bindings and actions; `OpenHandsApp` supplies the state they act on."""

    BINDINGS = [
        Binding("escape", "interrupt", "Interrupt", show=True),
        Binding("ctrl+c", "ctrl_c", "Quit (twice)", show=False, priority=True),
        # priority: a dialog (a confirmation) would otherwise keep Ctrl+Q from quitting
        Binding("ctrl+q", "quit", "Quit", show=False, priority=True),
        Binding("ctrl+b", "toggle_tree", "Tree"),
        Binding("ctrl+r", "show_root", "Root"),
        Binding("ctrl+f", "toggle_follow", "Follow"),
        Binding("ctrl+o", "microagents", "Microagents"),
        Binding("ctrl+e", "show_more", "Earlier", show=False),
        Binding("f2", "cycle_confirm", "Confirm mode"),
        Binding("ctrl+g", "edit_prompt", "Editor", show=False),
        # priority: the screen's own shift+tab (focus back) would win; in dialogs it is theirs again.
        # Not in the footer (the status bar shows the mode, /help the key): its snapshots stay as they are
        Binding("shift+tab", "cycle_plan", "Plan mode", show=False, priority=True),
    ]

    config: AppConfig
    view: SessionView
    runs: RunController
    commands: SlashCommands
    shown_agent: str
    follow: bool
    _last_ctrl_c: float = 0.0
    _tree_chosen: bool = False

    @property
    def main_screen_ready(self) -> bool:
        """False while starting up or shutting down (engine messages can arrive then)."""
        return bool(self.query("#status"))

    if TYPE_CHECKING:  # supplied by OpenHandsApp

        def refresh_now(self) -> None: ...

        def _schedule_refresh(self) -> None: ...

        def show_queue(self, queued: list[str]) -> None: ...

        def escape_when_idle(self) -> None: ...

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if action == "cycle_plan" and len(self.screen_stack) != 1:
            return False  # a dialog's shift+tab moves its focus back, as usual
        return not (self.config.read_only and action in LIVE_ONLY)  # False: hidden, and does nothing

    def on_key(self, event: events.Key) -> None:
        """Printable text typed outside the prompt (and outside any dialog) goes to the prompt."""
        if len(self.screen_stack) != 1 or not self.main_screen_ready:
            return
        prompt = self.query_one(Prompt)
        if self.focused is prompt or prompt.disabled or not event.is_printable or not event.character:
            return
        bound = self.screen.active_bindings.get(event.key)
        if bound is not None and bound.node not in (self, self.screen):
            return  # the focused widget's own key (Space folds a tree node or a command's output)
        event.stop()
        event.prevent_default()
        prompt.focus()
        prompt.insert(event.character)

    def action_focus_next(self) -> None:
        """Tab on the main screen goes round prompt → tree (when shown) → transcript and its
        entries → prompt: in the screen's own order the prompt came last, so the tree was behind
        every entry of the transcript (seven Tabs in a newcomer's first session)."""
        order = self._tab_order()
        focused = self.focused
        if focused is None or focused not in order:
            super().action_focus_next()
            return
        self.screen.set_focus(order[(order.index(focused) + 1) % len(order)])

    def _tab_order(self) -> list[Widget]:
        if len(self.screen_stack) != 1 or not self.main_screen_ready:
            return []
        prompt, tree = self.query_one(Prompt), self.query_one(AgentTree)
        transcript = self.query_one(TranscriptView)
        shown = [w for w in self.screen.focus_chain if w is transcript or transcript in w.ancestors]
        return [prompt, *([tree] if tree.display else []), *shown]

    def action_edit_prompt(self) -> None:
        """Ctrl+G: the prompt's text in the user's editor, the app suspended meanwhile; what they
        saved comes back into the prompt (see tui/external_editor.py)."""
        from textual.app import SuspendNotSupported

        from openhands_tui.tui.external_editor import EditorProblem, edit_text, editor_command

        prompt = self.query_one(Prompt)
        if len(self.screen_stack) != 1 or prompt.disabled:
            return
        try:
            command = editor_command()
            if self.is_headless:  # no terminal to hand over (tests): the editor runs as it is
                edited = edit_text(prompt.text, command)
            else:
                with self.suspend():
                    edited = edit_text(prompt.text, command)
        except EditorProblem as exc:
            self.notify(str(exc), severity="warning", timeout=6, markup=False)
            return
        except SuspendNotSupported:
            self.notify("This terminal cannot hand over to an editor.", severity="warning", timeout=6)
            return
        prompt.load_text(edited)
        prompt.move_cursor(prompt.document.end)
        prompt.focus()

    def action_interrupt(self) -> None:
        completions = self.query_one("#completions", OptionList)
        if completions.display:
            completions.display = False
            return
        if not self.runs.running:  # Esc Esc with nothing running: rewind (tui/timeline_host.py)
            self.escape_when_idle()
            return
        self.interrupt_run()

    def interrupt_run(self) -> None:
        """Stop the run (Esc, or Esc in a confirmation): what was queued goes back to the prompt."""
        queued = list(self.runs.queued)
        if not self.runs.interrupt():
            return
        if queued:  # back into the prompt, to send (Enter) or change: never sent behind your back
            self.runs.queued.clear()
            self.show_queue([])
            prompt = self.query_one(Prompt)
            prompt.load_text("\n".join(queued) + (f"\n{prompt.text}" if prompt.text.strip() else ""))
            prompt.focus()
            self.notify(
                f"Interrupted. The session is saved; your {len(queued)} queued message(s) are back in the prompt.",
                timeout=5,
            )
        else:
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

    def action_toggle_tree(self) -> None:
        tree = self.query_one(AgentTree)
        tree.display = not tree.display
        self._tree_chosen = True

    def on_resize(self, event: events.Resize) -> None:
        if self.main_screen_ready:
            self.fit_tree(event.size.width)

    def fit_tree(self, width: int | None = None) -> None:
        """The tree as wide as its labels want, within what leaves the transcript readable;
        shown wherever at least TREE_MIN columns are left beside READABLE ones (80x24 included),
        folded away on narrower terminals unless the user chose (ctrl+b brings it back)."""
        width = width if width is not None else self.size.width
        tree = self.query_one(AgentTree)
        room = width - READABLE
        if not self._tree_chosen:
            tree.display = room >= TREE_MIN
        wanted = max(TREE_MIN, min(tree.natural_width, room, int(width * TREE_SHARE)))
        if tree.styles.width is None or tree.styles.width.value != wanted:
            tree.styles.width = wanted

    def action_show_root(self) -> None:
        self.show_agent(self.view.tree.root_id or "root")

    def action_toggle_follow(self) -> None:
        self.follow = not self.follow
        self.notify("Following the active agent." if self.follow else "Stopped following.", timeout=2)
        self._schedule_refresh()

    def action_show_more(self) -> None:
        self.query_one(TranscriptView).show_more(self.view.transcript(self.shown_agent))

    def action_microagents(self) -> None:
        self.commands.run("/microagents")

    def action_cycle_confirm(self) -> None:
        self.commands.run("/confirm")

    def action_cycle_plan(self) -> None:
        self.commands.run("/plan")

    def show_agent(self, agent_id: str) -> None:
        self.shown_agent = agent_id
        self.query_one(AgentTree).select_agent(agent_id)
        self.refresh_now()

    def on_tree_node_selected(self, message: Tree.NodeSelected[str]) -> None:
        if message.node.data:
            self.shown_agent = message.node.data
            self.follow = False
            self.refresh_now()  # the user is waiting: no coalescing delay

    def get_system_commands(self, screen: Screen[Any]) -> Iterable[SystemCommand]:
        yield from super().get_system_commands(screen)
        yield from self.commands.palette()
