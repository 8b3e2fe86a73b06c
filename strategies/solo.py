"""Solo: one coding agent with terminal, file editor and task tracker; no delegation.

When to use it: focused work in one repository where a single agent can hold the whole
task in mind — a bug fix, a test, a small feature. It is also what `tui` runs when no
--strategy is given. Param `instructions` appends text to the agent's system prompt:

    tui --strategy strategies/solo.py --param instructions="Prefer pytest" --task "..."
"""

from openhands_tui.builtin.solo import Solo

__all__ = ["Solo"]
