"""A tool call's arguments as the model sent them, made into something every tool, log line and
provider can take: a JSON object, every string proper Unicode, no NUL anywhere.

A model (or a hostile provider) can send any JSON: a lone surrogate escape (`\\ud800`) cannot
be written to the session log or encoded for a command line, and a NUL cannot be part of any
path or command. JSON nested thousands deep, or a number of thousands of digits, makes Python's
own parser raise something other than a decoding error (and nesting that does parse would make
every later walk over it recurse as deep). Such calls are answered with an error the model reads, or repaired (a lone
surrogate becomes U+FFFD); they never end the run.
"""

from __future__ import annotations

import json
from typing import Any

from openhands_tui.sdk.limits import MAX_INPUT_BYTES, over_the_limit
from openhands_tui.sdk.terminal_text import valid_unicode

#: Deepest nesting of objects and lists taken in a call: real tools' arguments are a few deep.
MAX_DEPTH = 64


def parse_arguments(name: str, text: str) -> tuple[dict[str, Any], str | None]:
    """(arguments, None), or ({}, the error the model is to read)."""
    raw = text.strip()
    if not raw or raw == "null":  # a call without arguments, as some servers send it
        return {}, None
    if over_the_limit(raw):
        size = len(raw.encode("utf-8", "surrogatepass"))
        return {}, (
            f"The arguments of your {name!r} call are {size:,} bytes, over the {MAX_INPUT_BYTES:,}-byte limit on "
            "one call; it was not run. Split the work into smaller calls (write a large file in parts)."
        )
    try:
        parsed = json.loads(raw)
    except json.JSONDecodeError as exc:
        return {}, (
            f"The arguments of your {name!r} call are not valid JSON ({exc.msg} at character "
            f"{exc.pos}). Send them again as one JSON object."
        )
    except RecursionError:
        return {}, f"The arguments of your {name!r} call are nested too deeply to read. {_FLATTER}"
    except ValueError as exc:  # e.g. an integer of more than 4,300 digits
        return {}, f"The arguments of your {name!r} call could not be read ({exc}). {_FLATTER}"
    if not isinstance(parsed, dict):
        return {}, f"The arguments of your {name!r} call must be a JSON object, not {type(parsed).__name__}."
    if _deeper_than(parsed, MAX_DEPTH):
        return {}, f"The arguments of your {name!r} call are nested more than {MAX_DEPTH} levels deep. {_FLATTER}"
    if _holds_nul(parsed):
        return {}, (
            f"The arguments of your {name!r} call contain a NUL character (\\u0000); no command, "
            "path or text file can hold one. Send them again without it."
        )
    return _valid_strings(parsed), None


def excerpt(text: str, keep: int = 2000) -> str:
    """The start of an invalid call's arguments, as much as is worth keeping in the log."""
    return text if len(text) <= keep else f"{text[:keep]}… [{len(text) - keep:,} more characters not kept]"


_FLATTER = "Send them again as one JSON object of the tool's parameters."


def _deeper_than(value: Any, limit: int) -> bool:
    """Whether `value` nests lists and objects more than `limit` deep (walked without recursion)."""
    stack: list[tuple[Any, int]] = [(value, 1)]
    while stack:
        item, depth = stack.pop()
        children = item.values() if isinstance(item, dict) else item if isinstance(item, list) else ()
        for child in children:
            if isinstance(child, dict | list):
                if depth + 1 > limit:
                    return True
                stack.append((child, depth + 1))
    return False


def _holds_nul(value: Any) -> bool:
    if isinstance(value, str):
        return "\0" in value
    if isinstance(value, dict):
        return any(_holds_nul(key) or _holds_nul(item) for key, item in value.items())
    if isinstance(value, list):
        return any(_holds_nul(item) for item in value)
    return False


def _valid_strings(value: Any) -> Any:
    """Every string in `value` as proper Unicode: JSON may carry a lone surrogate (`\\ud800`),
    which no log line, command or file name can be written with."""
    if isinstance(value, str):
        return valid_unicode(value)
    if isinstance(value, dict):
        return {valid_unicode(key): _valid_strings(item) for key, item in value.items()}
    if isinstance(value, list):
        return [_valid_strings(item) for item in value]
    return value
