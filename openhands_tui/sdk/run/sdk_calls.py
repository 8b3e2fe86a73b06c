"""The OpenHands SDK's synchronous conversation calls, on this engine's asynchronous one.

SDK code writes `conversation.send_message("...")` then `conversation.run()` and expects it to
block; this engine's own callers `await conversation.run(task)`. Both work: `run()` and
`close()` return a coroutine when called from async code (a loop is running in this thread)
and otherwise do the work on the conversation's own event loop, in a thread that lives as long
as the conversation, so the agent's shell and MCP servers survive from one `run()` to the
next. What the SDK's callers read back (`state.events`, `state.execution_status`,
`conversation_stats`) is folded from the same events every other subscriber sees.
"""

from __future__ import annotations

import asyncio
import atexit
import concurrent.futures
import contextlib
import threading
import weakref
from collections.abc import Callable, Sequence
from enum import StrEnum
from typing import TYPE_CHECKING, Any, ClassVar

from openhands_tui.sdk.context.attachments import Given
from openhands_tui.sdk.facts.event import ActionEvent, AgentErrorEvent, Event, LLMUsageEvent, ObservationEvent
from openhands_tui.sdk.llm.message import ImageContent, Message, content_text
from openhands_tui.sdk.llm.metrics import Metrics, TokenUsage
from openhands_tui.sdk.model import UnsupportedArgument
from openhands_tui.sdk.run.confirmation import ConfirmationPolicy, ConfirmationRequest, Decision
from openhands_tui.sdk.run.confirmation_mode import ConfirmationMode
from openhands_tui.sdk.run.loop import run_agent
from openhands_tui.sdk.run.outcome import RunOutcome
from openhands_tui.sdk.tool.context import LocalWorkspace

if TYPE_CHECKING:
    from openhands_tui.sdk.agent import Agent
    from openhands_tui.sdk.run.runtime import Runtime

#: The SDK's `ConversationCallbackType`: called with every event as it is published.
ConversationCallbackType = Callable[[Any], None]


class ConversationExecutionStatus(StrEnum):
    """The SDK's names for a conversation's status (equal to the engine's `Status` values)."""

    IDLE = "idle"
    RUNNING = "running"
    PAUSED = "paused"
    WAITING_FOR_CONFIRMATION = "waiting_for_confirmation"
    FINISHED = "finished"
    ERROR = "error"
    STUCK = "stuck"
    DELETING = "deleting"

    def is_terminal(self) -> bool:
        return self in (ConversationExecutionStatus.FINISHED, ConversationExecutionStatus.ERROR, self.STUCK)


class ConversationStats:
    """Cost and tokens of every model call in the conversation (children's and summaries'
    included), folded from its `llm_usage` events. Events name the model, not the LLM object,
    so `usage_to_metrics` has one entry per model."""

    def __init__(self) -> None:
        self.usage_to_metrics: dict[str, Metrics] = {}

    def observe(self, event: Event) -> None:
        if isinstance(event, LLMUsageEvent):
            usage = TokenUsage(
                model=event.model,
                prompt_tokens=event.prompt_tokens,
                completion_tokens=event.completion_tokens,
                cache_read_tokens=event.cache_read_tokens,
                cache_write_tokens=event.cache_write_tokens,
                response_id=event.response_id,
            )
            metrics = self.usage_to_metrics.setdefault(event.model, Metrics(model_name=event.model))
            metrics.record(usage, event.cost, event.latency_ms / 1000)

    def get_metrics_for_usage(self, usage_id: str) -> Metrics:
        return self.usage_to_metrics.get(usage_id) or Metrics(model_name=usage_id)

    def get_combined_metrics(self) -> Metrics:
        combined = Metrics(model_name="combined")
        for metrics in self.usage_to_metrics.values():
            for usage, latency in zip(metrics.token_usages, metrics.response_latencies, strict=True):
                cost = next((c.cost for c in metrics.costs if c.response_id == usage.response_id), None)
                combined.record(usage, cost, latency.latency)
        return combined


