"""The session's tokens and cost as the status bar shows them, summed from usage events."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass
class Usage:
    prompt_tokens: int = 0
    completion_tokens: int = 0
    cost: float = 0.0
    last_prompt_tokens: int = 0
    cache_read_tokens: int = 0
    cache_write_tokens: int = 0

    @property
    def cache_hit(self) -> float | None:
        """Share of input tokens read from the provider's prompt cache (None before any)."""
        if not self.prompt_tokens or not (self.cache_read_tokens or self.cache_write_tokens):
            return None
        return self.cache_read_tokens / self.prompt_tokens
