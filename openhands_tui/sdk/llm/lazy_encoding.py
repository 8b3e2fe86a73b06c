"""A tokenizer that is read from disk the first time it has real text to count.

litellm loads its default tokenizer (tiktoken's cl100k: 0.12 s and 41 MB) on the first
completion of every run, before the request leaves, whatever happens next: it hands the
encoding to the OpenAI-compatible handler up front, and prices a streamed response by counting
the tokens of its still-empty completion. Neither needs the table when the provider reports
usage, which we ask every provider to do. `LazyEncoding` stands in for the encoding: it knows
its name, counts "" as no tokens, and loads the real encoding (with the loader it was given)
for anything else, so a provider that reports no usage still gets litellm's own estimate.
`sdk.litellm_import.load_litellm` installs it; `tests/sdk/test_lazy_encoding.py` fails if litellm stops
using the encoding the way this relies on.
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from typing import Any

__all__ = ["LazyEncoding"]


class LazyEncoding:
    """Delegates every attribute to the encoding `load()` returns, loaded once, on first need.

    Only two questions are answered without loading, both with the answer the real encoding
    would give: `name`, and `encode("")` (no text has no tokens, whatever special tokens are
    allowed or disallowed).
    """

    def __init__(self, name: str, load: Callable[[str], Any]) -> None:
        self.name = name
        self._load = load
        self._real: Any = None
        self._lock = threading.Lock()

    @property
    def loaded(self) -> bool:
        return self._real is not None

    def real(self) -> Any:
        if self._real is None:
            with self._lock:
                if self._real is None:
                    self._real = self._load(self.name)
        return self._real

    def encode(self, text: str, *args: Any, **kwargs: Any) -> list[int]:
        if text == "":
            return []
        result: list[int] = self.real().encode(text, *args, **kwargs)
        return result

    def __getattr__(self, attribute: str) -> Any:
        # Only reached for what this class does not define (so never for `_real` once set).
        if attribute.startswith("__") or attribute in ("_real", "_load", "_lock"):
            raise AttributeError(attribute)
        return getattr(self.real(), attribute)

    def __repr__(self) -> str:
        return f"<Encoding {self.name!r}{'' if self.loaded else ' (not loaded yet)'}>"
