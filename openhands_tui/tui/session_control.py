"""`/model`, `/compact` and `/context`: the user's mid-session control over the agent shown in
the transcript (the root, or a sub-agent picked in the tree).

Each asks the engine on its own loop (`Conversation.set_model`, `compact`, `context_usage`) and
waits for the answer in a worker on the app's loop, so the app keeps drawing meanwhile. What
changed reaches the screen as the engine's events do (the model in the status bar and the
transcript, a condensation entry); the answer itself is a notice, or for `/context` a table in
the transcript. Every text is shown as it is, never as markup.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Coroutine
from typing import TYPE_CHECKING, Any, Protocol, TypeVar

from openhands_tui.sdk.errors import OpenHandsTUIError
from openhands_tui.tui.bridge import EngineBridge
from openhands_tui.tui.state import SessionView

if TYPE_CHECKING:
    from openhands_tui.sdk.run.conversation import Conversation

T = TypeVar("T")

#: What /model says how to use, after the current model.
MODEL_HELP = "/model NAME switches it from its next call (a litellm name, e.g. anthropic/claude-sonnet-4-5)"


class ControlHost(Protocol):
    """What the commands here need of the app."""

    view: SessionView
    bridge: EngineBridge | None
    shown_agent: str

    @property
    def busy(self) -> bool: ...

    def notify(
        self, message: str, *, severity: Any = "information", timeout: float | None = None, markup: bool = True
    ) -> None: ...

    def run_worker(self, work: Any, *, group: str = "default", exit_on_error: bool = True) -> Any: ...

    def show_note(self, agent_id: str, text: str) -> None: ...

    def shown_model(self) -> str: ...


class SessionControl:
    def __init__(self, host: ControlHost) -> None:
        self.host = host

    # -- the commands ----------------------------------------------------------------------

    def model(self, name: str) -> None:
        """`/model`: say the shown agent's model; `/model NAME`: switch it to NAME."""
        agent = self.host.shown_agent
        if not name:
            self._say(f"{self._name(agent)}'s model: {self.host.shown_model()}. {MODEL_HELP}.", timeout=8)
            return
        conversation = self._conversation("switch models")
        if conversation is not None:
            self._ask(self._switch(conversation, name, agent))

    def compact(self, focus: str) -> None:
        """`/compact [what to keep]`: condense the shown agent's history now."""
        conversation = self._conversation("compact")
        if conversation is None:
            return
        if self.host.busy:
            self._say("Agents are working: /compact waits until the run ends (Esc interrupts it).", timeout=6)
            return
        agent = self.host.shown_agent
        self._say(f"Compacting {self._name(agent)}'s history…", timeout=4)
        self._ask(self._compact(conversation, focus, agent))

    def context(self) -> None:
        """`/context`: what fills the shown agent's context window, as a table in its transcript."""
        conversation = self._conversation("measure")
        if conversation is not None:
            self._ask(self._context(conversation, self.host.shown_agent))

    def jobs(self, argument: str) -> None:
        """`/jobs`: the session's background jobs in the transcript; `/jobs stop ID`: stop one
        (the shown agent's, or the only agent's with that id)."""
        view = self.host.view
        verb, _, job_id = argument.partition(" ")
        if not argument:
            jobs = list(view.jobs.values())
            lines = [f"{self._name(j.agent_id)}: {j.line()}" for j in jobs] or ["No background jobs."]
            hint = "\n/jobs stop ID stops one." if view.running_jobs else ""
            self.host.show_note(self.host.shown_agent, "Background jobs:\n" + "\n".join(lines) + hint)
            return
        job_id = job_id.strip()
        owners = [agent for agent, known in view.jobs if known == job_id]
        if verb != "stop" or not job_id:
            self._say(f"/jobs {argument}: use /jobs, or /jobs stop ID", severity="error")
            return
        if not owners:
            self._say(f"/jobs stop {job_id}: no such job (/jobs lists them)", severity="error")
            return
        agent = self.host.shown_agent if self.host.shown_agent in owners else owners[0]
        conversation = self._conversation("stop a job")
        if conversation is not None:
            self._ask(self._stop_job(conversation, job_id, agent))

    # -- what each asks the engine ---------------------------------------------------------

    async def _stop_job(self, conversation: Conversation, job_id: str, agent: str) -> None:
        said = await self._on_loop(lambda: conversation.stop_job(job_id, agent))
        self._say(f"Stopped {said}", timeout=6)

    async def _switch(self, conversation: Conversation, name: str, agent: str) -> None:
        switch = await self._on_engine(conversation.set_model, name, agent)
        if not switch.changed:
            self._say(f"{self._name(agent)} already uses {switch.model}.", timeout=4)
            return
        note = f" — {switch.note}" if switch.note else ""
        severity = "warning" if switch.note else "information"
        self._say(f"{self._name(agent)}: {switch.previous} → {switch.model}{note}", severity=severity, timeout=6)

    async def _compact(self, conversation: Conversation, focus: str, agent: str) -> None:
        done = await self._on_loop(lambda: conversation.compact(focus, agent))
        summary = "" if done.summarized else " (no summary: the call failed)"
        self._say(
            f"Compacted {self._name(agent)}: {done.removed} messages into a summary{summary}, "
            f"about {done.tokens_before:,} → {done.tokens_after:,} tokens.",
            timeout=8,
        )

    async def _context(self, conversation: Conversation, agent: str) -> None:
        usage = await self._on_engine(conversation.context_usage, agent)
        self.host.show_note(agent, usage.table())

    # -- plumbing --------------------------------------------------------------------------

    def _conversation(self, doing: str) -> Conversation | None:
        bridge = self.host.bridge
        if bridge is None or bridge.conversation is None:
            self._say(f"Read-only: there is no running session to {doing}.", severity="warning")
            return None
        return bridge.conversation

    def _ask(self, work: Any) -> None:
        """Run `work` on the app's loop; a refusal (or a failure) is said in one notice."""

        async def said() -> None:
            try:
                await work
            except OpenHandsTUIError as exc:
                self._say(str(exc), severity="error", timeout=8)
            except Exception as exc:  # a provider's or an engine bug's words: shown, never raised in the app
                self._say(f"{type(exc).__name__}: {exc}", severity="error", timeout=8)

        self.host.run_worker(said(), group="session-control", exit_on_error=False)

    async def _on_engine(self, function: Callable[..., T], *args: Any) -> T:
        """Call a plain engine function on the engine's loop, between its steps."""

        async def call() -> T:
            return function(*args)

        return await self._on_loop(call)

    async def _on_loop(self, make: Callable[[], Coroutine[Any, Any, T]]) -> T:
        bridge = self.host.bridge
        assert bridge is not None
        return await asyncio.wrap_future(bridge.submit(make()))

    def _say(self, text: str, *, severity: str = "information", timeout: float | None = None) -> None:
        self.host.notify(text, severity=severity, timeout=timeout, markup=False)  # a model's name is text

    def _name(self, agent_id: str) -> str:
        return self.host.view.names.get(agent_id, agent_id)
