"""Facts read straight off a bash syntax tree, apart from the commands it runs: which bytes
are literal text (no line continuation there), which text bash would evaluate as code later,
what a backquoted substitution runs once bash removes its escapes, and where a command sits in
the pipelines around it.
"""

from __future__ import annotations

import re
from typing import Any, Protocol

#: Where a backslash before a newline is text, not a line continuation.
_LITERAL = {"raw_string", "ansi_c_string", "comment"}


def literal_spans(root: Any) -> list[tuple[int, int]]:
    """Byte ranges bash reads without joining continued lines: single-quoted and `$'...'`
    strings, comments, and the body of a here-document whose delimiter is quoted."""
    spans: list[tuple[int, int]] = []
    stack = [root]
    while stack:
        node = stack.pop()
        if node.type in _LITERAL:
            spans.append((node.start_byte, node.end_byte))
            continue
        if node.type == "heredoc_redirect":
            start = next((c.text.decode() for c in node.children if c.type == "heredoc_start"), "")
            if any(mark in start for mark in "'\"\\"):
                spans += [(c.start_byte, c.end_byte) for c in node.children if c.type == "heredoc_body"]
        stack.extend(node.children)
    return spans


#: `'a[$(cmd)]'`: bash runs `cmd` when such text is read as a number (`$((x))`, `[[ $x -eq 1 ]]`).
_SUBSCRIPT_CODE = re.compile(r"\[[^\]]*(\$\(|`)")
#: `${x@P}` expands the value as a prompt string, running the substitutions in it.
_PROMPT_EXPANSION = re.compile(r"@P\}$")


def deferred_code(root: Any) -> list[str]:
    """Places where text that looks like data is evaluated as code (the walk above cannot
    see into a variable's value, so these forms are reported wherever they appear)."""
    found: list[str] = []
    stack = [root]
    while stack:
        node = stack.pop()
        text = node.text.decode(errors="replace") if node.type in ("expansion", "raw_string", "string") else ""
        if node.type == "expansion" and _PROMPT_EXPANSION.search(text):
            found.append(f"{text} expands a value as a prompt, running any $(...) in it")
        elif node.type in ("raw_string", "string") and _SUBSCRIPT_CODE.search(text):
            found.append(f"{text} has a command in an array index: bash runs it when reading the text as a number")
        stack.extend(node.children)
    return found


def escaped_backquotes(node: Any) -> str | None:
    """The command line inside a backquoted substitution that nests others by escaping them
    (`\\``), as bash sees it once it has removed those escapes; None for any other substitution
    (the parser already reads those as they run)."""
    text = node.text.decode(errors="surrogateescape")
    if not (len(text) >= 2 and text[0] == text[-1] == "`" and "\\" in text):
        return None
    body = text[1:-1]
    unescaped = re.sub(r"\\([\\`$])", r"\1", body)
    return unescaped if unescaped != body else None


class Placed(Protocol):
    """A command's place in a pipeline (the engine's `SimpleCommand` has one)."""

    pipe_index: int
    pipe_length: int


def place_in_pipeline(command: Placed, stage: int, stages: int) -> None:
    """Record where `command` sits in a pipeline whose `stage` (of `stages`) it is part of. A
    command already placed by a pipeline inside that stage (`( curl x | sh ) | cat`) keeps its
    inner place, except that the first of an inner pipeline reads the outer pipe
    (`curl x | ( sh | cat )`) and the last writes into it. Only two facts are used: whether
    stdin comes from a pipe (index > 0) and whether stdout goes into one (length > index + 1)."""
    reads_pipe = command.pipe_index > 0 or stage > 0
    writes_pipe = command.pipe_length > command.pipe_index + 1 or stage < stages - 1
    index = command.pipe_index if command.pipe_index > 0 else stage
    command.pipe_index = index if reads_pipe else 0
    command.pipe_length = command.pipe_index + (2 if writes_pipe else 1)
