"""The model client: the only module that imports litellm, and only when a call is made.

`import litellm` costs about two seconds and, unless told otherwise, fetches a price list
over the network, so it happens lazily (or on the app's background thread via `llm_warmup.warm_up()`), with
the environment set first. Retries live here and only here: litellm's own retry layer and
the OpenAI client's are switched off so that backoff is not stacked three deep.

Provider differences live here too: which provider a model is (litellm says), and from that
how a request is shaped (`llm/provider.py`): Claude's cache breakpoints and its thinking blocks
sent back, a `prompt_cache_key` where one is taken, the reasoning effort where the model
reasons; and a call's price with cache reads and writes at litellm's cache rates. An endpoint
that refuses `stream_options` (some proxies) is asked again without it, and remembered.
"""

from __future__ import annotations

import asyncio
import logging
import random
import time
from collections.abc import Callable
from functools import lru_cache
from typing import Any

from pydantic import ConfigDict, Field, SecretStr

from openhands_tui.sdk.errors import (
    LLMError,
    LLMTransientError,
    LLMUnreachableError,
    LLMUnsupportedParameterError,
)
from openhands_tui.sdk.llm.errors import classify_error
from openhands_tui.sdk.llm.history import sending
from openhands_tui.sdk.llm.litellm_import import load_litellm, set_litellm_environment
from openhands_tui.sdk.llm.metrics import MeteredModel
from openhands_tui.sdk.llm.provider import (
    last_tool_turn_lacks_thinking,
    takes_cache_breakpoints,
    takes_thinking_blocks,
    with_breakpoints,
    without_thinking,
)
from openhands_tui.sdk.llm.reasoning import ReasoningEffort
from openhands_tui.sdk.llm.response import (
    LLMResponse,
    TextCallback,
    ToolCall,
    Usage,
    assemble_stream,
    from_message,
)
from openhands_tui.sdk.llm.usage import answer_tokens, refused_stream_options, remember_refusal, reports_to_others

__all__ = [
    "LLM",
    "LLMResponse",
    "ReasoningEffort",
    "ToolCall",
    "Usage",
    "load_litellm",
    "set_litellm_environment",
]

RetryCallback = Callable[[int, float, LLMError], None]
#: Retries when the server could not be reached at all: ~3 s, not the half-minute a busy one gets.
UNREACHABLE_RETRIES = 2

logger = logging.getLogger(__name__)


