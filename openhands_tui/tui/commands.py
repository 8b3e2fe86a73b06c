"""Slash commands typed in the prompt, and the same actions in the command palette.

Commands act on the app only through `CommandHost`, the public surface the app offers them.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Protocol

from textual.app import SystemCommand
from textual.screen import Screen

from openhands_tui.sdk.facts.event import MCPServerStatus
from openhands_tui.sdk.facts.offered_commands import commands_of, offered_commands
from openhands_tui.sdk.run.confirmation import ConfirmationMode
from openhands_tui.tui.session_control import SessionControl
from openhands_tui.tui.state import SessionView
from openhands_tui.tui.widgets.prompt import LiveCommands, SlashCommand


class CommandHost(Protocol):
    """What slash commands and palette entries may do to the app."""

    view: SessionView
    theme: str

    @property
    def available_themes(self) -> dict[str, Any]: ...

    @property
    def task_inputs(self) -> dict[str, str]: ...

    @property
    def busy(self) -> bool: ...

    @property
    def read_only(self) -> bool: ...

    def notify(self, message: str, *, severity: Any = "information", timeout: float | None = None) -> None: ...

    def push_screen(self, screen: Screen[Any], callback: Callable[[Any], None] | None = None) -> Any: ...

    def exit(self, result: int | None = None) -> None: ...

    def start_run(self, text: str | None, inputs: dict[str, str] | None = None) -> None: ...

    def set_confirmation_mode(self, mode: ConfirmationMode) -> None: ...

    def set_plan_mode(self, on: bool) -> None: ...

    def show_plan(self) -> None: ...

    def switch_session(self, resume: str | None) -> None: ...

    def open_rewind(self) -> None: ...

    def fork_current(self, at_turn: int | None) -> None: ...

    def action_toggle_tree(self) -> None: ...

    def action_show_root(self) -> None: ...

    def action_toggle_follow(self) -> None: ...

    def action_interrupt(self) -> None: ...

    def mcp_status(self) -> list[MCPServerStatus]: ...

    @property
    def control(self) -> SessionControl: ...


BUILTIN = [
    SlashCommand("help", "what you can type and press; /help TOPIC: a topic page (safety, ...)"),
    SlashCommand("new", "start a new session"),
    SlashCommand("confirm", "always | risky | never (no argument: switch risky <-> always)"),
    SlashCommand("plan", "on | off | show (no argument: switch plan mode; read-only, ends with a plan)"),
    SlashCommand("microagents", "loaded microagents and what fired"),
    SlashCommand("mcp", "MCP servers: status and tools"),
    SlashCommand("model", "the shown agent's model; /model NAME switches it"),
    SlashCommand("compact", "condense the history now ([what to keep])"),
    SlashCommand("context", "what fills the context window, in tokens"),
    SlashCommand("tree", "show or hide the agent tree"),
    SlashCommand("jobs", "background jobs the agents started; /jobs stop ID stops one"),
    SlashCommand("theme", "switch theme (name, or the next one)"),
    SlashCommand("resume", "reopen a stored session (id, or the list)"),
    SlashCommand("rewind", "go back to before a turn (Esc Esc), or undo the last rewind"),
    SlashCommand("fork", "go on in a copy of this session (TURN: up to before it)"),
    SlashCommand("exit", "quit"),
]
MODES = list(ConfirmationMode)
#: What F2 and a bare /confirm switch between: turning confirmations off is never one key away.
TOGGLED = {ConfirmationMode.RISKY: ConfirmationMode.ALWAYS, ConfirmationMode.ALWAYS: ConfirmationMode.RISKY}

HELP = """\
**Typing** — Enter sends, Alt+Enter (or Ctrl+J) adds a line, Up/Down recall earlier messages.
Typing anywhere outside a dialog goes to the prompt. Messages typed while agents work are
queued and sent when the run ends; Esc puts them back in the prompt. `@` lists the workspace's
files as you type (git's list, .gitignore respected): Up/Down choose, Tab or Enter inserts
`@path`, Esc closes. Ctrl+G opens the prompt in your $VISUAL or $EDITOR (else nano, else vi);
save and quit it to bring the text back.

**The agent tree** (right; Ctrl+B shows/hides it) — Tab in the prompt moves to it; Up/Down move,
Enter shows that agent's transcript, Space folds its children, hovering shows its whole task.
Ctrl+R goes back to the root agent, Ctrl+F follows whichever agent is active.

**The transcript** — Tab from the tree moves to it, then through its entries, then back to the
prompt; Enter or Space (or a click) on a command folds or unfolds its output; PageUp/PageDown
scroll. Only recent entries are drawn: Ctrl+E shows earlier ones.

**Keys** — Esc interrupts the run (the model call and the running command stop; the session is
saved). With nothing running, Esc twice (or /rewind) lists the turns to go back to before one:
the files as they were, the conversation, or both; /rewind again undoes it. /fork [turn] goes on
in a copy of the session (up to before that turn), the original left as it is. Ctrl+O lists
microagents. F2 switches between asking if risky and asking always
(`/confirm never` turns questions off). Shift+Tab switches plan mode: the agent only reads and
ends with a plan, shown in a panel where you edit it, approve it (Ctrl+S; Ctrl+N never asks) or
send it back with a note (Ctrl+R). Ctrl+P opens the command palette. Ctrl+C twice, or
Ctrl+Q, quits. Select text with the mouse; Ctrl+C copies it.

**Confirmations** — y approve, n reject (then type a reason or press Enter), a always allow the
suggested rule (only when one is offered), d show every argument, Esc interrupt the run. While
the terminal is not in front, a waiting approval or an ended run rings the bell (config file:
notify = "bell" | "desktop" | "both" | "off", notify_when = "unfocused" | "always").

**Commands** — /help /new /confirm [always|risky|never] /plan [on|off|show] /microagents /mcp /tree /theme [name]
/jobs [stop ID] /resume [id] /rewind /fork [turn] /exit, and /name for each task microagent.

**Mid-session** — they act on the agent shown in the transcript. /model [name] shows its model, or
switches it from its next call (recorded: a resumed session keeps it). /compact [what to keep]
condenses its history now, between runs. /context shows what fills its context window, in tokens.
"""


class SlashCommands:
    def __init__(self, app: CommandHost) -> None:
        self.app = app

    def slash_commands(self) -> LiveCommands:
        """What `/` offers, as it is whenever it is read: our commands, then what the session's
        microagents answer to (see `current_commands`)."""
        return LiveCommands(self.current_commands)

    def current_commands(self) -> list[SlashCommand]:
        """Ours, then each `/name` the engine would run, in the order it loaded them: tasks
        (`.claude/commands/review.md`), Agent Skills (Claude Code's `/name`), slash triggers
        (`/codereview`). The engine's own list (each microagent's `commands`), never a second
        one; a name ours already take is ours, as `run` decides."""
        commands = list(BUILTIN)
        loaded = self.app.view.microagents
        offered = offered_commands(
            loaded.microagents if loaded is not None else [], self.app.mcp_status(), {c.name for c in commands}
        )
        commands += [SlashCommand(command.name, command.description) for command in offered]
        return commands

    def _task_microagents(self) -> list[dict[str, Any]]:
        loaded = self.app.view.microagents
        if loaded is None:
            return []
        return [info for info in loaded.microagents if info.get("type") == "task"]

    def run(self, text: str) -> bool:
        """Handle `text` if it is one of our commands (True), or leave it to the engine (False)."""
        name, _, argument = text[1:].partition(" ")
        argument = argument.strip()
        handler = getattr(self, f"do_{name}", None)
        if handler is None:
            task = self._task_for(name)
            if task is not None:
                self.run_task(task, name, argument)
                return True
            return False
        handler(argument)
        return True

    def _task_for(self, name: str) -> dict[str, Any] | None:
        """The task `/name` runs, found as the engine finds it (`sdk/context/tasks.py`): the
        first task, in load order, with that name or answering to that command in any case
        (Gemini CLI's `/git:commit` is task `git/commit`; a command may name its task differently)."""
        command = f"/{name}".lower()
        for info in self._task_microagents():
            if info["name"] == name or command in (c.lower() for c in commands_of(info)):
                return info
        return None

    def do_help(self, argument: str) -> None:
        from openhands_tui import help as pages
        from openhands_tui.tui.screens.help import HelpScreen

        if not argument.strip():
            self.app.push_screen(HelpScreen(HELP))
        elif (page := pages.page(argument)) is not None:  # /help safety: the page `tui help safety` prints
            self.app.push_screen(HelpScreen(page))
        else:
            topics = ", ".join(pages.topics())
            self.app.notify(f"/help {argument.strip()}: no such topic; topics: {topics}", severity="error")

    def do_exit(self, argument: str) -> None:
        self.app.exit(0)

    def do_tree(self, argument: str) -> None:
        self.app.action_toggle_tree()

    def do_microagents(self, argument: str) -> None:
        from openhands_tui.tui.screens.microagents import MicroagentsScreen

        view = self.app.view
        self.app.push_screen(MicroagentsScreen(view.microagents, view.triggered, view.names))

    def do_mcp(self, argument: str) -> None:
        from openhands_tui.tui.screens.mcp import MCPScreen

        self.app.push_screen(MCPScreen(self.app.mcp_status))

    def do_model(self, argument: str) -> None:
        self.app.control.model(argument)

    def do_compact(self, argument: str) -> None:
        self.app.control.compact(argument)

    def do_context(self, argument: str) -> None:
        self.app.control.context()

    def do_jobs(self, argument: str) -> None:
        self.app.control.jobs(argument)

    def do_confirm(self, argument: str) -> None:
        current = ConfirmationMode(self.app.view.policy.mode if self.app.view.policy else "risky")
        if argument:
            try:
                mode = ConfirmationMode(argument)
            except ValueError:
                *others, last = MODES
                self.app.notify(f"/confirm {argument}: use {', '.join(others)} or {last}", severity="error")
                return
        else:
            mode = TOGGLED.get(current, ConfirmationMode.RISKY)
        self.app.set_confirmation_mode(mode)
        warning = " — nothing will be asked; /confirm risky turns it back on" if mode is ConfirmationMode.NEVER else ""
        self.app.notify(f"Confirmation mode: {mode.value}{warning}", severity="warning" if warning else "information")

    def do_plan(self, argument: str) -> None:
        if argument == "show":
            self.app.show_plan()
            return
        planning = self.app.view.planning
        if argument not in ("", "on", "off"):
            self.app.notify(f"/plan {argument}: use on, off or show", severity="error")
            return
        on = not planning if not argument else argument == "on"
        self.app.set_plan_mode(on)
        if on:
            self.app.notify("Plan mode: read-only; the agent ends with a plan for you to approve (shift+tab leaves)")
        else:
            self.app.notify("Plan mode off: the agent may change files again")

    def do_theme(self, argument: str) -> None:
        themes = [t for t in self.app.available_themes if t.startswith("openhands")] or list(self.app.available_themes)
        if argument:
            if argument not in self.app.available_themes:
                self.app.notify(f"/theme {argument}: unknown (have: {', '.join(sorted(themes))})", severity="error")
                return
            self.app.theme = argument
        else:
            current = themes.index(self.app.theme) if self.app.theme in themes else -1
            self.app.theme = themes[(current + 1) % len(themes)]

    def do_new(self, argument: str) -> None:
        self.app.switch_session(None)

    def do_resume(self, argument: str) -> None:
        if argument:
            self.app.switch_session(argument)
            return
        from openhands_tui.tui.screens.help import SessionsScreen

        def chosen(session_id: str | None) -> None:
            if session_id:
                self.app.switch_session(session_id)

        self.app.push_screen(SessionsScreen(), chosen)

    def do_rewind(self, argument: str) -> None:
        self.app.open_rewind()

    def do_fork(self, argument: str) -> None:
        if argument and not (argument.isdigit() and int(argument) >= 1):
            self.app.notify(f"/fork {argument}: give a turn number (1: before the first), or nothing", severity="error")
            return
        self.app.fork_current(int(argument) if argument else None)

    def run_task(self, info: dict[str, Any], command: str, rest: str) -> None:
        """Send `/command rest` as typed (the engine finds the task again) once the task's inputs
        are known: asked for in a form when neither `--input` nor an earlier form gave them."""
        from openhands_tui.tui.screens.microagents import TaskInputsScreen

        given = self.app.task_inputs
        missing = [v for v in info.get("variables") or [i["name"] for i in info.get("inputs", [])] if v not in given]
        text = f"/{command} {rest}".strip()
        if not missing:
            self.app.start_run(text, given)
            return
        descriptions = {i["name"]: i.get("description", "") for i in info.get("inputs", [])}

        def filled(values: dict[str, str] | None) -> None:
            if values is not None:
                self.app.start_run(text, {**given, **values})

        self.app.push_screen(TaskInputsScreen(str(info["name"]), missing, descriptions), filled)

    def palette(self) -> list[SystemCommand]:
        app = self.app
        live = [  # a read-only view runs nothing: nothing to interrupt or confirm
            SystemCommand("Interrupt the run", "Stop the model call and the running command", app.action_interrupt),
            *[
                SystemCommand(f"Confirm: {m.value}", f"Confirmation mode {m.value}", _bind(self.do_confirm, m.value))
                for m in MODES
            ],
            SystemCommand("Plan mode", "Switch plan mode (read-only, ends with a plan)", lambda: self.run("/plan")),
        ]
        return [
            *([] if app.read_only else live),
            SystemCommand("Toggle the agent tree", "Show or hide the delegation tree", app.action_toggle_tree),
            SystemCommand("Show the root agent", "Back to the root agent's transcript", app.action_show_root),
            SystemCommand("Follow the active agent", "Switch transcripts as agents work", app.action_toggle_follow),
            SystemCommand("Microagents", "What is loaded, and what fired", lambda: self.run("/microagents")),
            SystemCommand("MCP servers", "Their status and tools", lambda: self.run("/mcp")),
            *[
                SystemCommand(f"Theme: {name}", "Switch theme", _bind(self.do_theme, name))
                for name in sorted(app.available_themes)
                if name.startswith("openhands")
            ],
            SystemCommand("New session", "Start over in a new session", lambda: self.run("/new")),
            SystemCommand("Resume a session", "Reopen a stored session", lambda: self.run("/resume")),
            *(
                []
                if app.read_only
                else [
                    SystemCommand("Rewind", "Go back to before a turn, or undo a rewind", lambda: self.run("/rewind")),
                    SystemCommand(
                        "Fork the session", "Continue a copy of it in a new session", lambda: self.run("/fork")
                    ),
                ]
            ),
            SystemCommand("Help", "Keys and commands", lambda: self.run("/help")),
        ]


def _bind(function: Any, argument: str) -> Any:
    return lambda: function(argument)
