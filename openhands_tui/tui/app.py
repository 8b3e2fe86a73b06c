"""The Textual app: a transcript, the live delegation tree, a prompt, and confirmation prompts.

It only folds engine events into a SessionView and answers confirmation requests; it never
reaches into the engine. Built by `create_app` from explicit inputs, so tests and snapshots
construct it directly (with or without a live engine).
"""

from __future__ import annotations

import asyncio
import contextlib
import signal
from collections.abc import Iterable
from typing import TYPE_CHECKING, Any

from rich.text import Text
from textual import events
from textual.app import App, ComposeResult, SystemCommand
from textual.binding import Binding
from textual.containers import Horizontal, Vertical
from textual.screen import Screen
from textual.widgets import Footer, OptionList, Static, Tree

from openhands_tui.sdk.confirmation import ConfirmationMode
from openhands_tui.sdk.conversation import INTERRUPTED
from openhands_tui.sdk.event import Event
from openhands_tui.tui.bridge import EngineBridge, EventsReady, TUIConfirmer
from openhands_tui.tui.config import AppConfig, ContextWindowKnown
from openhands_tui.tui.idle_gc import IdleCollector
from openhands_tui.tui.run_control import RunControl
from openhands_tui.tui.state import SessionView
from openhands_tui.tui.themes import DEFAULT_THEME, load_themes
from openhands_tui.tui.widgets.prompt import Prompt
from openhands_tui.tui.widgets.status import StatusBar
from openhands_tui.tui.widgets.transcript import TranscriptView
from openhands_tui.tui.widgets.tree import AgentTree, elapsed_text

if TYPE_CHECKING:
    from openhands_tui.launch import Launched

REFRESH_INTERVAL = 1 / 30  # at most ~30 repaints a second, however fast tokens stream


