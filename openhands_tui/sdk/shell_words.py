"""What bash makes of the text of one word: its escapes, its ANSI-C quoting, whether it is a
pattern. Kept apart from the syntax walk (`shell_syntax`) because each rule here must agree
with bash character for character, and is tested that way.
"""

from __future__ import annotations

import codecs


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


def decode_ansi_c(body: str) -> str:
    try:
        return codecs.decode(body.encode("latin-1", "backslashreplace"), "unicode_escape")
    except (UnicodeDecodeError, ValueError):
        return body
