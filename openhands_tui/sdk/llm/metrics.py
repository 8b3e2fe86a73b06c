"""`llm.metrics`: what one LLM object has spent, as the OpenHands SDK reports it.

Every call through an LLM (the agent's steps, a condenser's summaries, a child agent built
from the same LLM) adds its tokens, cost and latency here. The session's events remain the
record of a run; this is the running total a strategy or a custom tool can read in code.
"""

from __future__ import annotations

import asyncio
import threading
from dataclasses import dataclass, field
from typing import Any

from pydantic import PrivateAttr

from openhands_tui.sdk.llm.compat import SDK_LLM_INSTEAD
from openhands_tui.sdk.llm.message import Message
from openhands_tui.sdk.model import StrictModel

_LOCK = threading.Lock()  # one for all: a copy of a Metrics (deepcopy, pickle) has nothing to carry


@dataclass
class TokenUsage:
    """Tokens of one call, or accumulated over many."""

    model: str = ""
    prompt_tokens: int = 0
    completion_tokens: int = 0
    cache_read_tokens: int = 0
    cache_write_tokens: int = 0
    response_id: str = ""

    def add(self, other: TokenUsage) -> None:
        self.prompt_tokens += other.prompt_tokens
        self.completion_tokens += other.completion_tokens
        self.cache_read_tokens += other.cache_read_tokens
        self.cache_write_tokens += other.cache_write_tokens


@dataclass
class Cost:
    model: str
    cost: float
    response_id: str = ""


@dataclass
class ResponseLatency:
    model: str
    latency: float  # seconds
    response_id: str = ""


@dataclass
class Metrics:
    """Accumulated cost, tokens and latencies of one LLM (thread-safe: children run in parallel)."""

    model_name: str = ""
    accumulated_cost: float = 0.0
    accumulated_token_usage: TokenUsage = field(default_factory=TokenUsage)
    costs: list[Cost] = field(default_factory=list)
    response_latencies: list[ResponseLatency] = field(default_factory=list)
    token_usages: list[TokenUsage] = field(default_factory=list)

    def record(self, usage: TokenUsage, cost: float | None, latency_s: float) -> None:
        """Add one call."""
        with _LOCK:
            self.token_usages.append(usage)
            self.accumulated_token_usage.add(usage)
            self.response_latencies.append(ResponseLatency(usage.model, latency_s, usage.response_id))
            if cost:
                self.accumulated_cost += cost
                self.costs.append(Cost(usage.model, cost, usage.response_id))

    def get(self) -> dict[str, object]:
        """A plain summary (the SDK's `metrics.get()`)."""
        usage = self.accumulated_token_usage
        return {
            "accumulated_cost": self.accumulated_cost,
            "accumulated_token_usage": {
                "prompt_tokens": usage.prompt_tokens,
                "completion_tokens": usage.completion_tokens,
                "cache_read_tokens": usage.cache_read_tokens,
                "cache_write_tokens": usage.cache_write_tokens,
            },
            "calls": len(self.token_usages),
        }


class MeteredModel(StrictModel):
    """What `LLM` shares with the SDK's: `llm.metrics`, the blocking `completion()`, and its
    argument names (renamed ones, and the ones that fail naming what instead). A base class,
    so llm/client.py stays about making calls."""

    sdk_instead = SDK_LLM_INSTEAD
    sdk_renamed = {"max_input_tokens": "context_window", "service_id": "usage_id"}

    _metrics: Metrics = PrivateAttr(default_factory=Metrics)

    @property
    def metrics(self) -> Metrics:
        """What calls through this LLM have cost so far (tokens, USD, latencies)."""
        if not self._metrics.model_name:
            self._metrics.model_name = str(getattr(self, "model", ""))
        return self._metrics

    def model_copy(self, *, update: Any = None, deep: bool = False) -> Any:
        """A copy shares its metrics, unless it is given its own `usage_id` (the SDK's way to
        count a condenser's calls apart)."""
        copy: MeteredModel = super().model_copy(update=update, deep=deep)
        if update and ("usage_id" in update or "service_id" in update):
            copy._metrics = Metrics(model_name=str(getattr(copy, "model", "")))
        else:
            copy._metrics = self._metrics
        return copy

    def count(self, response: Any) -> None:
        """Add one answered call (an LLMResponse) to the metrics."""
        usage = response.usage
        model = str(getattr(self, "model", ""))
        self.metrics.record(
            TokenUsage(
                model=model,
                prompt_tokens=usage.prompt_tokens,
                completion_tokens=usage.completion_tokens,
                cache_read_tokens=usage.cache_read_tokens,
                cache_write_tokens=usage.cache_write_tokens,
                response_id=response.id,
            ),
            usage.cost,
            response.latency_ms / 1000,
        )

    def completion(self, messages: list[Any], tools: list[dict[str, Any]] | None = None) -> Any:
        """The SDK's blocking call (Message objects or chat dicts), for a custom tool's executor,
        which runs in a worker thread. Async code uses `await llm.complete(...)`."""
        try:
            asyncio.get_running_loop()
        except RuntimeError:
            chat = [m.to_chat() if isinstance(m, Message) else m for m in messages]
            return asyncio.run(getattr(self, "complete")(chat, tools))  # noqa: B009 - defined by LLM
        raise RuntimeError("LLM.completion() blocks: call it from a tool executor, or use `await llm.complete(...)`")
