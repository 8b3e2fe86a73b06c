"""Keeping secrets out of everything we write or show.

API keys (the model's, and the values of secret-looking environment variables such as
`*_API_KEY`, `*_TOKEN`, `*_SECRET`, `LLM_API_KEY`), and text shaped like a credential (a
password in a URL, a provider's token format) are replaced by a marker in every event
before it is stored, printed, shown, or folded into what the model is sent next, and in log
records. Short values are left alone: redacting "1" or "true" would mangle everything.
"""

from __future__ import annotations

import fnmatch
import json
import logging
import os
import re
from collections.abc import Iterable, Mapping
from pathlib import Path

from openhands_tui.sdk.shell.environment import shell_needs

SECRET_NAME = re.compile(
    r"(API_?KEY|_TOKEN$|^TOKEN$|_SECRET|SECRET_|PASSWORD|PASSWD|PRIVATE_?KEY|ACCESS_?KEY|_CREDENTIALS?$)",
    re.IGNORECASE,
)
MIN_SECRET_LENGTH = 8


def secret_environment(environ: Mapping[str, str] | None = None) -> dict[str, str]:
    """Values of the environment that may be secret, by name: every variable a shell does not
    need (`SHELL_NEEDS`) and the user did not keep, whatever it is called (`MYSQL_PWD`,
    `SENTRY_DSN`, `SLACK_WEBHOOK_URL`, `STRIPE_SK`), with a value long enough to matter and not
    plainly harmless (a number, a word like `true`, a path or list of paths that exist)."""
    environ = os.environ if environ is None else environ
    allowed_values = {value for name, value in environ.items() if shell_needs(name)}
    return {
        name: value
        for name, value in environ.items()
        if (SECRET_NAME.search(name) or not shell_needs(name))
        and len(value) >= MIN_SECRET_LENGTH
        and (SECRET_NAME.search(name) or (value not in allowed_values and not _plainly_harmless(value)))
    }


def _plainly_harmless(value: str) -> bool:
    text = value.strip()
    if text.lower() in ("true", "false", "yes", "no", "on", "off") or text.replace(".", "").isdigit():
        return True
    parts = [p for p in text.split(os.pathsep) if p]
    # a path that exists, here or relative to where tui started (`.venv/bin/python`)
    return bool(parts) and all((p.startswith("/") or "/" in p) and os.path.exists(p) for p in parts)


#: Names the agent's shell never inherits, even if the user's allowlist matches them by a glob:
#: a variable only has to look secret to be dropped (an explicit name in `keep_env` still wins).
SHELL_SECRET_NAME = re.compile(r"(KEY|TOKEN|SECRET|PASSWORD|PASSWD|CREDENTIAL|(^|_)AUTH(_|$))", re.IGNORECASE)
_URL_WITH_PASSWORD = re.compile(r"^[a-z][a-z0-9+.-]*://[^/\s:@]*:[^/\s@]+@", re.IGNORECASE)


def shell_environment(environ: Mapping[str, str] | None = None, keep: Iterable[str] = ()) -> dict[str, str]:
    """The environment for the agent's shell, by allowlist: what a shell and the toolchains need
    (`SHELL_NEEDS`), plus the names the user keeps (`[sandbox] keep_env`, globs such as `AWS_*`);
    nothing else of the parent's environment. A kept glob never lets through a secret-looking
    name or a URL carrying a password; a name the user spelled out does."""
    environ = os.environ if environ is None else environ
    exact = {k for k in keep if not any(c in k for c in "*?[")}
    globs = [k for k in keep if k not in exact]
    chosen: dict[str, str] = {}
    for name, value in environ.items():
        if name in exact or (
            (shell_needs(name) or any(fnmatch.fnmatchcase(name, g) for g in globs))
            and not (SHELL_SECRET_NAME.search(name) or _URL_WITH_PASSWORD.match(value.strip()))
        ):
            chosen[name] = value
    return chosen


_DOTENV_LINE = re.compile(r"^\s*(?:export\s+)?([A-Za-z_][A-Za-z0-9_.-]*)\s*=\s*(.*?)\s*$")
_DOTENV_EXAMPLES = (".example", ".sample", ".template", ".dist", ".defaults")


