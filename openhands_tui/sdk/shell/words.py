"""What bash makes of the text of one word: its escapes, its ANSI-C quoting, whether it is a
pattern. Kept apart from the syntax walk (`shell_syntax`) because each rule here must agree
with bash character for character, and is tested that way.
"""

from __future__ import annotations

import re
from typing import Any


def has_glob(text: str) -> bool:
    escaped = False
    for char in text:
        if escaped:
            escaped = False
        elif char == "\\":
            escaped = True
        elif char in "*?[":
            return True
    return False


def unescape(text: str) -> str:
    if "\\" not in text:
        return text
    out, chars = [], iter(text)
    for char in chars:
        out.append(next(chars, "") if char == "\\" else char)
    return "".join(out)


_ANSI_C_SIMPLE = {
    "a": 7,
    "b": 8,
    "e": 27,
    "E": 27,
    "f": 12,
    "n": 10,
    "r": 13,
    "t": 9,
    "v": 11,
    "\\": 92,
    "'": 39,
    '"': 34,
    "?": 63,
}
_OCTAL, _HEX = "01234567", "0123456789abcdefABCDEF"


def decode_ansi_c(body: str) -> str:
    """The text of `$'body'` as bash makes it: its own escapes (`\\e`, `\\cA`, `\\x4` with
    one digit, `\\u` and `\\U` with one to four or eight), any other backslash kept, and the
    text cut at the first NUL (`$'.env\\0x'` and `$'.env\\c@'` name `.env`, as C strings do)."""
    out = bytearray()
    index = 0
    while index < len(body):
        char = body[index]
        index += 1
        if char != "\\" or index >= len(body):
            out += char.encode()
            continue
        code = body[index]
        index += 1
        if code in _ANSI_C_SIMPLE:
            out.append(_ANSI_C_SIMPLE[code])
        elif code in _OCTAL:
            digits = _run(body, index - 1, _OCTAL, 3)
            index += len(digits) - 1
            out.append(int(digits, 8) & 0xFF)
        elif code in "xuU":
            digits = _run(body, index, _HEX, {"x": 2, "u": 4, "U": 8}[code])
            index += len(digits)
            if not digits:
                out += ("\\" + code).encode()
            elif code == "x":
                out.append(int(digits, 16))
            else:
                out += _code_point(int(digits, 16))
        elif code == "c" and index < len(body):
            control = body[index]
            index += 1
            if control == "\\" and body[index : index + 1] == "\\":
                index += 1  # `\\c\\\\` is control-backslash
            out.append(0x7F if control == "?" else ord(control.upper()) & 0x1F)
        else:
            out += ("\\" + code).encode()
    return bytes(out).split(b"\0", 1)[0].decode("utf-8", "replace")  # invalid UTF-8 is no path character


def _run(text: str, start: int, allowed: str, limit: int) -> str:
    end = start
    while end < len(text) and end - start < limit and text[end] in allowed:
        end += 1
    return text[start:end]


def _code_point(value: int) -> bytes:
    try:
        return chr(value).encode("utf-8")
    except (ValueError, UnicodeEncodeError):
        return b"?"  # past U+10FFFF or a lone surrogate: bash prints something else, never a path character


def double_quoted(text: str) -> str:
    """Literal text inside double quotes as bash hands it on: the backslash goes before `$`,
    a backquote, `"`, and another backslash, and goes with the newline it precedes; before
    anything else it stays (`"\\a"` is two characters)."""
    if "\\" not in text:
        return text
    return _DOUBLE_QUOTE_ESCAPE.sub(lambda m: "" if m.group(1) == "\n" else m.group(1), text)


_DOUBLE_QUOTE_ESCAPE = re.compile(r'\\([$`"\\\n])')


def heredoc_text(body: str) -> str:
    """The body of a here-document with an unquoted delimiter as the program reads it: bash
    drops the backslash before `$`, a backquote and another backslash (not before `"`), so
    `bash <<EOF` given `rm -rf \\$HOME` runs `rm -rf $HOME`."""
    if "\\" not in body:
        return body
    return _HEREDOC_ESCAPE.sub(r"\1", body)


_HEREDOC_ESCAPE = re.compile(r"\\([$`\\])")


def join_continued_lines(data: bytes, literal: list[tuple[int, int]]) -> bytes:
    """`data` with every line continuation (a backslash that is not itself escaped, then a
    newline) removed, as bash removes them before it splits words: `ca\\<newline>t .env` runs
    `cat .env`. Not inside the byte ranges in `literal` (single quotes, comments...)."""
    if b"\\\n" not in data:
        return data
    out = bytearray()
    index = 0
    for match in re.finditer(rb"\\+\n", data):
        start, end = match.span()
        run = end - 1 - start
        inside = any(low <= end - 2 < high for low, high in literal)
        if run % 2 == 1 and not inside:
            out += data[index : end - 2]
            index = end
    return bytes(out + data[index:])


_COLON_TILDE = re.compile(r"(?<=:)~(?=/|:|$)")


def expand_assignment_tildes(text: str, home: str, *, whole_value: bool) -> str:
    """`~` after the `=` of an assignment-shaped word and after each `:` that follows (`of=~/x`,
    `PATH=~/bin:~/.local/bin`), as bash expands them; `whole_value` when `text` is already the
    value of an assignment (its own start is handled by the caller)."""
    if "~" not in text:
        return text
    if whole_value:
        return _COLON_TILDE.sub(lambda _: home, text)
    name, _, value = text.partition("=")
    if value.startswith("~") and (len(value) == 1 or value[1] in "/:"):
        value = home + value[1:]
    return f"{name}={_COLON_TILDE.sub(lambda _: home, value)}"


def combined_candidates(parts: list[Any], *, alone: bool = False, limit: int = 16) -> list[str]:
    """The known values a word made of `parts` may take (`${x:-.e}nv` -> `.env`): every mix of
    each part's value (when static) or candidates; [] when some part is unknown with none, or
    when every part is static (the word's own value says it all) unless `alone`."""
    if not alone and all(part.static for part in parts):
        return []
    results = [""]
    for part in parts:
        options = [part.value] if part.static else list(part.candidates)
        if not options:
            return []
        results = [done + option for done in results for option in options][:limit]
    return results
