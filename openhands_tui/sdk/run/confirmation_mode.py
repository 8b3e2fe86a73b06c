"""When to ask before an action: the one list of modes the policy, `--confirm`, `/confirm` and
an editor's session modes share. Its own module, importing only the standard library, so the
command line offers these modes without loading the engine."""

from __future__ import annotations

from enum import StrEnum


class ConfirmationMode(StrEnum):
    ALWAYS = "always"  # ask for every action that can change something
    RISKY = "risky"  # ask when the effective risk reaches the threshold (default HIGH)
    NEVER = "never"  # never ask
