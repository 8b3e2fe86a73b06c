"""The model client: the only module that imports litellm, and only when a call is made.

`import litellm` costs about two seconds and, unless told otherwise, fetches a price list
over the network, so it happens lazily (or on the app's background thread via `warm_up()`), with
the environment set first. Retries live here and only here: litellm's own retry layer and
the OpenAI client's are switched off so that backoff is not stacked three deep.
"""

from __future__ import annotations

import asyncio
import gc
import logging
import os
import random
import threading
import time
from collections.abc import Callable
from functools import lru_cache
from types import ModuleType
from typing import Any

from pydantic import ConfigDict, Field, PrivateAttr, SecretStr

from openhands_tui.sdk.errors import (
    LLMAuthError,
    LLMBadResponseError,
    LLMContextWindowError,
    LLMError,
    LLMTransientError,
)
from openhands_tui.sdk.llm_metrics import Metrics, TokenUsage
from openhands_tui.sdk.message import Message, TextContent
from openhands_tui.sdk.model import Model, StrictModel

_LITELLM_ENV = {
    # Use the price list shipped inside litellm instead of downloading one at import.
    "LITELLM_LOCAL_MODEL_COST_MAP": "True",
    # litellm scans every message of every request for base64 to shorten in its own logs;
    # we log nothing through litellm, and the scan grows with the history (O(n) per step).
    "MAX_BASE64_LENGTH_FOR_LOGGING": "0",
    # Send OpenAI-compatible requests with litellm's own httpx handler rather than the
    # OpenAI SDK, whose per-message request transform costs ~0.1 ms per history message
    # per call (measured: 290 ms/step at 1,000 steps vs 20 ms with this handler).
    "EXPERIMENTAL_OPENAI_BASE_LLM_HTTP_HANDLER": "true",
}

_lock = threading.Lock()
_litellm: ModuleType | None = None


def load_litellm() -> ModuleType:
    """Import and configure litellm once (thread-safe; the TUI calls this in the background)."""
    global _litellm
    if _litellm is not None:
        return _litellm
    with _lock:
        if _litellm is None:
            for key, value in _LITELLM_ENV.items():
                os.environ.setdefault(key, value)
            import litellm

            # litellm prints provider hints to stdout in places; stdout belongs to our output.
            litellm.suppress_debug_info = True
            litellm.drop_params = True
            for name in ("LiteLLM", "LiteLLM Router", "LiteLLM Proxy", "litellm"):
                logging.getLogger(name).setLevel(logging.ERROR)
            # The import leaves ~1M long-lived objects (price tables, provider configs). Moving
            # them out of the collector's view keeps full collections cheap for the rest of a
            # long session (measured: the slowest tenth of steps at 1,000 steps, 45 -> 30 ms).
            gc.freeze()
            _litellm = litellm
    return _litellm


def warm_up() -> ModuleType:
    """Import litellm and put one offline completion through it (litellm's `mock_response`:
    no request is sent), for a caller with time to spare before the first real call.

    litellm's first call imports ~40 more modules and loads its tokenizer; done here, on a
    background thread, the user's first request does not wait for them (measured: first call
    277 ms -> 23 ms). A warm-up that fails only leaves the first call slower.
    """
    litellm = load_litellm()

    async def offline_call() -> None:
        stream = await litellm.acompletion(
            model="openai/warm-up",
            messages=[{"role": "user", "content": "warm up"}],
            mock_response="ok",
            stream=True,
            api_key="unused",
        )
        async for _ in stream:
            pass

    try:
        asyncio.run(offline_call())
    except Exception:
        logging.getLogger(__name__).debug("litellm warm-up failed", exc_info=True)
    return litellm


class ToolCall(Model):
    id: str
    name: str
    arguments: str = ""


class Usage(Model):
    prompt_tokens: int = 0
    completion_tokens: int = 0
    cache_read_tokens: int = 0
    cache_write_tokens: int = 0
    cost: float | None = None


class LLMResponse(Model):
    id: str
    text: str = ""
    tool_calls: list[ToolCall] = Field(default_factory=list)
    finish_reason: str | None = None
    usage: Usage = Field(default_factory=Usage)
    latency_ms: float = 0.0
    retries: int = 0

    @property
    def message(self) -> Message:
        """The answer as the SDK's Message (its text; tool calls are in `tool_calls`)."""
        return Message(role="assistant", content=[TextContent(text=self.text)])


TextCallback = Callable[[str], None]
RetryCallback = Callable[[int, float, LLMError], None]


