"""How a litellm exception becomes one of ours: which failures are worth a retry (and after
how long the provider asked us to wait), which are the credentials, which the context window.
Takes the litellm module as an argument, so only sdk/llm/client.py imports litellm."""

from __future__ import annotations

import asyncio
import json
import re
from types import ModuleType

from openhands_tui.sdk.errors import (
    LLMAuthError,
    LLMContextWindowError,
    LLMError,
    LLMTransientError,
    LLMUnreachableError,
    LLMUnsupportedParameterError,
)
from openhands_tui.sdk.llm.rate_limit_reset import spent_limit_resets_in

#: Request parameters we send that some OpenAI-compatible servers and proxies refuse (400).
OPTIONAL_PARAMETERS = ("stream_options",)
#: What servers say when they cannot call tools, and what the user can do about it.
_NO_TOOL_CALLING = (
    ("--enable-auto-tool-choice", "start vLLM with --enable-auto-tool-choice and a --tool-call-parser"),
    ("does not support tools", "choose a model that supports tool calling"),
    ("tools are not supported", "choose a model or server that supports tool calling"),
)


def classify_error(exc: Exception, litellm: ModuleType, base_url: str | None = None) -> LLMError:
    """Ours for `exc`, carrying the provider's Retry-After when it gave one. `base_url`: where
    the request went, to say which server could not be reached."""
    errors = litellm.exceptions
    message = _short(exc)
    if isinstance(exc, errors.ContextWindowExceededError):
        return LLMContextWindowError(message)
    if isinstance(exc, errors.AuthenticationError | errors.PermissionDeniedError):
        return LLMAuthError(message)
    if isinstance(exc, errors.BadRequestError | errors.UnprocessableEntityError):
        refused = _refused_request(message)
        if refused is not None:
            return refused
    if isinstance(exc, errors.RateLimitError):
        return LLMTransientError(message, retry_after=_retry_after(exc, rate_limited=True))
    transient = (
        errors.Timeout,
        errors.APIConnectionError,
        errors.InternalServerError,
        errors.ServiceUnavailableError,
        errors.BadGatewayError,
        asyncio.TimeoutError,
        ConnectionError,
    )
    unreachable = _unreachable(exc, base_url)
    if unreachable is not None and isinstance(exc, (*transient, OSError)):
        return LLMUnreachableError(unreachable)
    if isinstance(exc, transient):
        return LLMTransientError(message, retry_after=_retry_after(exc))
    status = getattr(exc, "status_code", None)
    if isinstance(status, int) and (status >= 500 or status in (408, 409, 429)):
        return LLMTransientError(message, retry_after=_retry_after(exc))
    if type(exc).__module__.startswith(("httpx", "httpcore", "aiohttp")):
        return LLMTransientError(message)
    return LLMError(message)


#: How a connection that never opened is said by aiohttp, httpx and the system, and in our words.
_NOT_THERE = (
    ("connection refused", "connection refused"),
    ("connectionrefusederror", "connection refused"),
    ("connect call failed", "connection refused"),
    ("name or service not known", "no such host"),
    ("nodename nor servname", "no such host"),
    ("temporary failure in name resolution", "the host name could not be looked up"),
    ("no route to host", "no route to the host"),
    ("network is unreachable", "the network is unreachable"),
)
_HOST = re.compile(r"host ([\w.\-\[\]:]+?):(\d+)")


def _unreachable(exc: BaseException, base_url: str | None) -> str | None:
    """`cannot reach the model server at HOST:PORT (connection refused)` for a connection that
    never opened; None for anything else. The OpenAI client says only "Connection error.": the
    cause is further down the exception's chain."""
    chain, seen = [], 0
    link: BaseException | None = exc
    while link is not None and seen < 8:
        chain.append(f"{type(link).__name__} {link}")
        link, seen = link.__cause__ or link.__context__, seen + 1
    text = " ".join(chain)
    lowered = text.lower()
    why = next((said for sign, said in _NOT_THERE if sign in lowered), None)
    if why is None:
        return None
    where = _HOST.search(text)
    at = f" at {where.group(1)}:{where.group(2)}" if where else f" at {base_url}" if base_url else ""
    return f"cannot reach the model server{at} ({why}); check --base-url and that the server is running"


def _refused_request(message: str) -> LLMError | None:
    """A 400 that says what the server cannot take, told so the user knows why."""
    for parameter in OPTIONAL_PARAMETERS:
        if parameter in message:
            why = f"the provider does not take the `{parameter}` request parameter (some proxies and servers refuse it)"
            return LLMUnsupportedParameterError(f"{why}: {message}", parameter)
    lowered = message.lower()
    for sign, remedy in _NO_TOOL_CALLING:
        if sign.lower() in lowered:
            return LLMError(f"the model server cannot call tools, which every step needs ({remedy}): {message}")
    return None


def _retry_after(exc: Exception, rate_limited: bool = False) -> float | None:
    """The provider's `retry-after`; for a rate limit without one, when the spent limit resets
    (`llm/rate_limit_reset.py`: OpenAI's and Anthropic's rate-limit headers)."""
    sources = [
        source
        for source in (
            getattr(exc, "litellm_response_headers", None),
            getattr(exc, "headers", None),
            getattr(getattr(exc, "response", None), "headers", None),
        )
        if source
    ]
    for source in sources:
        value = source.get("retry-after") or source.get("Retry-After")
        if value is None:
            continue
        try:
            return float(value)
        except ValueError:
            return None
    if rate_limited:
        waits = [wait for wait in map(spent_limit_resets_in, sources) if wait is not None]
        return max(waits) if waits else None
    return None


def _short(exc: Exception) -> str:
    """One line: the provider's own error type and message when its JSON body is in the
    exception (litellm embeds it, sometimes as a bytes repr), else litellm's first line without
    the copy of itself it appends ("Original exception: ...")."""
    whole = str(exc).strip()
    said = _provider_said(whole)
    if said is not None:
        return f"{type(exc).__name__}: {said}"[:500]
    text = whole.splitlines()[0] if whole else type(exc).__name__
    text = _OBJECT_REPR.sub("", text)  # aiohttp's `ssl:<ssl.SSLContext object at 0x7f...>`
    return text.split(" Original exception: ", 1)[0].replace("litellm.", "")[:500]


_OBJECT_REPR = re.compile(r"\s*(?:\w+:)?<[\w.]+ object at 0x[0-9a-f]+>")


def _provider_said(text: str) -> str | None:
    """`type: message` from an error body in `text`: Anthropic's `{"type": "error", "error":
    {...}}`, OpenAI's `{"error": {...}}` or vLLM's `{"object": "error", ...}`."""
    start = text.find("{")
    if start < 0:
        return None
    try:
        body, _ = json.JSONDecoder().raw_decode(text[start:])
    except ValueError:
        return None
    error = body.get("error") if isinstance(body, dict) else None
    error = error if isinstance(error, dict) else body if isinstance(body, dict) else None
    message = error.get("message") if error is not None else None
    if not isinstance(message, str) or not message.strip():
        return None
    kind = error.get("type") if error is not None else None
    message = " ".join(message.split())
    return f"{kind}: {message}" if isinstance(kind, str) and kind and kind not in message else message
