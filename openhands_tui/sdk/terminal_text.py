"""Text a model or a command produced, made safe to show on a terminal and to send back.

Model text and command output are shown verbatim, so escape sequences in them would reach
the user's terminal: set the window title, reset the screen, or — through OSC 52 — write the
user's clipboard. Every escape sequence (CSI, OSC, DCS and the other string sequences, 8-bit
C1 forms), every control character but newline and tab, and the bidirectional overrides that
make text display in another order than it reads ("Trojan Source") are removed before such
text is printed, rendered or sent back to the model.
"""

from __future__ import annotations

import re

_CONTROLS = re.compile(
    r"""
      \x1b\[[0-?]*[\x20-/]*[@-~]           # CSI: colours, cursor moves, screen resets
    | \x1b\][^\x07\x1b]*(?:\x07|\x1b\\)?  # OSC: window title, clipboard (OSC 52), links
    | \x1b[PX^_][^\x1b]*(?:\x1b\\)?       # DCS, SOS, PM, APC, up to the string terminator
    | \x1b[\x20-/]*[0-~]                  # every other escape sequence
    | \x9b[0-?]*[\x20-/]*[@-~]            # 8-bit CSI
    | [\x80-\x9f]                          # C1 controls
    | [\x00-\x08\x0b\x0c\x0e-\x1f\x7f]     # C0 controls but tab, newline, carriage return
    | [\u202a-\u202e\u2066-\u2069]          # bidi overrides: text shown in another order than it is
    """,
    re.VERBOSE,
)


def strip_controls(text: str) -> str:
    """`text` without escape sequences or control characters (newlines, tabs and carriage
    returns stay; see `flatten_carriage_returns`)."""
    return _CONTROLS.sub("", text) if text else text


def flatten_carriage_returns(text: str) -> str:
    """What a terminal would show after carriage-return redraws (progress bars): the last
    version of each line."""
    if "\r" not in text:
        return text
    return "\n".join(line.rsplit("\r", 1)[-1] if line.strip("\r") else "" for line in text.split("\n"))


def safe_for_terminal(text: str) -> str:
    """Both: the form in which model text and command output are shown and sent back."""
    return flatten_carriage_returns(strip_controls(text))


def valid_unicode(text: str) -> str:
    """`text` as proper Unicode: surrogate pairs (an emoji whose halves arrived in separate JSON
    escapes) joined, a lone surrogate replaced by U+FFFD. Such text cannot be encoded as UTF-8,
    so it would break every log line and request it reached."""
    if not any("\ud800" <= char <= "\udfff" for char in text):
        return text
    return text.encode("utf-16", "surrogatepass").decode("utf-16", "replace")


class DeltaJoiner:
    """Streamed text pieces made safe one by one: a high surrogate at the end of a piece is
    held back until its other half arrives in the next one."""

    def __init__(self) -> None:
        self._pending = ""

    def add(self, piece: str) -> str:
        piece = self._pending + piece
        self._pending = ""
        if piece and "\ud800" <= piece[-1] <= "\udbff":
            piece, self._pending = piece[:-1], piece[-1]
        return valid_unicode(piece)

    def flush(self) -> str:
        rest, self._pending = self._pending, ""
        return valid_unicode(rest)


#: Characters JSON may carry raw inside a string that still act on a terminal or split a line:
#: 8-bit C1 controls (0x9b is CSI), bidi overrides, and U+2028/U+2029, which Python's
#: `str.splitlines()` and older JavaScript treat as line ends.
_JSON_UNSAFE = re.compile("[\x7f-\x9f\u2028\u2029\u202a-\u202e\u2066-\u2069]")


def inert_json(line: str) -> str:
    """A serialized JSON document with the characters above written as `\\uXXXX` escapes: the
    same value (JSON carries non-ASCII only inside strings, where an escape means the same
    character), one line however it is split, and nothing a terminal acts on."""
    return _JSON_UNSAFE.sub(lambda m: f"\\u{ord(m.group()):04x}", line)


def one_line(text: str) -> str:
    """`text` on one line with no escape sequence or control character: a title or name that
    came from a model or a repository, shown in a listing."""
    return " ".join(strip_controls(text).split())


def safe_copy(value: object) -> object:
    """Every string inside `value` (dicts and lists followed) with escape sequences and control
    characters removed: for folding events whose text came from a model, a command or a file
    into what a terminal will show."""
    if isinstance(value, str):
        return strip_controls(value)
    if isinstance(value, dict):
        return {key: safe_copy(item) for key, item in value.items()}
    if isinstance(value, list):
        return [safe_copy(item) for item in value]
    return value


#: Characters that change how the text around them is displayed without being seen: bidi
#: overrides and isolates (Trojan Source: `rm -rf ~ ‮ txt.` reads backwards), zero-width ones,
#: fillers and soft hyphens that draw nothing, line and paragraph separators, and blanks other
#: than space and tab (no-break, ideographic, braille) that read as spaces but are not.
_INVISIBLE = re.compile(
    "[\u00a0\u00ad\u034f\u061c\u115f\u1160\u17b4\u17b5\u180b-\u180f\u2000-\u200f\u2028\u2029"
    "\u202a-\u202f\u205f-\u2064\u2066-\u2069\u2800\u3000\u3164\ufeff\uffa0]+"
)
#: Unicode tag characters draw nothing but spell ASCII ("ASCII smuggling" of instructions to
#: the next model that reads the file); runs of variation selectors can carry bytes the same way.
_TAGS = re.compile("[\U000e0000-\U000e007f]+")
_SELECTORS = re.compile("[\ufe00-\ufe0f\U000e0100-\U000e01ef]{2,}")
_BLANK_RUN = re.compile(r"\n(?:[ \t]*\n){3,}")
_SPACE_RUN = re.compile(r"[ \t]{24,}")


def _name_invisible(match: re.Match[str]) -> str:
    run = match.group()
    if len(run) <= 3:
        return "".join(f"<U+{ord(char):04X}>" for char in run)
    kinds = ", ".join(f"U+{ord(char):04X}" for char in dict.fromkeys(run))
    return f"<{len(run)} invisible characters: {kinds}>"


def _spell_tags(match: re.Match[str]) -> str:
    hidden = "".join(chr(ord(char) - 0xE0000) for char in match.group())
    return f"<hidden text in tag characters: {strip_controls(hidden)!r}>"


def shown_for_approval(text: str) -> str:
    """`text` (a command, a path, a reason) as a user deciding whether to approve it must see
    it: no escape sequences, carriage returns shown as `␍` instead of redrawing the line over
    the part before them, invisible formatting characters named, and long runs of blank lines
    or spaces (which push the rest out of view) counted instead of printed."""
    # named before the controls are stripped: stripping removes bidi overrides too, and the
    # user deciding should see that the command holds one
    text = _TAGS.sub(_spell_tags, text)
    text = _SELECTORS.sub(lambda m: f"<{len(m.group())} variation selectors>", text)
    text = _INVISIBLE.sub(_name_invisible, text)
    text = strip_controls(text).replace("\r", "␍")
    text = _BLANK_RUN.sub(lambda m: f"\n[{m.group().count(chr(10)) - 1} blank lines]\n", text)
    return _SPACE_RUN.sub(lambda m: f" [{len(m.group())} spaces] ", text)
