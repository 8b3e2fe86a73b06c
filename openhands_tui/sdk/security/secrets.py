"""Keeping secrets out of everything we write or show.

API keys (the model's, and the values of secret-looking environment variables such as
`*_API_KEY`, `*_TOKEN`, `*_SECRET`, `LLM_API_KEY`) are replaced by a marker in every event
before it is stored, printed, shown, or folded into what the model is sent next, and in log
records. Short values are left alone: redacting "1" or "true" would mangle everything.
"""

from __future__ import annotations

import json
import logging
import os
import re
from collections.abc import Iterable, Mapping

SECRET_NAME = re.compile(
    r"(API_?KEY|_TOKEN$|^TOKEN$|_SECRET|SECRET_|PASSWORD|PASSWD|PRIVATE_?KEY|ACCESS_?KEY|_CREDENTIALS?$)",
    re.IGNORECASE,
)
MIN_SECRET_LENGTH = 8


def secret_environment(environ: Mapping[str, str] | None = None) -> dict[str, str]:
    """Environment variables that look like secrets, with values long enough to matter."""
    environ = os.environ if environ is None else environ
    return {
        name: value for name, value in environ.items() if SECRET_NAME.search(name) and len(value) >= MIN_SECRET_LENGTH
    }


class Redactor:
    def __init__(self, secrets: Mapping[str, str] | None = None) -> None:
        self._secrets: dict[str, str] = {}
        self._pattern: re.Pattern[str] | None = None
        for label, value in (secrets or {}).items():
            self.add(value, label)

    @classmethod
    def from_environment(cls, extra: Iterable[tuple[str, str | None]] = ()) -> Redactor:
        redactor = cls(secret_environment())
        for label, value in extra:
            if value:
                redactor.add(value, label)
        return redactor

    @property
    def active(self) -> bool:
        return self._pattern is not None

    def add(self, value: str, label: str = "secret") -> None:
        if len(value) < MIN_SECRET_LENGTH or value in self._secrets:
            return
        self._secrets[value] = label
        escaped = json.dumps(value)[1:-1]  # how the value looks inside a JSON string
        if escaped != value:
            self._secrets[escaped] = label
        alternatives = sorted(self._secrets, key=len, reverse=True)
        self._pattern = re.compile("|".join(re.escape(v) for v in alternatives))

    def redact(self, text: str) -> str:
        if self._pattern is None:
            return text
        return self._pattern.sub(lambda m: f"[redacted {self._secrets[m.group(0)]}]", text)


class RedactingFilter(logging.Filter):
    """A logging filter that redacts formatted messages (attach to handlers that write files)."""

    def __init__(self, redactor: Redactor) -> None:
        super().__init__()
        self.redactor = redactor

    def filter(self, record: logging.LogRecord) -> bool:
        message = record.getMessage()
        redacted = self.redactor.redact(message)
        if record.exc_info and record.exc_info[1] is not None:
            record.exc_text = self.redactor.redact(logging.Formatter().formatException(record.exc_info))
            record.exc_info = None
        if redacted != message:
            record.msg, record.args = redacted, None
        return True