_ENGINE_SETS_IT = "openhands_tui sets this itself; remove it"
#: OpenHands SDK `LLM` arguments this LLM does not take, and what to do instead.
SDK_LLM_INSTEAD = {
    **dict.fromkeys(
        ("drop_params", "modify_params", "native_tool_calling", "force_string_serializer", "custom_tokenizer"),
        _ENGINE_SETS_IT,
    ),
    "max_message_chars": "long tool output is cut by each tool (terminal keeps head and tail); remove it",
    "caching_prompt": "the system prompt never changes, so provider prompt caches hit by themselves; remove it",
    "prompt_cache_retention": "prompt caching is left to the provider's defaults; remove it",
    "log_completions": "every request and answer is in the session log (events.jsonl); remove it",
    "log_completions_folder": "every request and answer is in the session log (events.jsonl); remove it",
    "openrouter_site_url": "set the OR_SITE_URL environment variable instead",
    "openrouter_app_name": "set the OR_APP_NAME environment variable instead",
    "aws_access_key_id": "set AWS_ACCESS_KEY_ID in the environment instead",
    "aws_secret_access_key": "set AWS_SECRET_ACCESS_KEY in the environment instead",
    "aws_region_name": "set AWS_REGION_NAME in the environment instead",
    "ollama_base_url": "use base_url",
    "disable_vision": "tool results are text here; remove it",
    "disable_stop_word": "no stop words are sent; remove it",
    "extended_thinking_budget": "not passed to the provider; remove it",
    "reasoning_summary": "not passed to the provider; remove it",
    "enable_encrypted_reasoning": "not passed to the provider; remove it",
    "safety_settings": "not passed to the provider; remove it",
    "litellm_extra_body": "not passed to the provider; remove it",
    "retry_multiplier": "backoff doubles from retry_min_wait up to retry_max_wait; remove it",
    "model_canonical_name": "set context_window when litellm does not know the model's window; remove it",
    "retry_listener": "every retry is recorded as an agent_error event; remove it",
    "model_info": "set context_window instead",
}