class LLM(MeteredModel):
    """A model and how to reach it; the key is never printed or stored. SDK arguments with no
    meaning here fail naming what instead (see MeteredModel)."""

    model_config = ConfigDict(frozen=True, defer_build=True, extra="forbid")

    model: str = Field(description="litellm model name, e.g. anthropic/claude-sonnet-4-5 or openai/gpt-4o.")
    api_key: SecretStr | None = Field(default=None, description="The provider's key (a str or SecretStr).")
    base_url: str | None = Field(default=None, description="An OpenAI-compatible endpoint or proxy.")
    api_version: str | None = Field(default=None, description="Provider API version (Azure).")
    usage_id: str = Field(default="default", description="A name for this LLM's use (agent, condenser...).")
    temperature: float | None = Field(default=None, ge=0, description="Sampling temperature, if set.")
    top_p: float | None = Field(default=None, ge=0, le=1, description="Nucleus sampling; provider default if unset.")
    top_k: int | None = Field(default=None, ge=0, description="Top-k sampling, where the provider has it.")
    seed: int | None = Field(default=None, description="Sampling seed, where the provider has it.")
    max_output_tokens: int | None = Field(default=None, ge=1, description="Longest answer, in tokens.")
    extra_headers: dict[str, str] | None = Field(default=None, description="HTTP headers added to every request.")
    input_cost_per_token: float | None = Field(default=None, ge=0, description="USD per prompt token, over litellm's.")
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
    reasoning_effort: ReasoningEffort | None = Field(
        default=None,
        description=(
            "How much the model thinks before it answers (litellm maps it: Claude extended thinking with a "
            "budget, OpenAI reasoning effort, Gemini thinking). 'off' or None: no reasoning is asked for."
        ),
    )
    caching_prompt: bool = Field(
        default=True,
        description="Use the provider's prompt cache: breakpoints for Claude, a per-role prompt_cache_key for OpenAI.",
    )

    def window(self) -> int | None:
        """How many input tokens a request may hold, if known."""
        return self.context_window or _listed_window(self.model)

    def takes_images(self) -> bool | None:
        """Whether the model accepts images: litellm's model list says, for models it knows
        (None: a model it does not know, such as one behind an OpenAI-compatible server; images
        are sent and the provider answers for itself)."""
        return _takes_images(self.model)

    @property
    def thinks(self) -> bool:
        return self.reasoning_effort not in (None, "off")

    def writes_cache_explicitly(self) -> bool:
        """Whether prompts are cached only where we mark them, and writing costs extra (Claude):
        agents sharing a prefix then do best to let one request write it first."""
        return self.caching_prompt and takes_cache_breakpoints(_provider(self.model, self.base_url), self.model)

    async def complete(
        self,
        messages: list[dict[str, Any]],
        tools: list[dict[str, Any]] | None = None,
        *,
        on_text: TextCallback | None = None,
        on_retry: RetryCallback | None = None,
        on_thinking: TextCallback | None = None,
        cache_key: str | None = None,
        on_accepted: Callable[[], None] | None = None,
    ) -> LLMResponse:
        """Ask the model once, retrying transient failures with capped exponential backoff.
        `on_text` and `on_thinking` get the answer and the thinking as they stream; `cache_key`
        names the agent's prompt prefix for providers that take one; `on_accepted` is called
        once the provider has begun answering (what the request cached is usable). `on_retry`
        is told before each new attempt: after a transient failure (with the wait), and once,
        with no wait, when the endpoint refused `stream_options` (see `_sends_stream_options`)."""
        attempt = 0
        while True:
            sends_stream_options = self._sends_stream_options()  # what the request built next carries
            try:
                response = await self._attempt(messages, tools, (on_text, on_thinking), cache_key, on_accepted)
                response.retries = attempt
                self.count(response)
                return response
            except LLMUnsupportedParameterError as error:
                if error.parameter != "stream_options" or not sends_stream_options:
                    raise  # refused without it: the provider's answer, not ours to retry
                remember_refusal(self.model, self.base_url)
                if on_retry is not None:
                    on_retry(attempt, 0.0, error)
            except LLMTransientError as error:
                most = min(self.num_retries, UNREACHABLE_RETRIES) if isinstance(error, LLMUnreachableError) else None
                if attempt >= (most if most is not None else self.num_retries):
                    raise
                if error.retry_after is not None and error.retry_after > self.retry_after_cap:
                    asked = f"the provider asked to wait {error.retry_after:g}s, more than retry_after_cap"
                    raise LLMTransientError(f"{error} ({asked} {self.retry_after_cap:g}s)") from None
                delay = self._backoff(attempt, error.retry_after)
                attempt += 1
                if on_retry is not None:
                    on_retry(attempt, delay, error)
                await asyncio.sleep(delay)

    def _sends_stream_options(self) -> bool:
        """Whether a request asks for the usage with `stream_options`: streamed, and not to an
        endpoint that refused it (remembered for the process, so later calls — other agents, the
        condenser, later runs — do not pay for the refusal again)."""
        return self.stream and not refused_stream_options(self.model, self.base_url)

    def _backoff(self, attempt: int, retry_after: float | None) -> float:
        if retry_after is not None:
            return min(max(retry_after, 0.0), self.retry_after_cap)
        ceiling = min(self.retry_max_wait, self.retry_min_wait * (2**attempt))
        return ceiling * (0.5 + random.random() / 2)  # jitter keeps parallel agents apart

    def request(
        self, messages: list[dict[str, Any]], tools: list[dict[str, Any]] | None, cache_key: str | None = None
    ) -> dict[str, Any]:
        """The arguments for litellm: the history as this provider wants it (cache breakpoints,
        thinking blocks or none) and the reasoning and caching settings it takes."""
        provider = _provider(self.model, self.base_url)
        claude = takes_thinking_blocks(provider, self.model)
        if not claude:
            messages = without_thinking(messages)
        kwargs: dict[str, Any] = {
            "model": self.model,
            "stream": self.stream,
            "timeout": self.timeout,
            "num_retries": 0,
            "max_retries": 0,
        }
        thinking = self.thinks and _reasons(self.model) and not (claude and last_tool_turn_lacks_thinking(messages))
        if thinking:
            kwargs["reasoning_effort"] = self.reasoning_effort
        if self.caching_prompt and takes_cache_breakpoints(provider, self.model):
            messages, tools = with_breakpoints(messages, tools)
        elif self.caching_prompt and cache_key and _takes_cache_key(self.model, provider):
            kwargs["prompt_cache_key"] = cache_key
        kwargs["messages"] = messages
        if tools:
            kwargs["tools"] = tools
            kwargs[SKIP_MCP_GATEWAY] = True
        if self.stream:
            kwargs["stream_options"] = {"include_usage": True}
            if not self._sends_stream_options():
                # litellm's stream still ends with the usage as asked above (the provider's if it
                # sends one anyway, else litellm's count); only the request leaves the option out
                kwargs["additional_drop_params"] = ["stream_options"]
        if self.api_key is not None:
            kwargs["api_key"] = self.api_key.get_secret_value()
        if self.base_url:
            kwargs["api_base"] = self.base_url
        if self.temperature is not None and not (thinking and claude):  # Claude: thinking needs the default
            kwargs["temperature"] = self.temperature
        if self.max_output_tokens is not None:
            kwargs["max_tokens"] = self.max_output_tokens
        kwargs.update({k: getattr(self, k) for k in _PASSED_THROUGH if getattr(self, k) is not None})
        return kwargs

    async def _attempt(
        self,
        messages: list[dict[str, Any]],
        tools: list[dict[str, Any]] | None,
        callbacks: tuple[TextCallback | None, TextCallback | None],
        cache_key: str | None,
        on_accepted: Callable[[], None] | None,
    ) -> LLMResponse:
        litellm = load_litellm()
        started = time.perf_counter()
        try:
            kwargs = self.request(messages, tools, cache_key)
            # a History's messages: what litellm makes of each (its copy, the JSON) is made once
            with sending(messages, _provider(self.model, self.base_url), (self.model, self.base_url)):
                raw = await litellm.acompletion(**kwargs)  # litellm's timeout: connecting, each read
            if on_accepted is not None:
                on_accepted()  # streaming: the provider has answered with its headers
            if self.stream:
                # the rest of the answer within `timeout` too: a stream that trickles a byte
                # now and then would otherwise never time out
                async with asyncio.timeout(self.timeout):
                    response = await assemble_stream(raw, *callbacks, for_us_only=not reports_to_others(litellm))
                if response.usage_from_part:
                    response.usage.completion_tokens = answer_tokens(litellm, self.model, response)
            else:
                response = from_message(raw)
        except TimeoutError:
            raise LLMTransientError(f"the answer did not complete within {self.timeout:g}s (LLM_TIMEOUT)") from None
        except LLMError:
            raise
        except Exception as exc:  # litellm raises many types; sort them into ours
            raise classify_error(exc, litellm, self.base_url) from exc
        response.latency_ms = (time.perf_counter() - started) * 1000
        response.usage.cost = self._cost(response.usage)
        return response

    def _cost(self, usage: Usage) -> float | None:
        """litellm's price, cache reads and writes at their own rates."""
        prices = (self.input_cost_per_token, self.output_cost_per_token)
        if prices != (None, None):
            return usage.prompt_tokens * (prices[0] or 0.0) + usage.completion_tokens * (prices[1] or 0.0)
        if self.model in _UNPRICED:
            return None
        try:
            prompt_cost, completion_cost = load_litellm().cost_per_token(
                model=self.model,
                prompt_tokens=usage.prompt_tokens,
                completion_tokens=usage.completion_tokens,
                cache_read_input_tokens=usage.cache_read_tokens,
                cache_creation_input_tokens=usage.cache_write_tokens,
            )
        except Exception:
            _UNPRICED.add(self.model)
            return None
        return float(prompt_cost + completion_cost)


