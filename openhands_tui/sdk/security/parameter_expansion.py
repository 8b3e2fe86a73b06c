"""What bash's parameter expansion operators make of a value the rules already know.

`x=.git/hooks/pre-commit.sample; echo x > ${x%.sample}` writes a hook; `x=.xnv; cat ${x/x/e}`
reads `.env`. With x's value known (the same line set it), the operators are worked out here
as bash works them out, so the path is judged, not merely "known only at run time". An
operator this does not know gives None, and the word stays unknown (MEDIUM, as before).
"""

from __future__ import annotations

import re

from openhands_tui.sdk.shell.words import decode_ansi_c

#: `${!x}`, `${x}`, `${x[0]}`, `${x%.sample}`...: the parts of one braced expansion.
BRACED = re.compile(r"\$\{(!?)([A-Za-z_][A-Za-z0-9_]*|[0-9]+)(\[[^\]]*\])?([^{}]*)\}")
_SUBSTRING = re.compile(r":\s*(-?\d+)(?::\s*(-?\d+))?")


def apply_operator(value: str, operator: str) -> str | None:
    """`value` after `operator` (the text between the name and `}`: `%.sample`, `/x/e`, `:1`,
    `,,`); None when the operator is not one worked out here or its operands are not plain."""
    if operator == "":
        return value
    if any(char in operator for char in "$`\"'\\"):
        return None  # operands that are themselves expansions or quoted: not followed
    for mark, longest, from_end in (("##", True, False), ("#", False, False), ("%%", True, True), ("%", False, True)):
        if operator.startswith(mark):
            return _remove_affix(value, operator[len(mark) :], longest=longest, from_end=from_end)
    if operator.startswith("/"):
        return _replace(value, operator[1:])
    case = {"^^": str.upper, ",,": str.lower, "^": _upper_first, ",": _lower_first, "~~": str.swapcase}
    case |= {"@U": str.upper, "@L": str.lower, "@u": _upper_first, "@E": decode_ansi_c}
    if operator in case:  # `${x@E}` decodes escapes as `$'...'` does: `.en\x76` is `.env`
        return case[operator](value)
    if operator.startswith((":-", ":=")):
        return value if value else operator[2:]
    if operator.startswith(":+"):
        return operator[2:] if value else ""
    if operator.startswith(("-", "=")):
        return value
    if operator.startswith("+"):
        return operator[1:]
    substring = _SUBSTRING.fullmatch(operator)
    if substring is not None:
        return _substring(value, int(substring.group(1)), substring.group(2))
    return None


def glob_regex(pattern: str) -> str:
    """A bash glob (`*`, `?`, `[...]`, `[!...]`) as a regular expression, not anchored."""
    out, index = [], 0
    while index < len(pattern):
        char = pattern[index]
        index += 1
        end = _bracket_end(pattern, index) if char == "[" else -1
        if char == "*":
            out.append(".*")
        elif char == "?":
            out.append(".")
        elif end >= 0:
            body = pattern[index:end]
            negate = body[:1] in ("!", "^")
            body = body[1:] if negate else body
            body = re.sub(r"([\\\[\]^&~|])", r"\\\1", body)  # literal inside the class; ranges stay
            out.append("[" + ("^" if negate else "") + body + "]")
            index = end + 1
        else:
            out.append(re.escape(char))
    return "".join(out)


def _bracket_end(pattern: str, start: int) -> int:
    """Where the bracket expression opened just before `start` closes (-1: it does not)."""
    index = start + (1 if pattern[start : start + 1] in ("!", "^") and start < len(pattern) else 0)
    index += 1 if pattern[index : index + 1] == "]" else 0
    return pattern.find("]", index)


def _remove_affix(value: str, pattern: str, *, longest: bool, from_end: bool) -> str:
    regex = re.compile(glob_regex(pattern), re.DOTALL)
    cuts = range(len(value) + 1)
    order = list(cuts) if not longest else list(reversed(cuts))
    for size in order:
        part = value[len(value) - size :] if from_end else value[:size]
        if regex.fullmatch(part):
            return value[: len(value) - size] if from_end else value[size:]
    return value


def _replace(value: str, spec: str) -> str:
    every = spec.startswith("/")
    anchor = spec[:1] if spec[:1] in ("#", "%") else ""
    spec = spec[1:] if every or anchor else spec
    pattern, _, replacement = spec.partition("/")
    if not pattern:
        return value
    regex = glob_regex(pattern)
    if anchor == "#":
        regex = "^(?:" + regex + ")"
    elif anchor == "%":
        regex = "(?:" + regex + ")$"
    return re.sub(regex, lambda _: replacement, value, count=0 if every else 1, flags=re.DOTALL)


def _substring(value: str, offset: int, length: str | None) -> str:
    start = offset if offset >= 0 else max(len(value) + offset, 0)
    if length is None:
        return value[start:]
    size = int(length)
    end = start + size if size >= 0 else len(value) + size
    return value[start:end]


def _upper_first(value: str) -> str:
    return value[:1].upper() + value[1:]


def _lower_first(value: str) -> str:
    return value[:1].lower() + value[1:]
