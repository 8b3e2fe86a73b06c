"""The words Markdown and HTML exports share: an agent's figures, a cost, what a call and a
result are titled, so the two formats say the same thing about the same session."""

from __future__ import annotations

from openhands_tui.export.entries import MESSAGE_LIMIT
from openhands_tui.export.model import (
    AgentExport,
    Call,
    Clipped,
    Note,
    Said,
    SessionExport,
    Totals,
    clip,
)


def cost_text(cost: float, unpriced: int) -> str:
    """`$0.0123`, or what is unknown about it when the model has no price."""
    if unpriced and not cost:
        return "cost unknown (no price for the model)"
    money = f"${cost:.4f}"
    return f"{money} + {unpriced:,} call(s) without a price" if unpriced else money


def totals_text(export: SessionExport) -> str:
    """Tokens and cost of the exported history, and of the whole log when a rewind left
    paid-for calls out of it."""
    text = _figures(export.totals)
    if export.logged != export.totals and export.logged.tokens != export.totals.tokens:
        text += f" (the whole log, rewound parts included: {_figures(export.logged)})"
    return text


#: The session's facts an export opens with: (its metadata's field, how it is named).
_FACTS = (
    ("created", "created"),
    ("status", "status"),
    ("strategy", "strategy"),
    ("agent", "root agent"),
    ("model", "model"),
    ("reasoning_effort", "reasoning effort"),
    ("sandbox", "sandbox"),
    ("workspace", "workspace"),
)


def session_facts(export: SessionExport) -> list[tuple[str, str]]:
    """(name, value) of what an export says first about its session, as plain text: each
    format marks them up (and escapes them) its own way."""
    session = export.session
    facts = [(label, str(session[name])) for name, label in _FACTS if session.get(name)]
    if session.get("params"):
        facts.append(("params", ", ".join(f"{name}={value}" for name, value in session["params"].items())))
    facts.append(("agents", f"{len(export.agents)} · {totals_text(export)}"))
    return facts


def _figures(totals: Totals) -> str:
    return f"{totals.tokens:,} tokens · {cost_text(totals.cost, totals.unpriced_calls)}"


def agent_figures(agent: AgentExport) -> list[str]:
    """`finished`, tokens (with its sub-agents'), cost, time, model, critic score."""
    figures = [agent.status + (f": {agent.detail}" if agent.detail else "")]
    tokens = f"{agent.tokens:,} tokens"
    if agent.children:
        tokens += f" ({agent.subtree_tokens:,} with its sub-agents)"
    figures.append(tokens)
    figures.append(cost_text(agent.cost, agent.unpriced_calls))
    if agent.children and agent.subtree_cost != agent.cost:
        figures[-1] += f" ({cost_text(agent.subtree_cost, agent.subtree_unpriced)} with its sub-agents)"
    if agent.elapsed_s:
        figures.append(f"{agent.elapsed_s:.1f} s")
    if agent.model:
        figures.append(f"model {agent.model}")
    if agent.critic_score is not None:
        figures.append(f"critic {agent.critic_score:.0%}")
    return figures


def agent_title(agent: AgentExport) -> str:
    """The names from the root down, joined by U+203A (`root > coder` with that arrow), with the id when
    it is not the name (`coder-1`)."""
    chain = " › ".join(agent.chain) or agent.name
    return chain if agent.id == agent.name else f"{chain} ({agent.id})"


def shows_task(agent: AgentExport) -> bool:
    """A sub-agent's task is its first user message; shown apart only when that is missing
    (a delegation refused before the agent started)."""
    return bool(agent.task) and not any(isinstance(entry, Said) and entry.role == "user" for entry in agent.entries)


def task_text(agent: AgentExport) -> Clipped:
    return clip(agent.task, MESSAGE_LIMIT)


def said_title(said: Said) -> str:
    """`user`, `user (sent by the critic)`, `assistant`, `final report`."""
    if said.final:
        return "final report"
    title = said.role
    if said.source:
        title += f" (sent by the {said.source})"
    extras = []
    if said.thought_chars:
        extras.append(f"thought first: {said.thought_chars:,} characters")
    if said.context_blocks:
        extras.append(f"+{said.context_blocks} context block(s) for the model")
    return f"{title} · {' · '.join(extras)}" if extras else title


def call_title(call: Call) -> str:
    """The tool and what the call does (`terminal: $ make test`), its risk if not low."""
    title = call.tool
    if call.summary and call.summary != call.tool:
        title += f": {call.summary}"
    if call.risk and call.risk != "LOW":
        title += f" [{call.risk} risk]"
    if not call.valid:
        title += " [invalid call]"
    return title


def result_title(call: Call) -> str:
    if call.result is None:
        return "no result (the run ended before it came)"
    return "result" if call.result.outcome == "ok" else f"result: {call.result.outcome}"


#: The mark in front of each kind of note.
NOTE_MARKS = {
    "rewind": "↶",
    "critic": "",
    "hook": "",
    "error": "!",
    "approved": "✓",
    "rejected": "⊘",
    "status": "●",
    "context": "◆",
    "model": "⇄",
    "plan": "☰",
    "unreadable": "?",
}


def note_line(note: Note) -> str:
    """The note with the mark of its kind in front (hook and critic lines bring their own)."""
    mark = NOTE_MARKS.get(note.kind, "·")
    return f"{mark} {note.text}" if mark else note.text