class ConversationState:
    """The SDK's `conversation.state`: the events so far, the status, the workspace."""

    def __init__(self, conversation: SDKCalls, conversation_id: str) -> None:
        self._conversation = conversation
        self.id = conversation_id
        self.events: list[Event] = []
        self.stats = ConversationStats()
        self.workspace = LocalWorkspace(str(conversation.runtime.workspace))
        self.persistence_dir: str | None = None

    def observe(self, event: Event) -> None:
        if not event.transient:
            self.events.append(event)
        self.stats.observe(event)

    @property
    def execution_status(self) -> ConversationExecutionStatus:
        return ConversationExecutionStatus(self._conversation.root.status.value)

    @property
    def agent(self) -> Agent:
        return self._conversation.root.agent

    @property
    def confirmation_policy(self) -> ConfirmationPolicy:
        return self._conversation.runtime.policy

    @staticmethod
    def get_unmatched_actions(events: Sequence[Event]) -> list[ActionEvent]:
        """Tool calls with no result yet: the ones waiting for a confirmation."""
        answered = {e.tool_call_id for e in events if isinstance(e, ObservationEvent | AgentErrorEvent)}
        return [e for e in events if isinstance(e, ActionEvent) and e.tool_call_id not in answered]


class _AskTheCaller:
    """The confirmer of a conversation driven by the SDK's calls: a confirmation holds the run
    and hands control back to the caller (`run()` returns, the status says it waits); the next
    `run()` approves what waits, `reject_pending_actions(reason)` refuses it."""

    def __init__(self, wake: Callable[[], None]) -> None:
        self._wake = wake
        self.waiting: list[asyncio.Future[Decision]] = []

    async def confirm(self, request: ConfirmationRequest) -> Decision:
        answer: asyncio.Future[Decision] = asyncio.get_running_loop().create_future()
        self.waiting.append(answer)
        self._wake()
        return await answer

    def answer(self, loop: asyncio.AbstractEventLoop, decision: Decision) -> None:
        waiting, self.waiting = self.waiting, []
        for answer in waiting:
            loop.call_soon_threadsafe(_settle, answer, decision)


def _settle(answer: asyncio.Future[Decision], decision: Decision) -> None:
    if not answer.done():
        answer.set_result(decision)


def _in_async_code() -> bool:
    try:
        asyncio.get_running_loop()
    except RuntimeError:
        return False
    return True


