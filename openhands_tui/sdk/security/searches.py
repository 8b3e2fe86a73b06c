"""Searches that hunt for secrets: `grep -ri api_key --include=*.env .`, `rg --hidden TOKEN`.

A recursive search is ordinary work and LOW; one for secret-looking text where the secret
files are, or one limited to secret files, prints the secrets (the workspace's `.env` values
are redacted, but other stores of keys are not known to be secrets)."""

from __future__ import annotations

import os
import re

from openhands_tui.sdk.facts.event import Risk
from openhands_tui.sdk.security.invocation import Analysis, Invocation
from openhands_tui.sdk.security.paths import holds_secret_files, is_secret_name
from openhands_tui.sdk.shell.syntax import Word

_SECRET_WORDS = re.compile(
    r"pass(word|wd)?|secret|token|(?<![a-z])key(?![a-z])|api.?key|credential|private.?key|BEGIN .*PRIVATE", re.I
)
#: Fact: a command printed every environment variable into a pipe (`env | grep -i key`).
ENVIRONMENT_PIPED = "environment piped"
_INCLUDE_FLAGS = ("--include", "-g", "--glob", "--iglob", "-G")


def hunts_secrets(a: Analysis, inv: Invocation, operands: list[Word]) -> None:
    """`grep -ri api_key --include=*.env .`, `rg --hidden TOKEN`: a recursive search for
    secret-looking text where secret files are (or only in them) prints the secrets."""
    values = inv.values
    globs = [values[i + 1] for i, v in enumerate(values[:-1]) if v in _INCLUDE_FLAGS]
    globs += [v.split("=", 1)[1] for v in values if v.startswith(tuple(f + "=" for f in _INCLUDE_FLAGS))]
    if any(is_secret_name(g.lstrip("!")) for g in globs if not g.startswith("!")):
        a.flag(Risk.HIGH, f"{inv.name} searches only files that hold secrets ({', '.join(globs)})")
        return
    patterns = [values[i + 1] for i, v in enumerate(values[:-1]) if v in ("-e", "--regexp")]
    if not patterns and operands:
        patterns.append(operands[0].value)
    if inv.command.pipe_index > 0 and a.facts.get(ENVIRONMENT_PIPED) and any(_SECRET_WORDS.search(p) for p in patterns):
        a.flag(Risk.HIGH, f"{inv.name} picks the secret-looking variables out of the environment it is fed")
    recursive = inv.name in ("rg", "ag") or inv.has("-r", "-R", "--recursive")
    hidden_too = inv.name == "grep" or inv.has("--hidden", "-u") or "-uu" in values or "-uuu" in values
    if not (recursive and hidden_too and any(_SECRET_WORDS.search(p) for p in patterns)):
        return
    roots = [w.value for w in operands[1:] if w.static] or ["."]
    if any(holds_secret_files(r if os.path.isabs(r) else os.path.join(inv.cwd, r)) for r in roots):
        a.flag(Risk.HIGH, f"{inv.name} searches for secret-looking text where secret files (.env...) are")


def prints_environment(a: Analysis, inv: Invocation) -> None:
    """`env`, `printenv`, `set`... print every variable, API keys included (MEDIUM); into a pipe,
    a search for secret-looking names after it is hunting the keys."""
    a.flag(Risk.MEDIUM, f"{inv.name} prints every environment variable, API keys included")
    if inv.command.pipe_length > inv.command.pipe_index + 1:
        a.facts.setdefault(ENVIRONMENT_PIPED, set()).add(inv.name)
