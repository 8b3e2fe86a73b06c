"""One agent's calls to its model: asking (condensing first when the history has outgrown the
window, once more if the provider still says it does not fit), streaming what comes back as
events, retries said as they happen, the shared prompt prefix written once among siblings,
and what each call cost recorded on the agent.

Split from `agent_run.py`, which decides what a step does with the answer; this module only
gets one.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from typing import Any, Protocol

from openhands_tui.sdk.agent import Agent
from openhands_tui.sdk.context.condenser import ContextGauge, Reason, condense, plan_cut, truncation_plan
from openhands_tui.sdk.errors import LLMContextWindowError, LLMUnsupportedParameterError, SessionError
from openhands_tui.sdk.facts.event import (
    AgentErrorEvent,
    CondensationEvent,
    LLMUsageEvent,
    ResultsTruncatedEvent,
    TextDeltaEvent,
    new_id,
)
from openhands_tui.sdk.llm.client import LLMResponse
from openhands_tui.sdk.llm.provider import prefix_key
from openhands_tui.sdk.run.actor import Actor
from openhands_tui.sdk.run.hook_points import fire, hook_input
from openhands_tui.sdk.run.messages import MessageBuilder
from openhands_tui.sdk.run.outcome import RunFailed
from openhands_tui.sdk.run.prefix_share import PrefixShare
from openhands_tui.sdk.run.runtime import Runtime


class Caller(Actor, Protocol):
    """The view of an agent its model calls need."""

    agent: Agent
    runtime: Runtime
    parent_id: str | None
    builder: MessageBuilder
    gauge: ContextGauge
    schemas: list[dict[str, Any]]
    #: Set by the parent for siblings that may share this agent's prompt prefix.
    shared_prefix: PrefixShare | None

    def offered_schemas(self) -> list[dict[str, Any]]: ...


class ModelCalls:
    def __init__(self, run: Caller) -> None:
        self.run = run
        self._prefix_key: str | None = None
        #: The model the last answer came from: what its usage is charged to, even if the agent
        #: was switched to another model (`/model`) while the answer streamed.
        self.answered_by = ""
        #: Held while a summary is written: a user's /compact and a run that starts meanwhile
        #: never condense (or ask with) the same history at once.
        self._condensing = asyncio.Lock()

    async def ask(self, response_id: str) -> LLMResponse:
        """One model call. Condenses first when the history has grown too big for the window,
        and once more, with one retry, if the provider still says it does not fit."""
        run = self.run
        if self._condensing.locked():  # a /compact is summarising: the call goes out after it
            async with self._condensing:
                pass
        window = run.agent.llm.window()
        reason = run.gauge.due(run.agent.condenser, run.builder.messages, window)
        if reason is not None:
            await self.condense(reason, window)
        try:
            return await self._complete(response_id)
        except LLMContextWindowError as exc:
            if not await self.condense("overflow", window):
                raise RunFailed(f"the conversation does not fit the model's context window ({exc})") from None
        try:
            return await self._complete(response_id)
        except LLMContextWindowError as exc:
            raise RunFailed(
                f"the conversation does not fit the model's context window, even condensed ({exc})"
            ) from None

    async def _complete(self, response_id: str) -> LLMResponse:
        run = self.run
        messages = run.builder.messages
        sent = len(messages)
        if self._prefix_key is None:
            self._prefix_key = prefix_key(messages, run.schemas)
        accepted = await self._take_turn_writing_prefix()
        llm = run.agent.llm  # the model asked, whatever the agent is switched to meanwhile
        try:
            response = await llm.complete(
                messages,
                run.offered_schemas(),
                on_text=lambda delta: self._stream(delta, response_id),
                on_thinking=lambda delta: self._stream(delta, response_id, thinking=True),
                on_retry=self._retrying,
                cache_key=self._prefix_key,
                on_accepted=accepted,
            )
        finally:
            if accepted is not None:
                accepted()  # a failed first call must not keep its siblings waiting
        self.answered_by = llm.model
        run.gauge.reported(sent, response.usage.prompt_tokens)
        return response

    async def _take_turn_writing_prefix(self) -> Callable[[], None] | None:
        """The first call of an agent with siblings: the first sibling writes the prefix they
        share, the others wait until its answer has begun. Returns what the writer calls then."""
        run = self.run
        share, run.shared_prefix = run.shared_prefix, None  # the first call only
        if share is None or self._prefix_key is None or not run.agent.llm.writes_cache_explicitly():
            return None
        return await share.claim(f"{run.agent.llm.model}|{self._prefix_key}")

    def _retrying(self, attempt: int, delay: float, error: Exception) -> None:
        if isinstance(error, LLMUnsupportedParameterError):
            note = "asking again without it (token counts are litellm's estimate unless the provider reports them)"
            self.run.record(AgentErrorEvent, error=f"{error}; {note}")
            return
        self.run.record(AgentErrorEvent, error=f"model call failed ({error}); retry {attempt} in {delay:.1f}s")

    async def condense(self, reason: Reason, window: int | None, focus: str = "") -> bool:
        """Summarise the middle of the history; then, if what must be kept still does not fit,
        shorten the biggest tool results. False if neither could make room. `focus`: what the
        user asked the summary to keep (`/compact`, reason "user")."""
        async with self._condensing:
            condensed, truncated = await self._condense(reason, window, focus)
        return condensed is not None or truncated

    async def compact(self, focus: str = "") -> CondensationEvent:
        """Condense now, because the user asked (`/compact [focus]`): the condensation recorded.
        Raises SessionError, changing nothing, when there is nothing to condense."""
        run = self.run
        config = run.agent.condenser
        if config is None:
            raise SessionError(
                f"{run.agent.name} does not condense its history (its strategy turned the condenser off)"
            )
        messages = run.builder.messages
        if plan_cut(messages, config.keep_first, config.keep_recent) is None:
            raise SessionError(
                f"nothing to condense yet: {len(messages)} messages, and the first {config.keep_first} "
                f"and last {config.keep_recent} are always kept"
            )
        async with self._condensing:
            event, _ = await self._condense("user", run.agent.llm.window(), focus)
        if event is None:  # a PreCompact hook's wait let the history change
            raise SessionError("nothing to condense: the history changed meanwhile")
        return event

    async def _condense(self, reason: Reason, window: int | None, focus: str) -> tuple[CondensationEvent | None, bool]:
        """The condensation recorded (None: nothing to cut), and whether tool results were shortened."""
        run = self.run
        config = run.agent.condenser
        if config is None:
            return None, False
        if run.runtime.hooks_for(run.agent_id).has("PreCompact"):
            trigger = "manual" if reason == "user" else "auto"  # Claude Code's words for who asked
            fields = {"trigger": trigger, "custom_instructions": focus}
            await fire(run, run.runtime, hook_input(run.runtime, "PreCompact", fields=fields, match_value=trigger))
        summarizer = config.llm or run.agent.llm
        condensed = await condense(run.builder.messages, config, run.agent.llm, run.gauge, reason, window, focus)
        event: CondensationEvent | None = None
        if condensed is not None:
            summary, response = condensed
            if response is not None:
                self.record_usage(response, new_id(), summarizer.model)
            event = run.record(CondensationEvent, **summary)
        plan = truncation_plan(run.builder.messages, run.gauge, window, 0.5 if reason == "overflow" else 0.9)
        if plan is not None:
            run.gauge.forget()
            run.record(ResultsTruncatedEvent, **plan)
        return event, plan is not None

    def _stream(self, delta: str, response_id: str, thinking: bool = False) -> None:
        self.run.runtime.bus.publish(
            TextDeltaEvent(
                agent_id=self.run.agent_id,
                parent_agent_id=self.run.parent_id,
                delta=delta,
                response_id=response_id,
                thinking=thinking,
            )
        )

    def record_usage(self, response: LLMResponse, response_id: str, model: str | None = None) -> None:
        """What a call cost, on this agent (a critic's call to its own model too), and in the budget."""
        run = self.run
        usage = response.usage
        if usage.cost:
            run.runtime.limits.cost += usage.cost
        run.record(
            LLMUsageEvent,
            model=model or run.agent.llm.model,
            response_id=response_id,
            prompt_tokens=usage.prompt_tokens,
            completion_tokens=usage.completion_tokens,
            cache_read_tokens=usage.cache_read_tokens,
            cache_write_tokens=usage.cache_write_tokens,
            reasoning_tokens=usage.reasoning_tokens,
            cost=usage.cost,
            latency_ms=round(response.latency_ms, 2),
            retries=response.retries,
        )