class OpenHandsApp(RunControl):
    CSS_PATH = "app.tcss"
    TITLE = "openhands-tui"
    BINDINGS = [
        Binding("escape", "interrupt", "Interrupt", show=True),
        Binding("ctrl+c", "ctrl_c", "Quit (twice)", show=False, priority=True),
        Binding("ctrl+q", "quit", "Quit", show=False),
        Binding("ctrl+b", "toggle_tree", "Tree"),
        Binding("ctrl+r", "show_root", "Root"),
        Binding("ctrl+f", "toggle_follow", "Follow"),
        Binding("ctrl+o", "microagents", "Microagents"),
        Binding("ctrl+e", "show_more", "Earlier", show=False),
        Binding("f2", "cycle_confirm", "Confirm mode"),
    ]

    def __init__(self, config: AppConfig) -> None:
        super().__init__(config)
        self.view = SessionView()
        self.shown_agent = "root"
        self.follow = False
        self.started = config.clock()
        self.context_window: int | None = None
        self.mode = ConfirmationMode.RISKY
        self._refresh_pending = False
        self._dirty: set[str] = set()
        self._tree_chosen = False
        self.idle_gc = IdleCollector()
        #: First run without a model: ask for one before anything else.
        self.needs_model = False
        for theme in load_themes():
            self.register_theme(theme)
        self._apply_initial_theme()

    # -- layout ----------------------------------------------------------------------------

    def compose(self) -> ComposeResult:
        with Horizontal(id="main"):
            with Vertical(id="left"):
                yield Static("", id="transcript-title")
                yield TranscriptView(id="transcript")
            yield AgentTree(id="tree")
        yield Static("", id="working")
        yield Static("", id="queued")
        yield OptionList(id="completions")
        placeholder = (
            "read-only: viewing a stored session"
            if self.config.read_only
            else "Type a task, / for commands — Enter sends, Alt+Enter new line, Esc interrupts"
        )
        yield Prompt(
            self.commands.slash_commands(),
            id="prompt",
            placeholder=placeholder,
            disabled=self.config.read_only,
        )
        yield StatusBar(id="status")
        yield Footer()

    def _apply_initial_theme(self) -> None:
        """Choose the theme before the stylesheet is first built: setting `theme` after mount
        re-parses all CSS (~40 ms of the first frame)."""
        name = self.config.theme if self.config.theme in self.available_themes else DEFAULT_THEME
        self.set_reactive(App.theme, name)
        dark = self.current_theme.dark
        self.set_class(True, f"-theme-{name}", update=False)
        self.set_class(dark, "-dark-mode", update=False)
        self.set_class(not dark, "-light-mode", update=False)
        self._refresh_truecolor_filter(self.ansi_theme)
        self.stylesheet.set_variables(self.get_css_variables())

    def on_mount(self) -> None:
        self.query_one(TranscriptView).welcome = self._welcome_text()
        prompt = self.query_one(Prompt)
        completions = self.query_one("#completions", OptionList)
        completions.display = False
        prompt.attach_completions(completions)
        self.query_one("#working").display = False
        self.query_one("#queued").display = False
        self.feed(self.config.history)
        launched = self.config.launched
        if launched is not None:
            self.attach(launched)
        if self.config.preload_litellm:
            # after the first frame: importing litellm holds the GIL for seconds
            self.set_timer(0.3, lambda: self.run_worker(self._preload, thread=True, exclusive=True, group="preload"))
        self.idle_gc.start()
        with contextlib.suppress(NotImplementedError, RuntimeError, ValueError):  # not on this platform/thread
            asyncio.get_running_loop().add_signal_handler(signal.SIGTERM, self._terminated)
        self.set_interval(1.0, self._tick)
        prompt.focus()
        if self.needs_model:
            self._ask_for_model()
        if self.config.task and launched is not None:
            self.start_run(self.config.task, self.config.inputs)

    def attach(self, launched: Launched) -> None:
        """Connect a live session: the engine starts on its own thread and loop."""
        if self.bridge is None:
            self.bridge = EngineBridge(self.post_message)
        conversation = launched.conversation
        conversation.runtime.confirmer = TUIConfirmer(self.bridge.post)
        conversation.bus.subscribe(self.bridge.subscriber)
        self.bridge.conversation = conversation
        self.mode = conversation.runtime.policy.mode
        self.bridge.submit(conversation.open())

    def _welcome_text(self) -> str:
        if self.config.read_only:
            return f"Viewing a stored session ({self.config.title or 'read-only'}). Select agents in the tree."
        launched = self.config.launched
        strategy = f"Strategy [b]{launched.strategy.name}[/b]: {launched.strategy.description}\n" if launched else ""
        where = f"Workspace {launched.conversation.runtime.workspace}\n" if launched else ""
        demo = (
            "[b]DEMO[/b]: a scripted model plays every agent; nothing is sent anywhere.\n" if self.config.demo else ""
        )
        return (
            f"{demo}{strategy}{where}\nType a task below and press Enter. /help lists commands; "
            "ctrl+p opens the command palette."
        )

    def _ask_for_model(self) -> None:
        from openhands_tui.tui.screens.settings import SettingsScreen

        def configured(llm: object) -> None:
            if llm is None:
                self.exit(2)
                return
            self.needs_model = False
            self.commands._relaunch(None)
            if self.config.task and self.config.launched is not None:
                self.start_run(self.config.task, self.config.inputs)

        self.push_screen(SettingsScreen(), configured)

    def replace_session(self, launched: Launched) -> None:
        """Switch to another session (/new, /resume): fresh view, its history, its engine."""
        if self.bridge is not None and self.bridge.conversation is not None:
            self.bridge.submit(self.bridge.conversation.close())
        self.config.launched = launched
        self.view = SessionView()
        self.shown_agent = "root"
        self.query_one(TranscriptView).agent_id = None
        self.feed(launched.history)
        self.attach(launched)
        self.notify(f"Session {launched.log.id}", timeout=3)

    def _preload(self) -> None:
        from openhands_tui.sdk.llm import warm_up

        litellm = warm_up()  # in the background: the first frame and the first call never wait for it
        model = self._model()
        try:
            window = litellm.get_model_info(model).get("max_input_tokens")
        except Exception:
            window = None
        self.post_message(ContextWindowKnown(window))

    # -- engine events ---------------------------------------------------------------------

    def feed(self, events: Iterable[Event]) -> None:
        """Fold events in and schedule a redraw (used live, on resume, and by tests)."""
        for event in events:
            changed = self.view.apply(event)
            self._dirty |= changed
            if self.follow and changed and event.kind in ("message", "text_delta", "action", "delegation_opened"):
                self.shown_agent = event.agent_id
        self._schedule_refresh()

    def on_events_ready(self, message: EventsReady) -> None:
        if isinstance(message, ContextWindowKnown):
            self.context_window = message.window
            self._schedule_refresh()
        elif self.bridge is not None:
            self.feed(self.bridge.drain())

    def _schedule_refresh(self) -> None:
        if not self._refresh_pending:
            self._refresh_pending = True
            self.set_timer(REFRESH_INTERVAL, self.refresh_now)

    @property
    def main_screen_ready(self) -> bool:
        """False while starting up or shutting down (engine messages can arrive then)."""
        return bool(self.query("#status"))

    def refresh_now(self) -> None:
        self._refresh_pending = False
        if not self.main_screen_ready:
            return
        transcript = self.query_one(TranscriptView)
        entries = self.view.transcript(self.shown_agent)
        if transcript.agent_id != self.shown_agent:
            transcript.show(self.shown_agent, entries)
        elif self.shown_agent in self._dirty:
            transcript.sync(entries)
        self._dirty.clear()
        self.query_one(AgentTree).sync(self.view.tree)
        self._update_title()
        self._update_status()

    def _update_title(self) -> None:
        node = self.view.tree.nodes.get(self.shown_agent)
        name = self.view.names.get(self.shown_agent, self.shown_agent)
        chain = " → ".join(self.view.tree.chain(self.shown_agent)) if node else name
        title = Text(chain, style="bold")
        if node is not None and node.task:
            title.append(f" — {node.task.splitlines()[0][:100]}", style="italic")
        if self.follow:
            title.append("  (following the active agent)", style="dim")
        self.query_one("#transcript-title", Static).update(title)

    def _update_status(self) -> None:
        if not self.main_screen_ready:
            return
        usage = self.view.usage
        mode = self.view.policy.mode if self.view.policy else self.mode.value
        running = self.bridge is not None and self.bridge.running
        state = "⟳ running" if running else self.view.root_status
        if self.confirmations:
            state = f"? {len(self.confirmations)} waiting for you"
        self.query_one(StatusBar).show(
            model=self._model(),
            mode=mode,
            prompt_tokens=usage.prompt_tokens,
            completion_tokens=usage.completion_tokens,
            cost=usage.cost,
            context_tokens=usage.last_prompt_tokens,
            context_window=self.context_window,
            elapsed=self.config.clock() - self.started,
            state=state,
            demo=self.config.demo,
        )

    def _model(self) -> str:
        if self.config.launched is not None:
            return self.config.launched.agent.llm.model
        return next(iter(self.view.models.values()), "")

    async def on_event(self, event: events.Event) -> None:
        if isinstance(event, events.Key | events.MouseDown | events.Paste):
            self.idle_gc.touched()
        await super().on_event(event)

    def _tick(self) -> None:
        self.idle_gc.tick()
        if not self.main_screen_ready:
            return
        working = self.query_one("#working", Static)
        running = self.bridge is not None and self.bridge.running
        working.display = running
        if running and self.run_started is not None:
            working.update(f"⟳ working… (Esc to interrupt)  {elapsed_text(self.config.clock() - self.run_started)}")
        self._update_status()

    def action_toggle_tree(self) -> None:
        tree = self.query_one(AgentTree)
        tree.display = not tree.display
        self._tree_chosen = True

    def on_resize(self, event: events.Resize) -> None:
        """On narrow terminals the tree folds away (ctrl+b brings it back)."""
        if not self._tree_chosen and self.main_screen_ready:
            self.query_one(AgentTree).display = event.size.width >= 100

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

    def watch_theme(self, theme: str) -> None:
        if self.config.remember_theme and theme != self.config.theme:
            self.config.theme = theme
            from openhands_tui.sdk.settings import save_config

            save_config({"theme": theme})

    def _terminated(self) -> None:
        """SIGTERM: like Esc then quit. Unmounting interrupts the run and closes the session."""
        self.exit(INTERRUPTED)

    def on_unmount(self) -> None:
        self.idle_gc.stop()
        with contextlib.suppress(NotImplementedError, RuntimeError, ValueError):
            asyncio.get_running_loop().remove_signal_handler(signal.SIGTERM)
        if self.bridge is not None:
            self.bridge.close()


def create_app(config: AppConfig) -> OpenHandsApp:
    return OpenHandsApp(config)
