"""Counting the tokens of a text, for `/context`'s breakdown of a context window.

litellm already ships tiktoken's `cl100k_base` table (and loads it lazily: `lazy_encoding.py`),
so counting with it costs no new dependency and no download: about 0.1 s to read the table the
first time, then a few milliseconds for a long history. It is OpenAI's tokenizer; Claude and
other models cut text somewhat differently, which is said beside the numbers. If the table
cannot be read, the engine's own estimate (four characters a token) stands in.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from openhands_tui.sdk.llm.litellm_import import load_litellm

__all__ = ["TokenCounter", "token_counter"]


@dataclass(frozen=True)
class TokenCounter:
    """`count(text)` tokens, and how they were counted, in words."""

    count: Callable[[str], int]
    method: str


def _estimate(text: str) -> int:
    return len(text) // 4


ESTIMATE = TokenCounter(_estimate, "estimated at 4 characters a token")


def token_counter() -> TokenCounter:
    """tiktoken's cl100k table as litellm ships it, or the estimate if it cannot be loaded."""
    try:
        encoding = load_litellm().encoding
        encoding.encode("loaded")  # reads the table now: a failure falls back here, not mid-count
    except Exception:
        return ESTIMATE

    def count(text: str) -> int:
        # Special tokens in a model's or a file's text (`<|endoftext|>`) are counted as text.
        return len(encoding.encode(text, disallowed_special=())) if text else 0

    return TokenCounter(
        count, f"counted with tiktoken {encoding.name}; other providers' models count a little differently"
    )
