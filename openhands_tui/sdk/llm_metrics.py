"""`llm.metrics`: what one LLM object has spent, as the OpenHands SDK reports it.

Every call through an LLM (the agent's steps, a condenser's summaries, a child agent built
from the same LLM) adds its tokens, cost and latency here. The session's events remain the
record of a run; this is the running total a strategy or a custom tool can read in code.
"""

from __future__ import annotations

import threading
from dataclasses import dataclass, field

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
