"""The Textual app: a transcript, the live delegation tree, a prompt, and confirmation prompts.

It only folds engine events into a SessionView and answers confirmation requests; it never
reaches into the engine: what it shows comes from the event stream, what it asks for goes
through the bridge. Built from an explicit `AppConfig`, so tests and snapshots construct it
directly (with or without a live engine). What the keys do is `KeyedApp`'s (tui/keys.py).
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import signal
import threading
import time
from collections.abc import Callable, Iterable
from functools import partial

from textual import events
from textual.app import ComposeResult
from textual.containers import Horizontal, Vertical
from textual.content import Content
from textual.notifications import SeverityLevel
from textual.widgets import Footer, OptionList, Static

from openhands_tui.sdk.errors import OpenHandsTUIError
from openhands_tui.sdk.facts.event import Event, MCPServerStatus, MicroagentsLoadedEvent
from openhands_tui.sdk.mcp_host import ElicitationAnswer
from openhands_tui.sdk.run.confirmation import ConfirmationMode
from openhands_tui.sdk.run.outcome import INTERRUPTED
from openhands_tui.sdk.run.plan_mode import approved_task, revision_task
from openhands_tui.sdk.terminal_text import one_line, strip_controls
from openhands_tui.tui.bridge import ConfirmationNeeded, ElicitationNeeded, EventsReady, RunDone
from openhands_tui.tui.commands import SlashCommands
from openhands_tui.tui.config import AppConfig, ContextWindowKnown, welcome_text
from openhands_tui.tui.file_picker import FileIndex
from openhands_tui.tui.idle_gc import IdleCollector
from openhands_tui.tui.load_notice import load_problems_notice
from openhands_tui.tui.run_control import RunController
from openhands_tui.tui.screens.plan import PlanDecision, PlanScreen
from openhands_tui.tui.session import LiveSession
from openhands_tui.tui.session_control import SessionControl
from openhands_tui.tui.state import SessionView
from openhands_tui.tui.terminal_modes import give_back, saved_line_settings
from openhands_tui.tui.themes import apply_initial_theme
from openhands_tui.tui.timeline_host import TimelineHost
from openhands_tui.tui.widgets.prompt import Prompt
from openhands_tui.tui.widgets.status import StatusBar
from openhands_tui.tui.widgets.transcript import TranscriptTitle, TranscriptView
from openhands_tui.tui.widgets.tree import AgentTree, elapsed_text

REFRESH_INTERVAL = 1 / 30  # at most ~30 repaints a second, however fast tokens stream
#: Seconds after mounting before the first session is opened on a worker: its imports hold the
#: GIL, and Textual's first frames are still being drawn for ~0.1 s after mounting (opening it
#: at 0.1 s, or right after the first refresh, delayed the first frame by 40-70 ms, idle).
OPEN_AFTER = 0.2


class OpenHandsApp(TimelineHost):
    CSS_PATH = "app.tcss"
    TITLE = "openhands-tui"

    def __init__(self, config: AppConfig) -> None:
        super().__init__()
        self.config = config
        self.session: LiveSession | None = None
        self.bridge = None if config.read_only else config.bridge
        self.view = SessionView()
        self.runs = RunController(self, self.bridge, config.clock)
        self.commands = SlashCommands(self)
        self.control = SessionControl(self)
        self.shown_agent = "root"
        self.follow = False
        self.context_window: int | None = None
        self._last_ctrl_c = 0.0
        self._refresh_pending = False
        self._dirty: set[str] = set()
        self._tree_chosen = False
        self.idle_gc = IdleCollector()
        #: The terminal's line settings before Textual makes it raw: put back on SIGHUP.
        self._line_settings = saved_line_settings()
        #: First run without a model: ask for one before anything else.
        self.needs_model = False
        #: The first session is being opened (`AppConfig.first_session`): tasks typed wait.
        self.starting = False
        self._opening = False
        #: Why the first session could not be opened: `tui` reports it once the app has left.
        self.launch_error: OpenHandsTUIError | None = None
        self._theme_problem = apply_initial_theme(self, config.theme)

    def notify(
        self,
        message: str,
        *,
        title: str = "",
        severity: SeverityLevel = "information",
        timeout: float | None = None,
        markup: bool = True,
    ) -> None:
        """Every notice, whatever it quotes (a provider's error, a project's file name, a crash),
        reaches the terminal as text: Textual writes a notice's characters as they are, so an
        escape sequence in one would have set the window title, the clipboard or the colours."""
        super().notify(
            strip_controls(message), title=strip_controls(title), severity=severity, timeout=timeout, markup=markup
        )

    # -- layout ----------------------------------------------------------------------------

    def compose(self) -> ComposeResult:
        with Horizontal(id="main"):
            with Vertical(id="left"):
                yield TranscriptTitle("", id="transcript-title")
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

    def on_mount(self) -> None:
        self.query_one(TranscriptView).welcome = welcome_text(self.config)
        if self._theme_problem is not None:
            self.notify(self._theme_problem, severity="warning", timeout=8, markup=False)
        if self.config.attention.problem is not None:
            self.notify(self.config.attention.problem, severity="warning", timeout=8, markup=False)
        prompt = self.query_one(Prompt)
        completions = self.query_one("#completions", OptionList)
        completions.display = False
        prompt.attach_completions(completions)
        self.file_index = FileIndex(self._read_files, partial(self._files_read, prompt))
        prompt.attach_files(self._workspace_files)
        self.query_one("#working").display = False
        self.query_one("#queued").display = False
        if self.bridge is not None:
            self.bridge.connect(self.post_message)
        self.feed(self.config.history)
        if self.config.settle_history:
            self._dirty |= self.view.settle()
        if self.config.session is not None:
            self.attach(self.config.session)
        if self.config.first_session is not None:
            self.starting = True
            if self.config.open_at_mount:  # before the first frame, on this thread
                self._opening = True
                self.on_first_session(self._opened(self.config.first_session))
            else:
                self.set_timer(OPEN_AFTER, self._open_first_session)
        elif self.config.preload_litellm:
            self._start_preload()
        self.idle_gc.start()
        with contextlib.suppress(NotImplementedError, RuntimeError, ValueError):  # not on this platform/thread
            loop = asyncio.get_running_loop()
            loop.add_signal_handler(signal.SIGTERM, self._terminated)  # `kill`
            loop.add_signal_handler(signal.SIGHUP, self._hung_up)  # a closed terminal, a dropped SSH link
        self.set_interval(1.0, self._tick)
        prompt.focus()
        if self.needs_model:
            self._ask_for_model()
        if self.config.task and self.session is not None:
            self.start_run(self.config.task, self.task_inputs)

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
            batch = self.bridge.drain()
            self.feed(batch)
            self._announce_load_problems(batch)
            if any(e.kind == "model_changed" and e.parent_agent_id is None for e in batch):
                self.run_worker(self._look_up_window, thread=True, group="window")  # the root's new model's

    def _announce_load_problems(self, batch: Iterable[Event]) -> None:
        """A live session's root microagents that failed to load, said once as it starts (a
        resumed session's history is not announced again: its events come through `feed`)."""
        for event in batch:
            if isinstance(event, MicroagentsLoadedEvent) and event.parent_agent_id is None:
                notice = load_problems_notice(event)
                if notice is not None:
                    self.notify(notice, severity="warning", timeout=10, markup=False)

    def _schedule_refresh(self) -> None:
        if not self._refresh_pending:
            self._refresh_pending = True
            self.set_timer(REFRESH_INTERVAL, self.refresh_now)

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
        self.fit_tree()
        self._update_title()
        self._update_status()

    def _update_title(self) -> None:
        self.query_one(TranscriptTitle).show(self.view, self.shown_agent, self.follow)

    def _update_status(self) -> None:
        if not self.main_screen_ready:
            return
        usage = self.view.usage
        mode = self.view.policy.mode if self.view.policy else ConfirmationMode.RISKY.value
        state = "⟳ running" if self.runs.running else "starting…" if self.starting else self.view.root_status
        if self.runs.waiting:
            state = f"? {self.runs.waiting} waiting for you"
        self.query_one(StatusBar).show(
            model=self.shown_model(),
            mode=mode,
            prompt_tokens=usage.prompt_tokens,
            completion_tokens=usage.completion_tokens,
            cost=usage.cost,
            cache_hit=usage.cache_hit,
            context_tokens=usage.last_prompt_tokens,
            context_window=self.context_window,
            elapsed=self.runs.elapsed(self.view),
            state=state,
            demo=self.config.demo,
            plan=self.view.planning,
            jobs=len(self.view.running_jobs),
        )

    def shown_model(self) -> str:
        """The model of the agent in the transcript, as the engine's events last said (a /model
        switch included); before any, the session's."""
        known = self.view.models.get(self.shown_agent) or self.view.models.get("root")
        if known:
            return known
        if self.session is not None:
            return self.session.llm.model
        return next(iter(self.view.models.values()), "")

    def _workspace_files(self) -> list[str] | None:
        """What `@` lists: the live session's workspace files (read on a worker, cached)."""
        return self.file_index.files(self.session.workspace) if self.session is not None else None

    def _read_files(self, job: Callable[[], None]) -> None:
        self.run_worker(job, thread=True, group="files")

    def _files_read(self, prompt: Prompt) -> None:
        """On the worker that read them: the list, if open, shows the files now known."""
        with contextlib.suppress(RuntimeError):  # the app has left meanwhile
            self.call_from_thread(prompt.update_completions)

    def _look_up_window(self) -> None:
        """On a worker: the root's context window, once its model changed (may read litellm's tables)."""
        if self.session is not None:
            self.post_message(ContextWindowKnown(self.session.llm.window()))

    def show_note(self, agent_id: str, text: str) -> None:
        """Add a notice to an agent's transcript (what `/context` measured)."""
        self._dirty.add(self.view.note(agent_id, text))
        self._schedule_refresh()

    async def on_event(self, event: events.Event) -> None:
        if isinstance(event, events.Key | events.MouseDown | events.Paste):
            self.idle_gc.touched()
        await super().on_event(event)

    def _tick(self) -> None:
        self.idle_gc.tick()
        if not self.main_screen_ready:
            return
        working = self.query_one("#working", Static)
        running = self.runs.running
        working.display = running
        if running and self.runs.started is not None:
            working.update(f"⟳ working… (Esc to interrupt)  {elapsed_text(self.config.clock() - self.runs.started)}")
        self._update_status()

    # -- what commands and the run controller ask of the app ------------------------------

    @property
    def task_inputs(self) -> dict[str, str]:
        return self.session.inputs if self.session is not None else {}

    @property
    def busy(self) -> bool:
        return self.runs.running

    @property
    def read_only(self) -> bool:
        return self.config.read_only

    def start_run(self, text: str | None, inputs: dict[str, str] | None = None) -> None:
        if self.starting:
            self.runs.queue(text or "")
            self._open_first_session()
            return
        self.runs.start(text, inputs)

    def set_plan_mode(self, on: bool) -> None:
        if self.bridge is None:
            self.notify("Read-only: nothing runs here to plan.", severity="warning")
            return
        self.bridge.set_plan_mode(on)  # the badge follows when the engine's event arrives

    def show_plan(self) -> None:
        """The plan panel, for the plan that waits (after a planning run, or `/plan show`)."""
        plan = self.view.plan
        if plan is None or self.bridge is None:
            self.notify("No plan waits: plan mode (shift+tab) ends each run with one.", severity="warning")
            return
        asking = ConfirmationMode(self.view.policy.mode if self.view.policy else "risky")

        def decided(decision: PlanDecision | None) -> None:
            if decision is None:
                self.notify("Still planning: type what to look at next, or /plan show for the plan.", timeout=4)
            elif decision.action == "approve":
                assert self.bridge is not None and decision.mode is not None
                self.bridge.leave_plan_mode(decision.mode)  # before the run: the engine's loop keeps the order
                self.start_run(approved_task(decision.plan))
            else:
                note = decision.note
                if decision.plan.strip() != plan.strip():
                    note += f"\n\nThe plan as I edited it:\n{decision.plan}"
                self.start_run(revision_task(note))

        self.push_screen(PlanScreen(plan, asking), decided)

    def set_confirmation_mode(self, mode: ConfirmationMode) -> None:
        if self.bridge is None:
            self.notify("Read-only: there is nothing to confirm.", severity="warning")
            return
        self.bridge.set_policy(mode)  # the badge follows when the engine's event arrives

    def show_queue(self, queued: list[str]) -> None:
        widget = self.query_one("#queued", Static)
        widget.display = bool(queued)
        lines = (f"⧗ queued: {one_line(text.splitlines()[0])[:100]}" for text in queued if text.strip())
        widget.update(Content("\n".join(lines)))  # as typed: `[b]` is text here, not markup

    def run_state_changed(self) -> None:
        self._tick()

    # -- messages from the engine and the prompt -------------------------------------------

    def on_run_done(self, message: RunDone) -> None:
        self.runs.done(message)
        if not self.runs.running:  # not when the next queued message started
            stopped = message.error is not None or (message.outcome is not None and message.outcome.exit_code != 0)
            self.call_for_attention("Run stopped" if stopped else "Run finished", self.view.root_status)
        if self.view.planning and self.view.plan is not None and not self.runs.running and not message.error:
            self.show_plan()  # a planning run ended with its plan: read it, edit it, approve it

    def on_confirmation_needed(self, message: ConfirmationNeeded) -> None:
        self.runs.confirmation_needed(message)
        request = message.request
        self.call_for_attention(
            "Approval needed", f"{request.chain[-1] if request.chain else 'agent'}: {request.summary}"
        )

    def on_elicitation_needed(self, message: ElicitationNeeded) -> None:
        """An MCP server's form: shown over everything, answered (or declined, or cancelled) once."""
        from openhands_tui.tui.screens.elicit import ElicitScreen

        def answered(answer: ElicitationAnswer | None) -> None:
            if not message.answer.done():
                message.answer.set_result(answer or ElicitationAnswer(action="cancel"))

        self.push_screen(ElicitScreen(message.request), answered)
        self.call_for_attention("Question from an MCP server", f"{message.request.server}: {message.request.message}")

    def call_for_attention(self, title: str, body: str) -> None:
        """Ring the bell and/or ask for a desktop notification, as configured (tui/attention.py);
        written straight to the terminal Textual draws on, between its frames."""
        sequence = self.config.attention.sequence(title, body, focused=self.app_focus)
        if sequence and self._driver is not None:
            self._driver.write(sequence)
            self._driver.flush()

    def on_prompt_submitted(self, message: Prompt.Submitted) -> None:
        if message.text.startswith("/") and self.commands.run(message.text):
            return
        self.start_run(message.text)

    def mcp_status(self) -> list[MCPServerStatus]:
        """The session's MCP servers, for the /mcp panel: as the engine's events last said."""
        return self.view.mcp_servers

    def watch_theme(self, theme: str) -> None:
        if self.config.remember_theme and theme != self.config.theme:
            self.config.theme = theme
            from openhands_tui.sdk.errors import SettingsError
            from openhands_tui.sdk.settings import save_config, unsaved_reason

            try:
                save_config({"theme": theme})
            except (OSError, SettingsError) as exc:  # a read-only ~/.config: the theme still changes
                self.notify(f"Theme not remembered: {unsaved_reason(exc)}", severity="warning", timeout=6)

    def _terminated(self) -> None:
        """SIGTERM: like Esc then quit. Unmounting interrupts the run and closes the session.
        Whatever happens on the way out, the process is gone within EXIT_DEADLINE seconds
        (the session log is written as it goes, so a resume finds everything)."""
        exit_regardless_after(EXIT_DEADLINE, INTERRUPTED)
        self.exit(INTERRUPTED)

    def _hung_up(self) -> None:
        """SIGHUP: the terminal is gone, or about to be. Textual's last writes to a dead terminal
        could wait for ever (seen: its writer thread never drained), so the screen's output goes
        to /dev/null before the same way out as SIGTERM; a terminal still open (`kill -HUP`) is
        first given back as it was, by writes that cannot wait (`terminal_modes`)."""
        terminal = os.dup(2)  # where Textual draws (standard error), kept for the reset below
        devnull = os.open(os.devnull, os.O_RDWR)
        for stream in (0, 1, 2):
            os.dup2(devnull, stream)
        os.close(devnull)
        # A frame Textual's writer thread was already writing when the streams moved still lands
        # on the terminal: given a moment to finish first, it lands on the app's screen, which
        # the reset below leaves, not on the user's (seen under load: a piece of the tree's
        # border on the shell's line). A terminal that is gone is not waited on beyond that.
        time.sleep(SETTLE_BEFORE_RESET)
        give_back(self._line_settings, out=terminal, fd=terminal)  # after: no frame of the app's follows it
        os.close(terminal)
        self._terminated()

    def on_unmount(self) -> None:
        self.idle_gc.stop()
        with contextlib.suppress(NotImplementedError, RuntimeError, ValueError):
            for sig in (signal.SIGTERM, signal.SIGHUP):
                asyncio.get_running_loop().remove_signal_handler(sig)
        if self.bridge is not None:
            self.bridge.close()


#: Seconds a terminated app may take to leave before the process ends without it.
EXIT_DEADLINE = 10.0
#: Seconds a write already under way is given to end before the terminal is reset on SIGHUP.
SETTLE_BEFORE_RESET = 0.2


def exit_regardless_after(seconds: float, code: int) -> None:
    """End the process in `seconds` if it is still here: a last resort, on a daemon thread, for
    a shutdown that hangs (it never fires when the app leaves in time)."""
    timer = threading.Timer(seconds, os._exit, args=(code,))
    timer.daemon = True
    timer.start()
