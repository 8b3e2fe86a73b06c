"""Waiting made visible outside the terminal: when an approval waits or a run ends, the terminal
bell rings and/or a desktop notification is asked for, by the escape sequences terminals know.

Chosen in the config file: `notify = "bell" | "desktop" | "both" | "off"` (default "bell") and
`notify_when = "unfocused" | "always"` (default "unfocused": only while the terminal's window is
not the one in front; a terminal that never reports focus counts as in front). Which desktop
sequence: OSC 777 for the terminals that read it (urxvt, foot, kitty, Ghostty), else OSC 9
(iTerm2, WezTerm, Windows Terminal and most others); inside tmux it is wrapped so tmux passes
it on. What it says comes from a task or a model, so it is cut to one short line with no
control character: an escape sequence in it would otherwise reach the terminal as one.
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from dataclasses import dataclass

from openhands_tui.sdk.terminal_text import one_line

MODES = ("bell", "desktop", "both", "off")
WHEN = ("unfocused", "always")
BELL = "\x07"
#: Longest title and body said (a notification is a glance, not a transcript).
TITLE_CHARACTERS = 40
BODY_CHARACTERS = 100
#: Terminals that show OSC 777 notifications (by $TERM, then $TERM_PROGRAM).
OSC_777_TERMS = ("rxvt", "foot", "xterm-kitty", "xterm-ghostty")
OSC_777_PROGRAMS = ("ghostty",)


def short(text: str, limit: int) -> str:
    """`text` on one line, without control characters or `;` (a field separator in OSC 777),
    at most `limit` characters."""
    text = one_line(text).replace(";", ",")
    return text if len(text) <= limit else text[: limit - 1] + "…"


def desktop_sequence(title: str, body: str, environ: Mapping[str, str]) -> str:
    """The escape sequence asking this terminal for a desktop notification."""
    title, body = short(title, TITLE_CHARACTERS), short(body, BODY_CHARACTERS)
    term, program = environ.get("TERM", ""), environ.get("TERM_PROGRAM", "").lower()
    if term.startswith(OSC_777_TERMS) or program in OSC_777_PROGRAMS:
        sequence = f"\x1b]777;notify;{title};{body}\x07"
    else:
        sequence = f"\x1b]9;{title}: {body}\x07" if body else f"\x1b]9;{title}\x07"
    if environ.get("TMUX"):  # tmux passes a sequence on inside DCS tmux; ... ST, its ESCs doubled
        sequence = "\x1bPtmux;" + sequence.replace("\x1b", "\x1b\x1b") + "\x1b\\"
    return sequence


def attention_sequence(mode: str, title: str, body: str, environ: Mapping[str, str]) -> str:
    """What to write for `mode` ("" for "off")."""
    bell = BELL if mode in ("bell", "both") else ""
    desktop = desktop_sequence(title, body, environ) if mode in ("desktop", "both") else ""
    return bell + desktop


@dataclass(frozen=True)
class Attention:
    """The user's choice, checked: `problem` says what was wrong with it (the default is used)."""

    mode: str = "bell"
    when: str = "unfocused"
    problem: str | None = None

    @classmethod
    def from_config(cls, mode: object, when: object) -> Attention:
        problems = []
        if mode not in MODES:
            problems.append(f"notify = {one_line(str(mode))[:40]!r} (use {', '.join(MODES)})")
            mode = "bell"
        if when not in WHEN:
            problems.append(f"notify_when = {one_line(str(when))[:40]!r} (use {' or '.join(WHEN)})")
            when = "unfocused"
        problem = f"Config: {'; '.join(problems)}; the default is used." if problems else None
        return cls(str(mode), str(when), problem)

    def sequence(self, title: str, body: str, focused: bool, environ: Mapping[str, str] | None = None) -> str:
        """What to write to the terminal now ("" when nothing is wanted)."""
        if self.mode == "off" or (focused and self.when == "unfocused"):
            return ""
        return attention_sequence(self.mode, title, body, os.environ if environ is None else environ)
