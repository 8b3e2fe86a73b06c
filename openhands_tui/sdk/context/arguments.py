"""The text after `/name`, given to a command or skill the way the tool it was written for gives it.

Each tool has its own placeholders, and a file written for one means that tool's:

- Claude Code (commands and SKILL.md, and Qwen Code's Markdown commands): `$ARGUMENTS` is the
  text as typed; `$ARGUMENTS[0]` and `$0` the first word, 0-based, split as a shell splits
  (`"two words"` is one); `$name` a name listed in `arguments:`; no placeholder at all and the
  text is added as `ARGUMENTS: ...`.
- opencode: `$ARGUMENTS` the text, `$1` the first word (1-based), and the highest-numbered
  placeholder given a word takes every word from its own on (`Create $1 with $2` and
  `/new a b c` gives `Create a with b c`).
- Codex's prompts (`~/.codex/prompts`): `$1` to `$9`, `$ARGUMENTS` the words joined by spaces,
  `$FILE`-style names filled from `FILE=value` words, `$$` left as written.
- Gemini CLI: `{{args}}` the text as typed.
- Cursor, Windsurf, Amp and Copilot's prompt files have none: the text follows the body.

Text that is no placeholder stays as written: a `$1` with no first word (`$100` in a price
with one word given, `$1.50`), `$PATH` and `${HOME}` in a shell line, an undeclared `$name`.
One pass over the text: a value holding `$1` is never filled again.
"""

from __future__ import annotations

import re
import shlex
from dataclasses import dataclass, field
from typing import Any, Literal

Positional = Literal["", "zero", "one", "one-swallow", "codex"]
#: `$12` but not `$1.50`, `$1,000` or `$1abc`: a number in prose or a price is no placeholder.
#: At most six digits: a file's `$` and 5,000 digits is text, not a number Python refuses to read.
_NUMBER = r"\$(\d{1,6})(?![\w]|[.,]\d)"
_INDEXED = r"\$ARGUMENTS\[(\d{1,6})\]"
_CODEX_NAME = re.compile(r"(?<!\$)\$([A-Z][A-Z0-9_]*)")
_KEY_VALUE = re.compile(r"([A-Za-z_][A-Za-z0-9_]*)=(.*)", re.DOTALL)


@dataclass(frozen=True)
class ArgumentStyle:
    """How one tool's command or skill takes the text after `/name`."""

    tool: str
    #: Placeholders that take the whole text (`$ARGUMENTS`, `{{args}}`).
    whole: tuple[str, ...] = ()
    positional: Positional = ""
    #: Claude Code's `arguments: [issue, branch]`: `$issue` is the first word.
    names: tuple[str, ...] = ()
    #: What precedes the text when the body has no placeholder (Claude Code's `ARGUMENTS: `).
    label: str = ""
    #: `$ARGUMENTS` is the words joined by single spaces, not the text as typed (Codex).
    joined: bool = False
    _pattern: re.Pattern[str] | None = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        parts = [re.escape(w) for w in sorted(self.whole, key=len, reverse=True)]
        if self.positional:
            parts[:0] = [_INDEXED] if self.positional == "zero" else []
            parts.append(_NUMBER)
        if self.names:
            names = "|".join(re.escape(n) for n in sorted(self.names, key=len, reverse=True))
            parts.append(rf"\$({names})(?![\w-])")
        object.__setattr__(self, "_pattern", re.compile("|".join(f"(?:{p})" for p in parts)) if parts else None)

    def with_names(self, names: tuple[str, ...]) -> ArgumentStyle:
        return ArgumentStyle(self.tool, self.whole, self.positional, names, self.label, self.joined)

    def has_placeholder(self, text: str) -> bool:
        """Whether `text` has a placeholder the words fill (a Codex prompt's `$FILE` counts only
        when `FILE=value` is given: `$PATH` in its shell line is no reason to drop the text)."""
        return self._pattern is not None and self._pattern.search(text) is not None

    def fill(self, text: str, rest: str, *, append: bool = True) -> str:
        """`text` with its placeholders filled from `rest`; without any, `rest` follows it
        (unless `append` is False: a skill fired by the message that already holds `rest`)."""
        rest = rest.strip()
        if self.tool == "codex" and (named := _codex_named(text, rest)) is not None:
            return named
        if not self.has_placeholder(text):
            return f"{text}\n\n{self.label}{rest}" if rest and append else text
        words = split_words(rest)
        whole = " ".join(words) if self.joined else rest
        last = self._last_number(text, len(words))

        def filled(match: re.Match[str]) -> str:
            token = match.group(0)
            if token in self.whole:
                return whole
            if token.startswith("$ARGUMENTS["):
                return _word(words, int(token[len("$ARGUMENTS[") : -1]), token)
            if token[1:].isdigit():
                return self._number(words, int(token[1:]), token, last)
            name = token[1:]
            return _word(words, self.names.index(name), token) if name in self.names else token

        assert self._pattern is not None  # has_placeholder said so
        return self._pattern.sub(filled, text)

    def _number(self, words: list[str], number: int, token: str, last: int) -> str:
        if self.positional == "zero":
            return _word(words, number, token)
        if number == 0 or (self.positional == "codex" and number > 9):
            return token
        if self.positional == "one-swallow" and number == last and number <= len(words):
            return " ".join(words[number - 1 :])
        return _word(words, number - 1, token)

    def _last_number(self, text: str, given: int) -> int:
        """opencode's placeholder that takes the rest: the highest-numbered one a word is given
        for (a `$10` in the text with three words given does not stop `$1` taking them all)."""
        if self.positional != "one-swallow":
            return 0
        return max((n for m in re.finditer(_NUMBER, text) if (n := int(m.group(1))) <= given), default=0)


