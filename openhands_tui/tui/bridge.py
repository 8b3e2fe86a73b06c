"""The seam between the app and the engine: events out, decisions in.

The engine runs on its own thread and asyncio loop, so a model call or a slow tool never
stalls typing or repainting. Events are queued and the app is poked once per batch (not
once per token); confirmation requests travel to the app as messages carrying a future,
and the answer comes back through it. Interrupting cancels the engine's task on its loop.

The bridge exists before any session is launched, so the confirmer every session is launched
with is the real one; messages posted before the app connects wait for it.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import contextlib
import threading
from collections import deque
from collections.abc import Callable, Coroutine
from typing import TYPE_CHECKING, Any

from textual.message import Message

from openhands_tui.sdk.facts.event import Event
from openhands_tui.sdk.mcp_host import ElicitationAnswer, ElicitationRequest
from openhands_tui.sdk.run.confirmation import ConfirmationMode, ConfirmationRequest, Decision

if TYPE_CHECKING:
    from openhands_tui.sdk.run.conversation import Conversation
    from openhands_tui.sdk.run.outcome import RunOutcome


class EventsReady(Message):
    """New engine events are waiting in the bridge's queue."""


class ConfirmationNeeded(Message):
    def __init__(self, request: ConfirmationRequest, answer: concurrent.futures.Future[Decision]) -> None:
        super().__init__()
        self.request = request
        self.answer = answer


class ElicitationNeeded(Message):
    """An MCP server asks the user to fill in a form; the answer goes back through `answer`."""

    def __init__(self, request: ElicitationRequest, answer: concurrent.futures.Future[ElicitationAnswer]) -> None:
        super().__init__()
        self.request = request
        self.answer = answer


class RunDone(Message):
    """The engine finished running one task (however it ended), or could not start it."""

    def __init__(self, outcome: RunOutcome | None, error: str | None = None) -> None:
        super().__init__()
        self.outcome = outcome
        self.error = error


Poster = Callable[[Message], object]


class TUIConfirmer:
    """Asks the user through the app; any number of agents may be waiting at once."""

    def __init__(self, bridge: EngineBridge) -> None:
        self.bridge = bridge

    async def confirm(self, request: ConfirmationRequest) -> Decision:
        answer: concurrent.futures.Future[Decision] = concurrent.futures.Future()
        self.bridge.post(ConfirmationNeeded(request, answer))
        return await asyncio.wrap_future(answer)

    async def elicit(self, request: ElicitationRequest) -> ElicitationAnswer:
        """An MCP server's form, put in front of the user (this makes the confirmer an
        `Elicitor`: servers are not told the user declined without asking them)."""
        answer: concurrent.futures.Future[ElicitationAnswer] = concurrent.futures.Future()
        self.bridge.post(ElicitationNeeded(request, answer))
        return await asyncio.wrap_future(answer)


class EngineBridge:
    def __init__(self) -> None:
        self._post: Poster | None = None
        self._early: list[Message] = []
        self.events: deque[Event] = deque()
        self._poked = False
        self._lock = threading.Lock()
        self._loop = asyncio.new_event_loop()
        self._thread = threading.Thread(target=self._loop.run_forever, name="engine", daemon=True)
        self._thread.start()
        self._task: asyncio.Task[Any] | None = None
        self._running = False
        self.conversation: Conversation | None = None

    # -- engine -> app ---------------------------------------------------------------------

    def connect(self, post: Poster) -> None:
        """Deliver messages to the app from now on (and those that waited for it)."""
        with self._lock:
            self._post, early, self._early = post, self._early, []
        for message in early:
            post(message)

    def post(self, message: Message) -> None:
        with self._lock:
            post = self._post
            if post is None:
                self._early.append(message)
                return
        post(message)

    def subscriber(self, event: Event) -> None:
        """Runs on the engine thread for every event: queue it, poke the app once per batch."""
        with self._lock:
            self.events.append(event)
            if self._poked:
                return
            self._poked = True
        self.post(EventsReady())

    def drain(self) -> list[Event]:
        with self._lock:
            batch = list(self.events)
            self.events.clear()
            self._poked = False
        return batch

    # -- app -> engine ---------------------------------------------------------------------

    @property
    def running(self) -> bool:
        """True from the moment a run is asked for until just before its RunEnded is posted."""
        return self._running

    def submit(self, coroutine: Coroutine[Any, Any, Any]) -> concurrent.futures.Future[Any]:
        return asyncio.run_coroutine_threadsafe(coroutine, self._loop)

    def call(self, function: Callable[..., Any], *args: Any) -> None:
        """Run a plain engine call on the engine's loop, between its steps."""
        self._loop.call_soon_threadsafe(function, *args)

    def start_run(self, task: str | None, inputs: dict[str, str] | None = None) -> None:
        conversation = self.conversation
        assert conversation is not None, "no conversation attached"

        async def run() -> None:
            self._task = asyncio.current_task()
            try:
                outcome = await conversation.run(task, inputs)
            except Exception as exc:  # a usage problem (unknown /task...) shown in the app
                ended = RunDone(None, str(exc))
            else:
                ended = RunDone(outcome)
            self._task = None
            self._running = False
            self.post(ended)

        self._running = True
        self.submit(run())

    def interrupt(self) -> None:
        task = self._task
        if task is not None and not task.done():
            self._loop.call_soon_threadsafe(task.cancel)

    def set_policy(self, mode: ConfirmationMode) -> None:
        """Switch the confirmation mode; the engine publishes the change as an event."""
        if self.conversation is not None:
            self.call(self.conversation.set_policy, mode)

    def set_plan_mode(self, on: bool) -> None:
        """Enter or leave plan mode; the engine publishes the change as an event."""
        if self.conversation is not None:
            self.call(self.conversation.set_plan_mode, on)

    def leave_plan_mode(self, mode: ConfirmationMode) -> None:
        """A plan was approved: ask as `mode` says from now on, and leave plan mode."""
        if self.conversation is not None:
            self.call(self.conversation.set_policy, mode)
            self.call(self.conversation.set_plan_mode, False)

    def close(self, timeout: float = 5.0) -> None:
        """Stop the run, close the conversation (kills shells, fsyncs the log), stop the loop.
        The interrupted run is given time to record that it was interrupted before anything closes."""
        task = self._task
        self.interrupt()
        if task is not None:
            with contextlib.suppress(concurrent.futures.TimeoutError, RuntimeError):
                self.submit(asyncio.wait({task}, timeout=timeout)).result(timeout)
        conversation = self.conversation
        if conversation is not None:
            with contextlib.suppress(concurrent.futures.TimeoutError, RuntimeError):
                self.submit(conversation.close()).result(timeout)
        self._loop.call_soon_threadsafe(self._loop.stop)
        self._thread.join(timeout)
