"""The one line said at a session's start when some of its microagents did not load.

The full reasons wait in the microagents panel, but a newcomer whose `AGENTS.md` or skill was
skipped found out only by opening it: the session started as if all was well.
"""

from __future__ import annotations

from openhands_tui.sdk.facts.event import MicroagentsLoadedEvent

#: The over-budget warning is said in the transcript already (tui/state.py).
_SAID_ELSEWHERE = "always-on context is"


def load_problems_notice(event: MicroagentsLoadedEvent) -> str | None:
    """How many microagent files were skipped (or had other load warnings), and where to look;
    None when nothing went wrong. Counts only: the reasons quote file names and contents."""
    problems = [w for w in event.warnings if not w.startswith(_SAID_ELSEWHERE)]
    if not problems:
        return None
    skipped = sum(": skipped" in w for w in problems)
    if skipped:
        files = "file" if skipped == 1 else "files"
        return f"{skipped} microagent {files} could not be loaded: /microagents (Ctrl+O) says why."
    warnings = "warning" if len(problems) == 1 else "warnings"
    return f"Microagents loaded with {len(problems)} {warnings}: /microagents (Ctrl+O) shows them."
