"""Usage, when a provider does not simply report it: endpoints that refuse to be asked for it
(`stream_options`, remembered for the process), answers counted whole when the provider
reported nothing, and whether anyone else reads our calls through litellm's callbacks (then its
stream is read to its end, for them). Takes the litellm module as an argument, so only
sdk/llm/client.py imports litellm."""

from __future__ import annotations

import logging
from types import ModuleType

from openhands_tui.sdk.llm.response import LLMResponse

logger = logging.getLogger(__name__)

#: (model, base URL) of endpoints that answered `stream_options` with a 400 (some proxies and
#: older OpenAI-compatible servers), for the rest of this process.
_REFUSES_STREAM_OPTIONS: set[tuple[str, str | None]] = set()


def refused_stream_options(model: str, base_url: str | None) -> bool:
    return (model, base_url) in _REFUSES_STREAM_OPTIONS


def remember_refusal(model: str, base_url: str | None) -> None:
    if (model, base_url) not in _REFUSES_STREAM_OPTIONS:
        _REFUSES_STREAM_OPTIONS.add((model, base_url))
        logger.info("%s at %s refuses stream_options: no longer sent there", model, base_url)


def answer_tokens(litellm: ModuleType, model: str, response: LLMResponse) -> int:
    """The answer's tokens, counted as litellm counts an answer whose provider reported none
    (a local server that ignores `include_usage`, an endpoint that refused `stream_options`),
    but over the whole answer: litellm's own count saw only the chunks it still kept."""
    answer = response.text + response.reasoning + "".join(c.name + c.arguments for c in response.tool_calls)
    try:
        return int(litellm.token_counter(model=model, text=answer, count_response_tokens=True))
    except Exception:  # a count is not worth failing the call over
        return response.usage.completion_tokens


def reports_to_others(litellm: ModuleType) -> bool:
    """Whether anyone registered litellm callbacks (a strategy sending calls to an observability
    service through litellm, say): their success events need litellm's stream read to its end."""
    return any(getattr(litellm, name, None) for name in ("callbacks", "success_callback", "_async_success_callback"))