class SDKCalls:
    """Mixed into `Conversation`: the SDK's calls (`send_message`, blocking `run`, `pause`,
    `state`, `conversation_stats`, `set_confirmation_policy`...)."""

    #: What the SDK's Conversation takes that this one does not, with what to use instead.
    sdk_instead: ClassVar[dict[str, str]] = {
        "secrets": "the agent's shell gets the environment it was started with; export the secrets before starting",
        "token_callbacks": "streamed text arrives as text_delta events: pass a callback and look for them",
        "client_tools": "client-defined tools are not supported; register a ToolDefinition with register_tool",
        "delete_on_close": "a conversation built in code is not stored, so there is nothing to delete",
        "persistence_dir": "a conversation built in code is not stored; run the strategy with `tui`, which keeps "
        "each session's events.jsonl, and continue one with --resume",
    }

    root: Any
    runtime: Runtime
    bus: Any
    log: Any

    if TYPE_CHECKING:  # the engine's own callers await them; the SDK's call them from plain code

        async def arun(
            self, task: str | None = None, inputs: dict[str, str] | None = None, *, given: Given = ...
        ) -> RunOutcome: ...

        async def aclose(self) -> None: ...

        async def _submit(self, task: str, inputs: dict[str, str] | None = None) -> RunOutcome | None: ...

    def _sdk_setup(
        self,
        callbacks: Sequence[ConversationCallbackType] | None = None,
        visualizer: Any = None,
        conversation_id: Any = None,
        max_iteration_per_run: int | None = None,
        stuck_detection: bool = True,
        **unsupported: Any,
    ) -> None:
        if not stuck_detection:
            raise UnsupportedArgument(
                "Conversation(stuck_detection=False) is not supported by openhands_tui: stuck detection is always on"
            )
        for key in unsupported:
            hint = self.sdk_instead.get(key, "no such argument")
            raise UnsupportedArgument(f"Conversation({key}=...) is not supported by openhands_tui: {hint}")
        self.state = ConversationState(self, str(conversation_id or self.root.agent_id))
        self.bus.subscribe(self.state.observe)
        for callback in callbacks or ():
            self.bus.subscribe(callback)
        if isinstance(visualizer, type):
            visualizer = visualizer()
        self.visualizer = visualizer
        if visualizer is not None:
            initialize = getattr(visualizer, "initialize", None)
            if initialize is not None:
                initialize(self.state)
            self.bus.subscribe(visualizer.on_event)
        self._per_run = max_iteration_per_run
        self._pending: list[str] = []
        self._thread: threading.Thread | None = None
        self._loop: asyncio.AbstractEventLoop | None = None
        self._running: concurrent.futures.Future[RunOutcome] | None = None
        self._attention = threading.Event()
        self._asker: _AskTheCaller | None = None
        self._task: asyncio.Task[Any] | None = None

    # -- the SDK's names for what this conversation already has

    @property
    def id(self) -> str:
        return self.state.id

    @property
    def agent(self) -> Agent:
        return self.root.agent

    @property
    def conversation_stats(self) -> ConversationStats:
        return self.state.stats

    # -- messages and runs

    def send_message(self, message: str | Message, sender: str | None = None) -> None:
        """Queue a user message for the next `run()`; while a run is under way, it joins that run."""
        if sender is not None:
            raise UnsupportedArgument("send_message(sender=...) is not supported by openhands_tui: remove it")
        text = message if isinstance(message, str) else _message_text(message)
        if self._running is not None and not self._running.done() and self._loop is not None:
            self._loop.call_soon_threadsafe(self.root.add_user_message, text)
        else:
            self._pending.append(text)

    def run(self, task: str | None = None, inputs: dict[str, str] | None = None, *, given: Given | None = None) -> Any:
        """From async code: a coroutine to await (`await conversation.run(task)`). From plain
        code: run until the agent ends or an action waits for confirmation, and return how it
        ended (None while one waits); the messages sent with `send_message` go first. `given`:
        images and files attached to `task` (from async code only)."""
        if _in_async_code():
            return self.arun(task, inputs, given=given or Given())
        if given is not None:
            raise UnsupportedArgument("run(given=...) needs async code: await conversation.run(task, given=...)")
        if task is not None:
            self._pending.append(task)
        if self._asker is not None and self._asker.waiting:  # the SDK: run() approves what waits
            self._asker.answer(self._own_loop(), Decision(approved=True, decided_by="user"))
        if self._running is None or self._running.done():
            self._running = asyncio.run_coroutine_threadsafe(self._run_pending(inputs), self._own_loop())
            self._running.add_done_callback(lambda _: self._attention.set())
        while True:
            self._attention.wait()
            self._attention.clear()
            if self._running.done():
                return self._running.result()
            if self._asker is not None and self._asker.waiting:
                return None

    async def _run_pending(self, inputs: dict[str, str] | None) -> RunOutcome:
        self._task = asyncio.current_task()
        await self.open()  # type: ignore[attr-defined]
        if not self._pending and not self.root.has_work:  # the SDK: nothing new to do is no error
            status = self.root.status
            return RunOutcome(agent_id=self.root.agent_id, status=status, exit_code=0 if status != "error" else 1)
        if self._per_run is not None:  # the SDK's max_iteration_per_run: a fresh allowance per run()
            self.runtime.limits.max_iterations = self.runtime.limits.iterations + self._per_run
        pending, self._pending = self._pending, []
        for text in pending:
            blocked = await self._submit(text, inputs)
            if blocked is not None:
                return blocked
        return await run_agent(self.root)

    def pause(self) -> None:
        """Stop the run under way (the current step is interrupted, as Esc does in the app);
        `run()` continues it."""
        if self._running is not None and not self._running.done() and self._loop is not None:
            task = self._task
            if task is not None:
                self._loop.call_soon_threadsafe(task.cancel)

    interrupt = pause

    def reject_pending_actions(self, reason: str = "User rejected the action") -> None:
        if self._asker is not None and self._asker.waiting:
            self._asker.answer(self._own_loop(), Decision(approved=False, reason=reason, decided_by="user"))

    def set_confirmation_policy(self, policy: Any) -> None:
        """The SDK's `AlwaysConfirm()`, `NeverConfirm()`, `ConfirmRisky(threshold=...)` or this
        engine's `ConfirmationPolicy`. Asking stops `run()`, as in the SDK (see `_AskTheCaller`)."""
        if not isinstance(policy, ConfirmationPolicy):
            mode, threshold = getattr(policy, "mode", None), getattr(policy, "risk_threshold", None)
            if mode is None:
                raise UnsupportedArgument(
                    f"set_confirmation_policy({type(policy).__name__}) is not supported by openhands_tui: "
                    "use AlwaysConfirm(), NeverConfirm() or ConfirmRisky(threshold=...)"
                )
            policy = ConfirmationPolicy(
                mode=ConfirmationMode(mode), threshold=threshold or self.runtime.policy.threshold
            )
        if policy.mode is not ConfirmationMode.NEVER and self._asker is None:
            self._asker = _AskTheCaller(self._attention.set)
            self.runtime.confirmer = self._asker
        self.set_policy(policy.mode, policy.threshold)  # type: ignore[attr-defined]

    def set_security_analyzer(self, analyzer: Any) -> None:
        raise UnsupportedArgument(
            "set_security_analyzer() is not supported by openhands_tui: risk is rated by rules (see `tui rules`); "
            "choose when to ask with set_confirmation_policy"
        )

    def close(self) -> Any:
        """From async code, a coroutine to await; from plain code, close now (the shell and MCP
        servers stop) and stop the conversation's thread."""
        if _in_async_code():
            return self.aclose()
        if self._loop is None:
            return asyncio.run(self.aclose())
        try:
            asyncio.run_coroutine_threadsafe(self.aclose(), self._loop).result()
        finally:
            self._stop_thread()
        return None

    # -- the conversation's own loop, for plain callers

    def _own_loop(self) -> asyncio.AbstractEventLoop:
        if self._loop is None:
            self._loop = asyncio.new_event_loop()
            self._thread = threading.Thread(target=self._loop.run_forever, name="conversation", daemon=True)
            self._thread.start()
            atexit.register(_close_at_exit, weakref.ref(self))
        return self._loop

    def _stop_thread(self) -> None:
        loop, thread = self._loop, self._thread
        if loop is not None and thread is not None:
            loop.call_soon_threadsafe(loop.stop)
            thread.join(timeout=10)
            if not thread.is_alive():
                loop.close()
        self._loop, self._thread = None, None


def _close_at_exit(ref: weakref.ref[SDKCalls]) -> None:
    """A script that never calls close(): its shell and MCP servers still stop."""
    conversation = ref()
    if conversation is not None and conversation._loop is not None:
        future = asyncio.run_coroutine_threadsafe(conversation.aclose(), conversation._loop)
        with contextlib.suppress(Exception):  # the interpreter is exiting; nothing to report to
            future.result(timeout=10)
        conversation._stop_thread()


def _message_text(message: Message) -> str:
    if message.role != "user":
        raise UnsupportedArgument(f"send_message(Message(role={message.role!r})): only user messages are sent")
    if not isinstance(message.content, str) and any(isinstance(p, ImageContent) for p in message.content):
        raise UnsupportedArgument(
            "send_message() with ImageContent is not supported by openhands_tui: the conversation takes text; "
            "save the image in the workspace and name its path"
        )
    return content_text(message.content)
