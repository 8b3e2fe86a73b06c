"""Plan mode: the agent looks around without changing anything, and ends by presenting a plan.

Held by the engine and the sandbox, never merely asked of the model. While an agent is
read-only (the session is in plan mode, its Agent says `read_only=True`, or the agent that
started it was read-only then):

- the model is offered only what reads: each tool's `plan_schema()` (the file editor's `view`,
  the terminal, MCP tools marked read-only, delegation, the task list, think, finish);
- a call it makes anyway is refused before it runs when it could change something
  (`refusal`): file changes, MCP tools not marked read-only, custom tools that do not say
  they only read. Hooks and allow rules are not asked: nothing lets such a call through;
- its commands run in a read-only sandbox: the terminal's jail asks `ToolContext.read_only`
  before each command and restarts the shell (and everything it left running) when the answer
  changed. Without a sandbox (`--sandbox off`) the terminal is refused. Nothing widens the
  sandbox: no network rule applies and no "run it again with more" is offered;
- the children it starts are held to the same, whatever happens to the mode afterwards.

When the root agent finishes in plan mode, its finish message is the plan
(`PlanProposedEvent`). Approving it leaves plan mode and sends the plan as the task
(`approved_task`); a note asks for a revised plan (`revision_task`), still in plan mode.
Standard library only: the app imports it before the engine is loaded.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

#: Told to the root agent with each message while the session is in plan mode.
PLAN_MODE_NOTE = """\
<plan_mode>
You are in PLAN MODE: read-only. Investigate (view files, run commands that only read: the \
terminal runs in a read-only sandbox) but change nothing: file edits and anything else that \
writes are refused. When you know enough, call `finish` with your plan as the message: the \
goal, the files to change and how, the commands to run, how to verify it, and open questions. \
The user reads it and either approves it (then you carry it out) or asks for changes.
</plan_mode>"""

#: Told to a child agent held read-only (its parent was planning, or its Agent is read-only).
READ_ONLY_NOTE = """\
<read_only>
You are read-only: view files and run commands that only read (the terminal runs in a \
read-only sandbox); changes are refused. Report what you found with `finish`.
</read_only>"""

#: Who refusals are attributed to, in the transcript and the model's tool result.
DECIDED_BY = "plan mode"

#: Told after a command the read-only sandbox stopped: nothing is offered to run it with more.
PLAN_MODE_SANDBOX = "Plan mode is read-only: it is not run again with more access. Put the step in your plan."

_IN_THE_PLAN = "put the change in your plan (`finish`) instead"


def refusal(subject: Any, tool: Any) -> str | None:
    """Why a read-only agent may not make this call (None: it may). `subject` is what the call
    touches (`sdk/facts/subject.py`), `tool` the tool it calls."""
    if subject is None:
        return None
    kind = subject.kind
    if kind == "shell":
        if getattr(tool, "confines_read_only", False):
            return None  # it runs in a read-only sandbox
        return (
            "plan mode is read-only, and without the sandbox (--sandbox off) commands cannot be held "
            "read-only; use the file editor's view instead"
        )
    if kind in ("delegation", "finish"):
        return None  # children are held read-only; finishing presents the plan
    if kind == "mcp":
        hints = subject.annotations
        if hints.read_only is True and hints.destructive is not True:
            return None
        return f"plan mode is read-only, and {subject.server}/{subject.tool} is not marked read-only; {_IN_THE_PLAN}"
    if not subject.changes_state:
        return None
    if kind == "file":
        return f"plan mode is read-only: no file changes ({subject.operation} {subject.path}); {_IN_THE_PLAN}"
    return f"plan mode is read-only, and this call can change things; {_IN_THE_PLAN}"


def approved_task(plan: str, note: str = "") -> str:
    """The message that carries an approved plan out (the user may have edited it)."""
    extra = f"\n\nThe user adds: {note.strip()}" if note.strip() else ""
    return (
        "The user approved your plan. Plan mode is over: you may now change files and run commands. "
        f"Carry the plan out, step by step, and verify the result.{extra}\n\n<plan>\n{plan.strip()}\n</plan>"
    )


def revision_task(note: str) -> str:
    """The message that sends a plan back with the user's note (plan mode stays on)."""
    said = note.strip() or "(no note)"
    return (
        "The user did not approve the plan yet. Their note:\n\n"
        f"{said}\n\nRevise the plan accordingly (you are still in plan mode) and present it again with `finish`."
    )


def last_plan(events: Iterable[Any]) -> str | None:
    """The latest plan the root agent presented in these events (stored or live), or None."""
    plan = None
    for event in events:
        if getattr(event, "kind", "") == "plan_proposed":
            plan = event.plan
    return plan


def planning_when_stored(events: Iterable[Any]) -> bool:
    """Whether a stored session was in plan mode when it stopped: its last mode event says."""
    planning = False
    for event in events:
        if getattr(event, "kind", "") == "policy_changed":
            planning = bool(getattr(event, "plan", False))
    return planning
