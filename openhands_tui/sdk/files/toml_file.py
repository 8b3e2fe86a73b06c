"""Reading a TOML file someone wrote — the config, permission rules, a theme, a Gemini CLI
command — with one answer for everything that can be wrong with it.

`read_toml` reads through `read_regular` (bounded; a FIFO, device or directory is refused, not
waited on) and parses. Whatever is wrong is a `TomlFileError` whose message is one line naming
the file and the cause, never a traceback:

    config.toml: cannot read (Permission denied)
    config.toml: cannot read (is a directory)
    config.toml: cannot read (9,000,000 bytes is more than the 4,194,304-byte limit)
    config.toml: not UTF-8 text
    config.toml: invalid TOML (Expected '=' after a key in a key/value pair (at line 1, column 5))
    config.toml: invalid TOML (nested too deeply)

A caller that says it in its own words (`permissions.toml: cannot read permission rules (...)`)
uses `.problem`, the cause without the words around it.
"""

from __future__ import annotations

import tomllib
from pathlib import Path
from typing import Any, Literal

from openhands_tui.sdk.files.read import DEFAULT_LIMIT, read_regular

#: What went wrong: the file could not be read, its bytes are not UTF-8, or its text is not TOML.
TomlProblem = Literal["unreadable", "not UTF-8", "invalid TOML"]


class TomlFileError(ValueError):
    """A TOML file that cannot be used; `str()` is one line naming the file and the cause."""

    def __init__(self, path: str | Path, kind: TomlProblem, problem: str) -> None:
        self.path = Path(path)
        self.kind: TomlProblem = kind
        #: The cause alone: "Permission denied", "not UTF-8 text", "nested too deeply", tomllib's words.
        self.problem = " ".join(problem.split())
        super().__init__(f"{path}: {self.cause}")

    @property
    def cause(self) -> str:
        """The cause with its kind: "cannot read (...)", "not UTF-8 text", "invalid TOML (...)"."""
        if self.kind == "unreadable":
            return f"cannot read ({self.problem})"
        if self.kind == "not UTF-8":
            return self.problem
        return f"invalid TOML ({self.problem})"


def read_toml(path: str | Path, *, missing_ok: bool = False, limit: int = DEFAULT_LIMIT) -> dict[str, Any]:
    """The parsed TOML file at `path` (at most `limit` bytes; a byte-order mark is skipped), or
    {} when it does not exist and `missing_ok`. Anything else wrong is a `TomlFileError`."""
    try:
        data = read_regular(path, limit)
    except FileNotFoundError as exc:
        if missing_ok:
            return {}
        raise TomlFileError(path, "unreadable", exc.strerror or str(exc)) from None
    except OSError as exc:
        raise TomlFileError(path, "unreadable", exc.strerror or str(exc)) from None
    try:
        # Notepad saves a byte-order mark; TOML has none, and tomllib called such a file an
        # "invalid statement at line 1, column 1" that nothing on the screen showed.
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError:
        raise TomlFileError(path, "not UTF-8", "not UTF-8 text") from None
    return parse_toml(text, path)


def parse_toml(text: str, path: str | Path) -> dict[str, Any]:
    """`text`, read from `path` by the caller's own rules, parsed; `TomlFileError` if it is not TOML."""
    try:
        return tomllib.loads(text)
    except RecursionError:  # tomllib recurses once per level of nesting
        raise TomlFileError(path, "invalid TOML", "nested too deeply") from None
    except ValueError as exc:  # TOMLDecodeError, and int()'s refusal of a 5,000-digit number
        raise TomlFileError(path, "invalid TOML", str(exc)) from None


__all__ = ["TomlFileError", "TomlProblem", "parse_toml", "read_toml"]