def split_words(rest: str) -> list[str]:
    """The words of `rest` as a shell splits them (quotes group, and go); an unclosed quote
    splits on spaces instead of failing."""
    try:
        return shlex.split(rest)
    except ValueError:
        return rest.split()


def _word(words: list[str], index: int, token: str) -> str:
    return words[index] if 0 <= index < len(words) else token  # none given: the text stays as written


def _codex_named(text: str, rest: str) -> str | None:
    """A Codex prompt's `$FILE` from `FILE=value` words, when every word is one and names a
    placeholder of the prompt; None otherwise (its words are then positional)."""
    names = {m.group(1) for m in _CODEX_NAME.finditer(text)} - {"ARGUMENTS"}
    words = split_words(rest)
    pairs = [_KEY_VALUE.fullmatch(word) for word in words]
    if not names or not words or not all(p is not None and p.group(1) in names for p in pairs):
        return None
    values = {p.group(1): p.group(2) for p in pairs if p is not None}
    return _CODEX_NAME.sub(lambda m: values.get(m.group(1), m.group(0)), text)


def argument_names(raw: Any) -> tuple[str, ...]:
    """Claude Code's `arguments: [issue, branch]` (or `arguments: issue branch`): the names `$issue`
    and `$branch` take the first and second word."""
    items = raw.split() if isinstance(raw, str) else raw if isinstance(raw, list) else []
    return tuple(str(item).strip() for item in items if isinstance(item, str | int) and str(item).strip())


#: OpenHands task microagents (and strategy-made tasks): `$ARGUMENTS`, else the text follows.
PLAIN = ArgumentStyle("openhands", whole=("$ARGUMENTS",))
CLAUDE = ArgumentStyle("claude", whole=("$ARGUMENTS",), positional="zero", label="ARGUMENTS: ")
QWEN = ArgumentStyle("qwen", whole=("$ARGUMENTS", "{{args}}"), positional="zero")
OPENCODE = ArgumentStyle("opencode", whole=("$ARGUMENTS",), positional="one-swallow")
CODEX = ArgumentStyle("codex", whole=("$ARGUMENTS",), positional="codex", joined=True)
GEMINI = ArgumentStyle("gemini", whole=("{{args}}",))
APPEND = ArgumentStyle("append")
