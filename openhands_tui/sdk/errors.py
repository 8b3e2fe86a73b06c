"""Typed errors of the engine.

Two families: *user-facing errors* (bad strategy, bad settings, bad session) carry one line
that names the file or flag and the cause, so the CLI can print them without a traceback;
*LLM errors* tell the run loop whether retrying can help.
"""

from __future__ import annotations


class OpenHandsTUIError(Exception):
    """Base of every error the CLI reports as a one-line message (exit code 2 unless noted)."""

    exit_code = 2


class StrategyError(OpenHandsTUIError):
    """A strategy file could not be loaded, set up, or asked for an agent."""


class SettingsError(OpenHandsTUIError):
    """Missing or contradictory settings (no model, unreadable config file...)."""


class ModelNotConfigured(SettingsError):
    """No model is set anywhere (flags, environment, session, config file): the app can ask."""


class SessionError(OpenHandsTUIError):
    """A stored session is missing or damaged beyond the recoverable cases."""


class StorageError(SessionError):
    """The session could not be written (disk full, read-only, removed): the run stops cleanly
    and what was written stays loadable."""

    exit_code = 1


class ToolResolutionError(OpenHandsTUIError):
    """An agent names a tool nobody registered."""


class LLMError(Exception):
    """A model call failed after the retry layer gave up (or could not retry)."""

    retryable = False


class LLMAuthError(LLMError):
    """The provider refused the credentials: retrying cannot help."""


class LLMContextWindowError(LLMError):
    """The request no longer fits in the model's context window."""


class LLMTransientError(LLMError):
    """Rate limit, 5xx, timeout or dropped connection: worth retrying with backoff."""

    retryable = True

    def __init__(self, message: str, retry_after: float | None = None) -> None:
        super().__init__(message)
        self.retry_after = retry_after


class LLMUnreachableError(LLMTransientError):
    """The model server could not be reached at all (refused, no such host, no route): retried
    only briefly, since a server that is not there seldom appears within seconds."""


class LLMBadResponseError(LLMError):
    """The provider answered with something that is not a usable completion."""


class LLMUnsupportedParameterError(LLMError):
    """The provider refused a request parameter it does not know (a proxy refusing
    `stream_options`): the same request without it may well be taken."""

    def __init__(self, message: str, parameter: str) -> None:
        super().__init__(message)
        self.parameter = parameter
