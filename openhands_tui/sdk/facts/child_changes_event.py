"""What a child that worked in its own copy of the workspace brought back (sdk/timeline/child_copy.py).

Apart from `event.py` (which unions it with the rest) to keep that module's size in bounds.
Recorded: the log keeps which files were merged and which conflicted, and where the child's
whole change is kept, so `tui view` and a resumed session say it too.
"""

from __future__ import annotations

from typing import Literal

from pydantic import Field

from openhands_tui.sdk.facts.event_base import EventBase


class ChildChangesEvent(EventBase):
    """A child's changes came back: `merged` into the workspace, `conflicts` kept as the
    workspace had them (the child's versions are in `patch`). `agent_id` is the child."""

    kind: Literal["child_changes"] = "child_changes"
    agent_name: str
    merged: list[str] = Field(default_factory=list)
    conflicts: list[str] = Field(default_factory=list)
    patch: str = Field(default="", description="The child's whole change as a git patch file.")
    diff: str = Field(default="", description="The start of that patch.")
    problem: str = ""

    def line(self) -> str:
        """`⑂ coder-2's changes: merged a.py, b.py · conflicts (yours kept): c.py — its version: PATH`."""
        if self.problem:
            return f"⑂ {self.agent_id}'s changes: {self.problem}"
        if not self.merged and not self.conflicts:
            return f"⑂ {self.agent_id} changed no files"
        parts = []
        if self.merged:
            parts.append(f"merged {_names(self.merged)}")
        if self.conflicts:
            parts.append(f"conflicts (yours kept): {_names(self.conflicts)} — its version: {self.patch}")
        return f"⑂ {self.agent_id}'s changes: " + " · ".join(parts)


def _names(paths: list[str], shown: int = 8) -> str:
    more = f" and {len(paths) - shown} more" if len(paths) > shown else ""
    return ", ".join(paths[:shown]) + more
