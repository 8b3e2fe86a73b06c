"""What an export holds, built once from a session's stored events for every format: its agents,
root first and each followed by the sub-agents it started, each with what it was asked, said and
did (`entries.py`), and what that cost.

The history is the one the session goes on from (`effective_history`: what a rewind returned
from is left out, the rewind stays as a marker); the agents and their totals are the delegation
tree folded from that history, as the app shows it (`DelegationTree`).

Every event is redacted again before anything is taken from it, and so before anything is
shortened (a secret cut in two would no longer match). The events kept for the JSON export are
redacted and not altered otherwise; what Markdown and HTML show is also made safe (`Shown`).
"""

from __future__ import annotations

import json
from collections.abc import Callable, Sequence
from typing import Any

from pydantic import ValidationError

from openhands_tui.export.entries import EntryBuilder, Shown
from openhands_tui.export.model import AgentExport, Note, SessionExport, Totals
from openhands_tui.sdk.facts.event import Event, LLMUsageEvent, SessionForkedEvent, event_adapter
from openhands_tui.sdk.facts.store import SessionMeta
from openhands_tui.sdk.facts.tree import DelegationTree, TreeNode
from openhands_tui.sdk.security.secrets import Redactor
from openhands_tui.sdk.timeline.history import effective_history

#: What of the session's metadata an export shows. `base_url` is left out: an endpoint's
#: address may carry a key in its query, and says nothing about what the agents did.
SESSION_FIELDS = (
    "id",
    "title",
    "created",
    "status",
    "strategy",
    "agent",
    "params",
    "model",
    "reasoning_effort",
    "sandbox",
    "workspace",
)


def collect(
    meta: SessionMeta, events: Sequence[Event], redactor: Redactor, warnings: Sequence[str] = ()
) -> SessionExport:
    """The export model of a session whose log holds `events` (all of them, as loaded)."""
    history = effective_history(events)
    tree = DelegationTree.from_events(history)
    redacted = [_redacted(event, redactor) for event in history]
    shown = Shown(redactor)
    agents = {key: _agent(tree, key, shown) for key in _order(tree, history)}
    builder = EntryBuilder(agents, shown)
    forked: str | None = None
    forked_from: dict[str, Any] | None = None
    for event, (data, clean) in zip(history, redacted, strict=True):
        agent = agents[event.agent_id]
        agent.events.append(data)
        if isinstance(event, SessionForkedEvent) and isinstance(clean, SessionForkedEvent):
            forked = shown.line(_forked_line(clean))
            forked_from = {
                "session": shown.line(clean.origin),
                "title": shown.line(clean.origin_title),
                "turn": clean.turn,
            }
        elif clean is None:
            agent.entries.append(Note("unreadable", f"a {event.kind} event is left out: redacting it made it invalid"))
        else:
            builder.add(event, clean)
    notes = list(warnings)
    unreadable = sum(1 for _, clean in redacted if clean is None)
    if unreadable:
        notes.append(f"{unreadable} event(s) are shown only in the JSON export: redacting them made them invalid")
    exported = list(agents.values())
    return SessionExport(
        session=_session_fields(meta, shown),
        forked=forked,
        forked_from=forked_from,
        agents=exported,
        totals=Totals(
            sum(a.tokens for a in exported), sum(a.cost for a in exported), sum(a.unpriced_calls for a in exported)
        ),
        logged=_usage(events),
        warnings=[shown.line(note) for note in notes],
    )


def redact_value(value: Any, redact: Callable[[str], str]) -> Any:
    """`value` with `redact` applied to every string in it (dict keys too)."""
    if isinstance(value, str):
        return redact(value)
    if isinstance(value, dict):
        return {redact_value(key, redact): redact_value(item, redact) for key, item in value.items()}
    if isinstance(value, list | tuple):
        return [redact_value(item, redact) for item in value]
    return value


def _redacted(event: Event, redactor: Redactor) -> tuple[dict[str, Any], Event | None]:
    """The event as stored, redacted again: as a dict (for JSON) and as an event (None if a
    secret's value was also a word the event needs, say a status, so it no longer parses)."""
    line = event.model_dump_json()
    clean = redactor.redact(line)
    if clean == line:
        return json.loads(line), event
    try:
        data = json.loads(clean)
    except ValueError:  # a label that needs escaping in JSON: redact value by value instead
        data = redact_value(json.loads(line), redactor.redact)
    try:
        return data, event_adapter().validate_python(data)
    except ValidationError:
        return data, None


def _order(tree: DelegationTree, history: Sequence[Event]) -> list[str]:
    """Agent ids root first, each followed by its subtree; any the tree cannot reach from the
    root (a parent rewound away) after them, in the order they appear."""
    order: list[str] = []

    def walk(key: str) -> None:
        order.append(key)
        for child in tree.nodes[key].children:
            walk(child)

    if tree.root_id is not None:
        walk(tree.root_id)
    seen = set(order)
    for event in history:
        if event.agent_id not in seen:
            seen.add(event.agent_id)
            order.append(event.agent_id)
    return order


def _agent(tree: DelegationTree, key: str, shown: Shown) -> AgentExport:
    node: TreeNode = tree.nodes[key]
    return AgentExport(
        key=key,
        id=shown.line(key),
        name=shown.line(node.name),
        parent_key=node.parent_id,
        parent=shown.line(node.parent_id) if node.parent_id else None,
        depth=node.depth,
        chain=[shown.line(name) for name in tree.chain(key)],
        task=shown(node.task),
        status=node.status,
        detail=shown(node.detail),
        model="",
        tokens=node.tokens,
        cost=node.cost,
        unpriced_calls=node.unpriced_calls,
        subtree_tokens=tree.subtree_tokens(key),
        subtree_cost=tree.subtree_cost(key),
        subtree_unpriced=tree.subtree_unpriced(key),
        critic_score=node.critic_score,
        started=node.started,
        ended=node.ended,
        elapsed_s=node.elapsed_s,
        children=list(node.children),
    )


def _forked_line(event: SessionForkedEvent) -> str:
    title = f" ({event.origin_title})" if event.origin_title else ""
    where = f"at turn {event.turn}" if event.turn is not None else "with all of its history"
    return f"forked from session {event.origin}{title} {where}"


def _session_fields(meta: SessionMeta, shown: Shown) -> dict[str, Any]:
    data = meta.model_dump(mode="json")
    return {name: redact_value(data.get(name), shown) for name in SESSION_FIELDS}


def _usage(events: Sequence[Event]) -> Totals:
    calls = [event for event in events if isinstance(event, LLMUsageEvent)]
    return Totals(
        tokens=sum(call.prompt_tokens + call.completion_tokens for call in calls),
        cost=sum(call.cost or 0.0 for call in calls),
        unpriced_calls=sum(1 for call in calls if call.cost is None),
    )
