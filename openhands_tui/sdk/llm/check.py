"""Whether a model answers with these settings: one short request, for a front end that lets
the user try a model before saving it (the app's first-run settings, "Test connection").

Front ends never build the model client themselves: the launcher hands them this check, so the
app stays independent of how models are called (an import-linter contract in pyproject.toml).
"""

from __future__ import annotations

import asyncio

from openhands_tui.sdk.llm.client import LLM

__all__ = ["check_connection"]

#: A check fails fast: no retries, and a provider that does not answer in this many seconds failed.
CHECK_TIMEOUT = 30


def check_connection(model: str, api_key: str | None, base_url: str | None) -> str:
    """The model's answer to "Say OK.", or the provider's error raised as it came (any
    exception: every one is worth showing whole). Blocks while the request runs: call it from a
    worker thread, never from an event loop."""
    llm = LLM(model=model, api_key=api_key, base_url=base_url, num_retries=0, timeout=CHECK_TIMEOUT)
    response = asyncio.run(llm.complete([{"role": "user", "content": "Say OK."}]))
    return response.text
