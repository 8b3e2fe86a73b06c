"""Frontmatter as real files write it: the `---` block at the top of a microagent, skill or
command, read as YAML when it is YAML and as plain `key: value` lines when it is not (other tools
accept an unquoted colon in a `description:`), never with aliases (a "billion laughs" file).
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import yaml

_FENCE = re.compile(r"^(?:---|\.\.\.)[ \t]*$")
_LINE = re.compile(r"^([A-Za-z_][\w-]*)[ \t]*:(?:[ \t]+(.*?))?[ \t]*$")


def split_frontmatter(text: str) -> tuple[str | None, str]:
    """(frontmatter, body): frontmatter is the text between a first line `---` and the next
    `---` (or `...`) line; None when the file has none."""
    lines = text.splitlines(keepends=True)
    start = 0
    while start < len(lines) and _preamble(lines[start]):
        start += 1  # blank lines and a generator's `<!-- ... -->` note may come first
    if start >= len(lines) or lines[start].rstrip("\r\n").rstrip() != "---":
        return None, text
    for index in range(start + 1, len(lines)):
        if _FENCE.match(lines[index].rstrip("\r\n")):
            return "".join(lines[start + 1 : index]), "".join(lines[index + 1 :])
    return None, text  # an opening fence and no closing one: a horizontal rule, not frontmatter


def unclosed_frontmatter(text: str, path: Path, warnings: list[str]) -> tuple[str | None, str]:
    """A SKILL.md (whose format requires frontmatter) that opens it with `---` and never closes
    it: the `key: value` lines after the fence are its frontmatter, up to the first line that is
    none (a blank line, the `# Title`), and the rest its body. Not such a file: (None, text)."""
    lines = text.splitlines(keepends=True)
    start = 0
    while start < len(lines) and _preamble(lines[start]):
        start += 1
    if start + 1 >= len(lines) or lines[start].strip() != "---" or not _LINE.match(lines[start + 1].rstrip("\r\n")):
        return None, text  # a rule and then prose or a list: no frontmatter at all
    end = start + 1
    while end < len(lines) and (_LINE.match(lines[end].rstrip("\r\n")) or lines[end][:1] in (" ", "\t", "-")):
        if not lines[end].strip():
            break
        end += 1
    header = "".join(lines[start + 1 : end])
    if parse_header(header)[0] is None:
        return None, text
    warnings.append(
        f"{path}: its frontmatter is never closed with `---`; read up to its first line that is not `key: value`"
    )
    return header, "".join(lines[end:])


def _preamble(line: str) -> bool:
    stripped = line.strip()
    return not stripped or (stripped.startswith("<!--") and stripped.endswith("-->"))


class _FrontmatterLoader(yaml.SafeLoader):
    """Safe YAML without aliases: frontmatter never needs `*name`, and a file in a workspace
    could use them to expand a few lines into billions of items (a "billion laughs")."""

    def compose_node(self, parent: Any, index: Any) -> Any:
        if self.check_event(yaml.AliasEvent):
            mark = self.peek_event().start_mark
            raise yaml.composer.ComposerError(None, None, "aliases (*name) are not allowed in frontmatter", mark)
        return super().compose_node(parent, index)


def parse_header(header: str) -> tuple[dict[str, Any] | None, str | None]:
    """(metadata, problem). Valid YAML mapping: (data, None). Not YAML but plain `key: value`
    lines: (data, warning). Neither: (None, why)."""
    if not header.strip():
        return {}, None
    try:
        data = yaml.load(header, Loader=_FrontmatterLoader)  # a SafeLoader, minus aliases
    except (yaml.YAMLError, RecursionError) as exc:  # a workspace's file may be built to hurt
        problem = " ".join(str(exc).split())[:200] or type(exc).__name__
        lenient = _plain_lines(header)
        if lenient is None:
            return None, f"broken YAML frontmatter ({problem})"
        return lenient, f"frontmatter is not valid YAML ({problem}); read as plain `key: value` lines"
    if data is None:
        return {}, None
    if not isinstance(data, dict):
        return None, f"the frontmatter must be a mapping, not a {type(data).__name__}"
    return data, None


def _plain_lines(header: str) -> dict[str, Any] | None:
    """`key: value` lines, `- item` lists and indented continuations; None for anything
    else (flow collections, nesting), which is left to be reported as broken YAML."""
    data: dict[str, Any] = {}
    key: str | None = None
    for raw in header.splitlines():
        if not raw.strip() or raw.lstrip().startswith("#"):
            continue
        if raw[0] in " \t" or raw.startswith("- "):
            if key is None:
                return None
            item = raw.strip()
            if item.startswith("- "):
                current = data[key]
                if current not in ("", None) and not isinstance(current, list):
                    return None
                data[key] = [*(current or []), _scalar(item[2:])]
            elif isinstance(data[key], str):
                data[key] = f"{data[key]} {item}".strip()
            else:
                return None
            continue
        match = _LINE.match(raw)
        if match is None:
            return None
        key, value = match.group(1), (match.group(2) or "")
        if value.startswith(("[", "{")):
            flow = _flow(value)
            if flow is None and not _bracketed_words(value):
                return None  # `[Read, Grep`: a list begun and never ended is broken, not text
            # `argument-hint: [issue] [branch]`: closed brackets, but not one YAML list; the
            # tools that write it (Claude Code) read it as the text it is
            data[key] = flow if flow is not None else value
            continue
        # `globs: **/*.go` (YAML would read an alias) and `description: | Use when...` (a block
        # indicator with text after it) are plain text to the tools that write them.
        data[key] = _scalar(_BLOCK.sub("", value, count=1))
    return data


_BLOCK = re.compile(r"^[|>][+-]?(?:[ \t]+|$)")


def _bracketed_words(value: str) -> bool:
    """Whether `value` is bracketed words, as `[issue] [branch]` is: every bracket it opens it
    closes, and none holds another (deep nesting is a file built to hurt, not a hint)."""
    pairs, open_ = {"]": "[", "}": "{"}, ""
    for char in value:
        if char in "[{":
            if open_:
                return False
            open_ = char
        elif char in pairs:
            if open_ != pairs[char]:
                return False
            open_ = ""
    return not open_


def _flow(value: str) -> Any:
    """A `[a, b]` or `{k: v}` value on its own, or None when it is not valid YAML either."""
    try:
        return yaml.load(value, Loader=_FrontmatterLoader)
    except (yaml.YAMLError, RecursionError):
        return None


def _scalar(value: str) -> str:
    value = value.strip()
    if len(value) >= 2 and value[0] == value[-1] and value[0] in "\"'":
        return value[1:-1]
    return value