#: litellm's own switch (it pops it; the provider never sees it) past its check for tools that
#: its proxy's MCP gateway would run. Ours are plain functions, and the check imports the `mcp`
#: SDK: ~0.5 s on the first call with tools. tests/sdk/test_llm_startup.py fails if the name
#: stops working (the module is imported again, or the flag reaches the request).
SKIP_MCP_GATEWAY = "_skip_mcp_handler"
_UNPRICED: set[str] = set()
_PASSED_THROUGH = ("top_p", "top_k", "seed", "api_version", "extra_headers")


@lru_cache(maxsize=64)
def _listed_window(model: str) -> int | None:
    try:
        window = load_litellm().get_model_info(model).get("max_input_tokens")
    except Exception:  # an unknown model: litellm raises rather than returning None
        return None
    return int(window) if window else None


@lru_cache(maxsize=64)
def _provider(model: str, base_url: str | None) -> str:
    try:
        return str(load_litellm().get_llm_provider(model, api_base=base_url)[1])
    except Exception:
        return model.split("/", 1)[0] if "/" in model else ""


@lru_cache(maxsize=64)
def _takes_images(model: str) -> bool | None:
    litellm = load_litellm()
    try:
        litellm.get_model_info(model)
    except Exception:  # unknown to litellm: it cannot say
        return None
    try:
        return bool(litellm.supports_vision(model=model))
    except Exception:
        return None


@lru_cache(maxsize=64)
def _reasons(model: str) -> bool:
    """Whether to send a reasoning setting: yes for models litellm lists as reasoning and for
    models it does not know (an OpenAI-compatible server may well reason); no for a listed
    model that does not (it would refuse the parameter)."""
    litellm = load_litellm()
    try:
        litellm.get_model_info(model)
    except Exception:
        return True
    if litellm.supports_reasoning(model=model):
        return True
    logger.warning("%s does not reason: its reasoning_effort setting is not sent", model)
    return False


@lru_cache(maxsize=64)
def _takes_cache_key(model: str, provider: str) -> bool:
    try:
        supported = load_litellm().get_supported_openai_params(model=model, custom_llm_provider=provider)
    except Exception:
        return False
    return "prompt_cache_key" in (supported or ())
