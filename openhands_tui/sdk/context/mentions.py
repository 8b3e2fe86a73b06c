"""Finding what a user's text points at: `@file` mentions, and image paths typed or dropped.

Pure parsing, no file system: `attachments.py` decides what each one is and whether it may be
sent. A mention is `@path` or `@"path with spaces"` that does not follow a letter, digit or
dot, so `me@host.com` and `a@b` in code are not mentions. A terminal pastes a file dropped on
it as its path: bare, quoted ('...' or "..."), or with `\\ `-escaped spaces; such a path is
looked at only when its name ends like an image (its bytes decide).
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from openhands_tui.sdk.context.images import looks_like_image_name

_MENTION = re.compile(r"""(?<![\w.@\\/])@(?:"([^"\n]+)"|([^\s"'`<>|;,()\[\]{}]+))""")
#: What is not part of a path when it ends one: `see @src/app.py.` or `(@x.py)`.
_TRAILING = ".,;:!?)]}'\""
_QUOTED = re.compile(r"""(?<![\w@])(?:'([^'\n]+)'|"([^"\n]+)")""")
_BARE = re.compile(r"""(?<![\w@"'\\])((?:\\.|[^\s'"\\])+)""")


@dataclass(frozen=True)
class Mention:
    """`@path` in the text: the path as written (unquoted), and shorter forms to try when it
    does not exist as written (trailing punctuation dropped)."""

    text: str
    path: str

    def candidates(self) -> list[str]:
        stripped = self.path.rstrip(_TRAILING)
        return [self.path] if stripped in ("", self.path) else [self.path, stripped]


def mentions(text: str) -> list[Mention]:
    """The `@file` mentions in `text`, in order, each path once."""
    found: list[Mention] = []
    seen: set[str] = set()
    for match in _MENTION.finditer(text):
        path = match.group(1) or match.group(2) or ""
        if path and path not in seen:
            seen.add(path)
            found.append(Mention(match.group(0), path))
    return found


def image_paths(text: str) -> list[str]:
    """Paths in `text` whose names end like an image, as a terminal pastes a dropped file:
    quoted, bare, or with backslash-escaped spaces (unescaped here). `@` mentions are not
    included (they are judged as mentions)."""
    found: list[str] = []
    rest = text
    for match in _QUOTED.finditer(text):
        path = match.group(1) or match.group(2) or ""
        if looks_like_image_name(path) and path not in found:
            found.append(path)
        rest = rest.replace(match.group(0), " ")
    for match in _BARE.finditer(rest):
        word = match.group(1)
        if word.startswith("@"):
            continue
        path = re.sub(r"\\(.)", r"\1", word).rstrip(_TRAILING)
        if looks_like_image_name(path) and path not in found:
            found.append(path)
    return found
