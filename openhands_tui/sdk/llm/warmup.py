"""litellm's first call made early, offline, by a caller with time to spare (the app's
background thread, the warm server), so that the user's first request does not pay for it."""

from __future__ import annotations

import asyncio
import logging
from types import ModuleType

from openhands_tui.sdk.llm.client import load_litellm

__all__ = ["warm_up"]


def warm_up() -> ModuleType:
    """Import litellm and put one offline completion through it (litellm's `mock_response`:
    no request is sent), for a caller with time to spare before the first real call.

    litellm's first call imports ~40 more modules; done here, on a background thread, the
    user's first request does not wait for them (measured: first call 277 ms -> 23 ms). The
    offline answer reports its usage, as the providers we call do, so litellm has no tokens to
    estimate and its tokenizer stays unloaded (`llm/lazy_encoding.py`). A warm-up that fails only
    leaves the first call slower.
    """
    litellm = load_litellm()

    async def offline_call() -> None:
        answer = litellm.ModelResponse(
            choices=[{"message": {"role": "assistant", "content": "ok"}}],
            usage={"prompt_tokens": 2, "completion_tokens": 1, "total_tokens": 3},
        )
        stream = await litellm.acompletion(
            model="openai/warm-up",
            messages=[{"role": "user", "content": "warm up"}],
            mock_response=answer,
            stream=True,
            stream_options={"include_usage": True},
            api_key="unused",
        )
        async for _ in stream:
            pass

    try:
        asyncio.run(offline_call())
    except Exception:
        logging.getLogger(__name__).debug("litellm warm-up failed", exc_info=True)
    return litellm