class LLM(StrictModel):
    """A model and how to reach it. The API key is a SecretStr: never printed or stored.

    Takes the OpenHands SDK's arguments where they mean something here (`usage_id`, `top_p`,
    `top_k`, `seed`, `api_version`, `extra_headers`, `input_cost_per_token`...,
    `max_input_tokens` as `context_window`); any other argument fails at load with what to use
    instead. `llm.metrics` has its accumulated cost and tokens."""

    model_config = ConfigDict(frozen=True, defer_build=True, extra="forbid")
    sdk_instead = SDK_LLM_INSTEAD
    sdk_renamed = {"max_input_tokens": "context_window", "service_id": "usage_id"}

    model: str = Field(description="litellm model name, e.g. anthropic/claude-sonnet-4-5 or openai/gpt-4o.")
    api_key: SecretStr | None = Field(default=None, description="The provider's key (a str or SecretStr).")
    base_url: str | None = Field(default=None, description="An OpenAI-compatible endpoint or proxy.")
    api_version: str | None = Field(default=None, description="Provider API version (Azure).")
    usage_id: str = Field(default="default", description="A name for this LLM's use (agent, condenser...).")
    temperature: float | None = Field(
        default=None, ge=0, description="Sampling temperature; provider default if unset."
    )
    top_p: float | None = Field(default=None, ge=0, le=1, description="Nucleus sampling; provider default if unset.")
    top_k: int | None = Field(default=None, ge=0, description="Top-k sampling, where the provider has it.")
    seed: int | None = Field(default=None, description="Sampling seed, where the provider has it.")
    max_output_tokens: int | None = Field(default=None, ge=1, description="Longest answer, in tokens.")
    extra_headers: dict[str, str] | None = Field(default=None, description="HTTP headers added to every request.")
    input_cost_per_token: float | None = Field(
        default=None, ge=0, description="USD per prompt token (overrides litellm's price list)."
    )
    output_cost_per_token: float | None = Field(default=None, ge=0, description="USD per completion token.")
    timeout: float = Field(default=120.0, description="Seconds to wait for the model before retrying.")
    num_retries: int = Field(default=5, description="Retries on rate limits, 5xx and timeouts.")
    retry_min_wait: float = 1.0
    retry_max_wait: float = 30.0
    retry_after_cap: float = Field(default=300.0, description="Longest Retry-After we agree to wait.")
    stream: bool = True
    context_window: int | None = Field(
        default=None, description="Input tokens the model accepts; default: litellm's model list (None if unknown)."
    )

    _metrics: Metrics = PrivateAttr(default_factory=Metrics)

    @property
    def metrics(self) -> Metrics:
        """What calls through this LLM have cost so far (tokens, USD, latencies)."""
        if not self._metrics.model_name:
            self._metrics.model_name = self.model
        return self._metrics

    def model_copy(self, *, update: Any = None, deep: bool = False) -> Any:
        """A copy shares its metrics, unless it is given its own `usage_id` (the SDK's way to
        count a condenser's calls apart)."""
        copy: LLM = super().model_copy(update=update, deep=deep)
        if update and ("usage_id" in update or "service_id" in update):
            copy._metrics = Metrics(model_name=copy.model)
        else:
            copy._metrics = self._metrics
        return copy

    def completion(
        self, messages: list[Message] | list[dict[str, Any]], tools: list[dict[str, Any]] | None = None
    ) -> LLMResponse:
        """The SDK's synchronous call, for a custom tool's executor (it runs in a worker thread).
        In async code, `await llm.complete(...)`."""
        try:
            asyncio.get_running_loop()
        except RuntimeError:
            chat = [m.to_chat() if isinstance(m, Message) else m for m in messages]
            return asyncio.run(self.complete(chat, tools))
        raise RuntimeError("LLM.completion() blocks: call it from a tool executor, or use `await llm.complete(...)`")

    def window(self) -> int | None:
        """How many input tokens a request may hold, if known."""
        return self.context_window or _listed_window(self.model)

    async def complete(
        self,
        messages: list[dict[str, Any]],
        tools: list[dict[str, Any]] | None = None,
        *,
        on_text: TextCallback | None = None,
        on_retry: RetryCallback | None = None,
    ) -> LLMResponse:
        """Ask the model once, retrying transient failures with capped exponential backoff."""
        attempt = 0
        while True:
            try:
                response = await self._attempt(messages, tools, on_text)
                response.retries = attempt
                self._count(response)
                return response
            except LLMTransientError as error:
                if attempt >= self.num_retries:
                    raise
                delay = self._backoff(attempt, error.retry_after)
                attempt += 1
                if on_retry is not None:
                    on_retry(attempt, delay, error)
                await asyncio.sleep(delay)

    def _count(self, response: LLMResponse) -> None:
        usage = response.usage
        self.metrics.record(
            TokenUsage(
                model=self.model,
                prompt_tokens=usage.prompt_tokens,
                completion_tokens=usage.completion_tokens,
                cache_read_tokens=usage.cache_read_tokens,
                cache_write_tokens=usage.cache_write_tokens,
                response_id=response.id,
            ),
            usage.cost,
            response.latency_ms / 1000,
        )

    def _backoff(self, attempt: int, retry_after: float | None) -> float:
        if retry_after is not None:
            return min(max(retry_after, 0.0), self.retry_after_cap)
        ceiling = min(self.retry_max_wait, self.retry_min_wait * (2**attempt))
        return ceiling * (0.5 + random.random() / 2)  # jitter keeps parallel agents apart

    async def _attempt(
        self, messages: list[dict[str, Any]], tools: list[dict[str, Any]] | None, on_text: TextCallback | None
    ) -> LLMResponse:
        litellm = load_litellm()
        kwargs: dict[str, Any] = {
            "model": self.model,
            "messages": messages,
            "stream": self.stream,
            "timeout": self.timeout,
            "num_retries": 0,
            "max_retries": 0,
        }
        if tools:
            kwargs["tools"] = tools
        if self.stream:
            kwargs["stream_options"] = {"include_usage": True}
        if self.api_key is not None:
            kwargs["api_key"] = self.api_key.get_secret_value()
        if self.base_url:
            kwargs["api_base"] = self.base_url
        if self.temperature is not None:
            kwargs["temperature"] = self.temperature
        if self.max_output_tokens is not None:
            kwargs["max_tokens"] = self.max_output_tokens
        for name in ("top_p", "top_k", "seed", "api_version", "extra_headers"):
            if getattr(self, name) is not None:
                kwargs[name] = getattr(self, name)
        started = time.perf_counter()
        try:
            raw = await litellm.acompletion(**kwargs)
            if self.stream:
                response = await _assemble_stream(raw, on_text)
            else:
                response = _from_message(raw)
        except LLMError:
            raise
        except Exception as exc:  # litellm raises many types; sort them into ours
            raise _classify(exc, litellm) from exc
        response.latency_ms = (time.perf_counter() - started) * 1000
        response.usage.cost = self._cost(response.usage)
        return response

    def _cost(self, usage: Usage) -> float | None:
        if self.input_cost_per_token is not None or self.output_cost_per_token is not None:
            return usage.prompt_tokens * (self.input_cost_per_token or 0.0) + usage.completion_tokens * (
                self.output_cost_per_token or 0.0
            )
        if self.model in _UNPRICED:
            return None
        try:
            prompt_cost, completion_cost = load_litellm().cost_per_token(
                model=self.model,
                prompt_tokens=usage.prompt_tokens,
                completion_tokens=usage.completion_tokens,
            )
        except Exception:
            _UNPRICED.add(self.model)
            return None
        return float(prompt_cost + completion_cost)


_UNPRICED: set[str] = set()


