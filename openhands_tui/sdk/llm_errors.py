"""How a litellm exception becomes one of ours: which failures are worth a retry (and after
how long the provider asked us to wait), which are the credentials, which the context window.
Takes the litellm module as an argument, so only sdk/llm.py imports litellm."""

from __future__ import annotations

import asyncio
from types import ModuleType

from openhands_tui.sdk.errors import LLMAuthError, LLMContextWindowError, LLMError, LLMTransientError


def classify_error(exc: Exception, litellm: ModuleType) -> LLMError:
    """Ours for `exc`, carrying the provider's Retry-After when it gave one."""
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
