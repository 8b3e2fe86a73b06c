"""What bash makes of a word before the program sees it, as far as it can be known without
running anything: brace expansion (`cat {.env,x}` reads `.env`), and variables the same
command line set to fixed values (`f=~/.bashrc; echo x >> $f` writes `~/.bashrc`).
"""

from __future__ import annotations

import re
from collections.abc import Callable

from openhands_tui.sdk.security.parameter_expansion import BRACED, apply_operator
from openhands_tui.sdk.shell.syntax import Word
from openhands_tui.sdk.shell.words import has_glob

_VARIABLE = re.compile(BRACED.pattern + r"|\$([A-Za-z_][A-Za-z0-9_]*|[0-9@*])")


def brace_alternatives(text: str, limit: int = 64) -> list[str]:
    """What bash's brace expansion makes of `text` (`a{b,c}d` -> `abd`, `acd`; `.en{u..w}` ->
    `.enu`, `.env`, `.enw`), up to `limit`."""
    depth, start = 0, -1
    for index, char in enumerate(text):
        if char == "{":
            depth, start = depth + 1, index if depth == 0 else start
        elif char == "}" and depth:
            depth -= 1
            if depth == 0:
                parts, level, last = [], 0, start + 1
                for inner, c in enumerate(text[start + 1 : index], start + 1):
                    level += (c == "{") - (c == "}")
                    if c == "," and level == 0:
                        parts.append(text[last:inner])
                        last = inner + 1
                if parts:
                    parts.append(text[last:index])
                else:
                    parts = _sequence(text[start + 1 : index])  # `{u..w}`, `{1..9..2}`
                if not parts:
                    continue  # `{x}`: no comma, no expansion
                head, tail = text[:start], text[index + 1 :]
                results: list[str] = []
                for part in parts:
                    results += brace_alternatives(head + part + tail, limit)
                    if len(results) >= limit:
                        break
                return results[:limit]
    return [text]


_SEQUENCE = re.compile(r"(-?\d+|[A-Za-z])\.\.(-?\d+|[A-Za-z])(?:\.\.(-?\d+))?")


def _sequence(inner: str, limit: int = 64) -> list[str]:
    """The words of a brace sequence (`u..w` -> u, v, w; `1..9..4` -> 1, 5, 9; `01..03` keeps
    the zeros), at most `limit`; [] when `inner` is not one."""
    match = _SEQUENCE.fullmatch(inner)
    if match is None:
        return []
    first, last, step_text = match.groups()
    step = abs(int(step_text)) if step_text and int(step_text) else 1
    if first.isalpha() != last.isalpha():
        return []
    if first.isalpha():
        low, high = ord(first), ord(last)
        codes = range(low, high + 1, step) if low <= high else range(low, high - 1, -step)
        return [chr(code) for code in codes][:limit]
    low, high = int(first), int(last)
    width = max(len(first), len(last)) if first.lstrip("-").startswith("0") or last.lstrip("-").startswith("0") else 0
    numbers = range(low, high + 1, step) if low <= high else range(low, high - 1, -step)
    return [str(n).zfill(width) for n in numbers[:limit]]


def with_known_variables(word: Word, value_of: Callable[[str], set[str] | None]) -> list[Word]:
    """`word` with each `$name`, `${name}` and `${name<operator>}` (`${x%.sample}`, `${!x}`)
    worked out from the fixed values `value_of(name)` gives — one word per combination (a loop's
    variable has several), at most 50 — or [] when the word has no variables or any of them is
    unknown. Unquoted, each is also split on IFS (`x="junk .git/hooks/pre-commit"; tee $x`
    writes the hook) and marked a pattern when it holds one (`x='.en?'; cat $x`)."""
    if word.static or word.substituted or not word.variables:
        return []
    results = [""]
    position = 0
    for match in _VARIABLE.finditer(word.value):
        values = _expansion_values(match, value_of)
        if values is None:
            return []
        literal = word.value[position : match.start()]
        results = [done + literal + value for done in results for value in sorted(values)][:50]
        position = match.end()
    results = [done + word.value[position:] for done in results]
    if any("$" in value or "`" in value for value in results):
        return []
    if not word.split:
        return [Word(value) for value in results]
    separators = value_of("IFS") or {" \t\n"}
    fields = [f for value in results for ifs in separators for f in _fields(value, ifs) if f != value]
    return [Word(value, glob=has_glob(value)) for value in dict.fromkeys(results + fields)]


def _expansion_values(match: re.Match[str], value_of: Callable[[str], set[str] | None]) -> set[str] | None:
    """The values one `$name` or `${...}` takes, or None when any is unknown."""
    indirect, name, subscript, operator, bare = match.groups()
    values = value_of(name or bare)
    if not values or (subscript is not None and not re.fullmatch(r"\[(\d+|@|\*)\]", subscript)):
        return None
    # an array's values are all its elements, whichever one a subscript picks (erring to caution)
    if indirect:  # `${!x}`: the variable x names
        named = [value_of(value) for value in values]
        if not all(named):
            return None
        values = {value for found in named if found for value in found}
    worked = {apply_operator(value, operator or "") for value in values}
    return None if None in worked else {value for value in worked if value is not None}


def _fields(value: str, ifs: str) -> list[str]:
    """`value` split as bash splits an unquoted expansion on `ifs` (empty fields dropped)."""
    if not ifs:
        return [value]
    return [field for field in re.split("[" + re.escape(ifs) + "]+", value) if field]