def dotenv_secrets(workspace: Path, limit_bytes: int = 256 * 1024) -> dict[str, str]:
    """Values assigned in the workspace's `.env*` files (not examples), as `{value: label}`,
    to be redacted everywhere the way known keys are."""
    found: dict[str, str] = {}
    try:
        names = sorted(os.listdir(workspace))
    except OSError:
        return found
    for name in names:
        if not name.startswith(".env") or name.endswith(_DOTENV_EXAMPLES):
            continue
        path = workspace / name
        try:
            if not path.is_file() or path.stat().st_size > limit_bytes:
                continue
            text = path.read_text(errors="replace")
        except OSError:
            continue
        for line in text.splitlines():
            match = _DOTENV_LINE.match(line)
            if match is None or line.lstrip().startswith("#"):
                continue
            value = match.group(2)
            if len(value) >= 2 and value[0] == value[-1] and value[0] in "'\"":
                value = value[1:-1]
            if len(value) >= MIN_SECRET_LENGTH:
                found[value] = f"{match.group(1)} from {name}"
    return found


#: Secrets recognised by their shape, wherever they come from (a token in a remote URL that
#: `git remote -v` prints, a key committed to the repository, a credential a command echoes):
#: the user:password part of a URL, and the prefixed token formats of the big providers. Each
#: is (literals one of which every match contains, the pattern, what it is): a text with none
#: of them skips the pattern (measured on a 30 KB output: ~0.3 ms, against ~13 ms for one
#: combined pattern). Every pattern matches only characters that need no escaping in JSON, so redacting
#: an event's JSON text keeps it valid JSON. Prefixes and lengths are the providers' documented
#: formats, long enough that ordinary text does not match.
_SHAPES: tuple[tuple[tuple[str, ...], re.Pattern[str], str], ...] = tuple(
    (literals, re.compile(pattern), label)
    for literals, pattern, label in (
        (("://",), r"(?<=://)[^/\s:@\"\\]*:[^/\s@\"\\]+(?=@)", "user:password in a URL"),
        (("ghp_", "gho_", "ghu_", "ghs_", "ghr_"), r"\bgh[pousr]_[A-Za-z0-9]{36,}", "GitHub token"),
        (("github_pat_",), r"\bgithub_pat_[A-Za-z0-9_]{40,}", "GitHub token"),
        (("glpat-",), r"\bglpat-[A-Za-z0-9_-]{20,}", "GitLab token"),
        (("AKIA", "ASIA"), r"\b(?:AKIA|ASIA)[0-9A-Z]{16}\b", "AWS access key"),
        (("xoxa-", "xoxb-", "xoxp-", "xoxo-", "xoxs-", "xoxr-"), r"\bxox[abposr]-[A-Za-z0-9-]{10,}", "Slack token"),
        (("sk-ant-",), r"\bsk-ant-[A-Za-z0-9_-]{20,}", "Anthropic key"),
        (("sk-",), r"\bsk-(?:proj-|svcacct-)?[A-Za-z0-9_-]{32,}", "OpenAI-style key"),
        (("AIza",), r"\bAIza[0-9A-Za-z_-]{35}", "Google API key"),
        (
            ("PRIVATE KEY-----",),
            r"-----BEGIN [A-Z ]{0,20}PRIVATE KEY-----(?:[A-Za-z0-9+/=\s]|\\[nr])*"
            r"(?:-----END [A-Z ]{0,20}PRIVATE KEY-----)?",
            "private key",
        ),
    )
)


def _redact_shapes(text: str) -> str:
    for literals, pattern, label in _SHAPES:
        if any(literal in text for literal in literals):
            text = pattern.sub(f"[redacted {label}]", text)
    return text


def looks_secret(text: str) -> bool:
    """Whether `text` holds something shaped like a credential (a token, a key, a password in
    a URL): what redaction would mark."""
    return _redact_shapes(text) != text


class Redactor:
    """Replaces known secret values (labelled by where they came from) and secret-shaped
    text (`_SHAPES`) with a marker."""

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
        """Whether any text can change: always, since secret shapes are looked for everywhere."""
        return True

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
        if self._pattern is not None:
            text = self._pattern.sub(lambda m: f"[redacted {self._secrets[m.group(0)]}]", text)
        return _redact_shapes(text)


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