@lru_cache(maxsize=64)
def _listed_window(model: str) -> int | None:
    try:
        window = load_litellm().get_model_info(model).get("max_input_tokens")
    except Exception:  # an unknown model: litellm raises rather than returning None
        return None
    return int(window) if window else None


async def _assemble_stream(stream: Any, on_text: TextCallback | None) -> LLMResponse:
    response_id = ""
    text_parts: list[str] = []
    calls: dict[int, dict[str, str]] = {}
    finish_reason = None
    usage = Usage()
    async for chunk in stream:
        response_id = response_id or getattr(chunk, "id", "") or ""
        chunk_usage = getattr(chunk, "usage", None)
        if chunk_usage:
            usage = _usage(chunk_usage)
        if not chunk.choices:
            continue
        choice = chunk.choices[0]
        finish_reason = choice.finish_reason or finish_reason
        delta = choice.delta
        if delta is None:
            continue
        if delta.content:
            text_parts.append(delta.content)
            if on_text is not None:
                on_text(delta.content)
        for position, tc in enumerate(delta.tool_calls or ()):
            index = tc.index if tc.index is not None else position
            call = calls.setdefault(index, {"id": "", "name": "", "arguments": ""})
            if tc.id:
                call["id"] = tc.id
            if tc.function is not None:
                if tc.function.name and not call["name"]:
                    call["name"] = tc.function.name
                call["arguments"] += tc.function.arguments or ""
    tool_calls = [
        ToolCall(id=c["id"] or f"call_{response_id}_{i}", name=c["name"], arguments=c["arguments"])
        for i, c in sorted(calls.items())
    ]
    return LLMResponse(
        id=response_id or f"resp-{random.getrandbits(48):012x}",
        text="".join(text_parts),
        tool_calls=tool_calls,
        finish_reason=finish_reason,
        usage=usage,
    )


def _from_message(raw: Any) -> LLMResponse:
    if not getattr(raw, "choices", None):
        raise LLMBadResponseError("the model returned no choices")
    message = raw.choices[0].message
    tool_calls = [
        ToolCall(
            id=tc.id or f"call_{raw.id}_{i}",
            name=tc.function.name or "",
            arguments=tc.function.arguments or "",
        )
        for i, tc in enumerate(message.tool_calls or ())
    ]
    return LLMResponse(
        id=raw.id or f"resp-{random.getrandbits(48):012x}",
        text=message.content or "",
        tool_calls=tool_calls,
        finish_reason=raw.choices[0].finish_reason,
        usage=_usage(getattr(raw, "usage", None)),
    )


def _usage(raw: Any) -> Usage:
    if raw is None:
        return Usage()
    details = getattr(raw, "prompt_tokens_details", None)
    cache_read = getattr(details, "cached_tokens", None) or getattr(raw, "cache_read_input_tokens", 0) or 0
    return Usage(
        prompt_tokens=getattr(raw, "prompt_tokens", 0) or 0,
        completion_tokens=getattr(raw, "completion_tokens", 0) or 0,
        cache_read_tokens=cache_read,
        cache_write_tokens=getattr(raw, "cache_creation_input_tokens", 0) or 0,
    )


def _classify(exc: Exception, litellm: ModuleType) -> LLMError:
    errors = litellm.exceptions
    message = _short(exc)
    if isinstance(exc, errors.ContextWindowExceededError):
        return LLMContextWindowError(message)
    if isinstance(exc, errors.AuthenticationError | errors.PermissionDeniedError):
        return LLMAuthError(message)
    if isinstance(exc, errors.RateLimitError):
        return LLMTransientError(message, retry_after=_retry_after(exc))
    transient = (
        errors.Timeout,
        errors.APIConnectionError,
        errors.InternalServerError,
        errors.ServiceUnavailableError,
        errors.BadGatewayError,
        asyncio.TimeoutError,
        ConnectionError,
    )
    if isinstance(exc, transient):
        return LLMTransientError(message, retry_after=_retry_after(exc))
    status = getattr(exc, "status_code", None)
    if isinstance(status, int) and (status >= 500 or status in (408, 409, 429)):
        return LLMTransientError(message, retry_after=_retry_after(exc))
    if type(exc).__module__.startswith(("httpx", "httpcore", "aiohttp")):
        return LLMTransientError(message)
    return LLMError(message)


def _retry_after(exc: Exception) -> float | None:
    sources = (
        getattr(exc, "litellm_response_headers", None),
        getattr(exc, "headers", None),
        getattr(getattr(exc, "response", None), "headers", None),
    )
    for source in sources:
        if not source:
            continue
        value = source.get("retry-after") or source.get("Retry-After")
        if value is None:
            continue
        try:
            return float(value)
        except ValueError:
            return None
    return None


def _short(exc: Exception) -> str:
    text = str(exc).strip().splitlines()[0] if str(exc).strip() else type(exc).__name__
    return text[:500]
