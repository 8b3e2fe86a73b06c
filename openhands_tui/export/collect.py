"""What an export holds, built once from a session's stored events for every format: its agents,
root first and each followed by the sub-agents it started, each with what it was asked, said and
did, and what that cost.

The history is the one the session goes on from (`effective_history`: what a rewind returned
from is left out, the rewind stays as a marker); the agents and their totals are the delegation
tree folded from that history, as the app shows it (`DelegationTree`).

Every string in the model has been through the redactor, and before anything is shortened (a
secret cut in two would no longer match it). What Markdown and HTML show (the entries, the
agents' names and tasks) is also without escape sequences and control characters
(`safe_for_terminal`), before any renderer measures it (a fence must be longer than every run of
backticks in what it holds, and removing a control character can join two runs): each renderer
then only escapes or fences. The events kept for the JSON export are redacted, not altered
otherwise.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from pydantic import ValidationError

from openhands_tui.sdk.facts.event import (
    ActionEvent,
    AgentErrorEvent,
    CondensationEvent,
    ConfirmationResolvedEvent,
    CriticResultEvent,
    DelegationClosedEvent,
    DelegationOpenedEvent,
    Event,
    HookRanEvent,
    LLMUsageEvent,
    MessageEvent,
    MicroagentTriggeredEvent,
    ModelChangedEvent,
    ObservationEvent,
    PlanProposedEvent,
    ResultsTruncatedEvent,
    RewindEvent,
    SessionForkedEvent,
    StatusEvent,
    SystemPromptEvent,
    event_adapter,
)
from openhands_tui.sdk.facts.store import SessionMeta
from openhands_tui.sdk.facts.tree import DelegationTree, TreeNode
from openhands_tui.sdk.security.secrets import Redactor
from openhands_tui.sdk.terminal_text import one_line, safe_for_terminal
from openhands_tui.sdk.timeline.history import effective_history
from openhands_tui.verdict_lines import critic_line, hook_line

#: How much of a tool's result, a call's argument and a message is kept (lines, characters):
#: a build log of 50,000 lines says what it has to say in its first and last lines.
RESULT_LIMIT = (60, 6_000)
ARGUMENT_LIMIT = (80, 6_000)
MESSAGE_LIMIT = (600, 40_000)
#: A one-line marker (a hook's reason, an error) longer than this is cut with an ellipsis.
NOTE_CHARS = 600

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


@dataclass(frozen=True)
class Clipped:
    """A text, or its head and tail when it was too long; `cut_*` say how much of the middle
    was left out."""

    head: str
    tail: str = ""
    cut_lines: int = 0
    cut_chars: int = 0

    @property
    def shortened(self) -> bool:
        return self.cut_chars > 0

    def note(self) -> str:
        lines = f"{self.cut_lines:,} lines, " if self.cut_lines else ""
        return f"[… {lines}{self.cut_chars:,} characters cut here …]"


def clip(text: str, limit: tuple[int, int]) -> Clipped:
    """`text` whole if it has at most `limit` (lines, characters); else its first three
    quarters of that and its last quarter, with what lies between counted."""
    max_lines, max_chars = limit
    if text.count("\n") < max_lines and len(text) <= max_chars:
        return Clipped(text)
    head_end = _after_lines(text, max(1, max_lines * 3 // 4))
    head_end = min(head_end, max_chars * 3 // 4)
    tail_start = _last_lines_start(text, max(1, max_lines // 4))
    tail_start = max(tail_start, len(text) - max_chars // 4)
    cut = text[head_end:tail_start]
    return Clipped(text[:head_end], text[tail_start:], cut_lines=cut.count("\n"), cut_chars=len(cut))


def _after_lines(text: str, count: int) -> int:
    """Where the first `count` lines end (before their last newline)."""
    end = -1
    for _ in range(count):
        end = text.find("\n", end + 1)
        if end < 0:
            return len(text)
    return end


def _last_lines_start(text: str, count: int) -> int:
    """Where the last `count` lines begin."""
    start = len(text)
    for _ in range(count):
        start = text.rfind("\n", 0, start)
        if start < 0:
            return 0
    return start + 1


@dataclass(frozen=True)
class Said:
    """A message: the task or a follow-up (user), an answer (assistant), or the report an agent
    finished with (`final`)."""

    role: str
    text: Clipped
    #: Who sent a user message the user did not type ("critic", "stop hook").
    source: str = ""
    final: bool = False
    #: How much the model thought first (the thinking itself is in the JSON export).
    thought_chars: int = 0
    #: Blocks of context the model was sent with a user message (workspace facts, microagents).
    context_blocks: int = 0


@dataclass(frozen=True)
class Result:
    outcome: str
    text: Clipped


@dataclass
class Call:
    """A tool call and, once it came, its result; the agents it started, if it delegated."""

    call_id: str
    tool: str
    summary: str
    arguments: list[tuple[str, Clipped]]
    risk: str = ""
    valid: bool = True
    result: Result | None = None
    #: Keys of the agents it started, in order.
    children: list[str] = field(default_factory=list)


@dataclass(frozen=True)
class Note:
    """One line about something that happened. `kind`: rewind, hook, critic, error, approved,
    rejected, status, context (condensing, a microagent), model, plan, unreadable."""

    kind: str
    text: str


Entry = Said | Call | Note


@dataclass
class AgentExport:
    """One agent: who it is, what it was asked, what it did, and its totals."""

    #: The agent's id as the log has it: links agents within this model, never shown (`id` is).
    key: str
    id: str
    name: str
    parent_key: str | None
    parent: str | None
    depth: int
    #: Names from the root down to this agent.
    chain: list[str]
    task: str
    status: str
    detail: str
    model: str
    tokens: int
    cost: float
    #: Calls whose price is unknown (the model has none in litellm): `cost` leaves them out.
    unpriced_calls: int
    subtree_tokens: int
    subtree_cost: float
    subtree_unpriced: int
    critic_score: float | None
    started: str | None
    ended: str | None
    elapsed_s: float
    entries: list[Entry] = field(default_factory=list)
    #: Keys of the agents it started, in order; `loose` those no call of its own names.
    children: list[str] = field(default_factory=list)
    loose: list[str] = field(default_factory=list)
    #: Its events as stored (redacted), for the JSON export.
    events: list[dict[str, Any]] = field(default_factory=list)


@dataclass(frozen=True)
class Totals:
    tokens: int = 0
    cost: float = 0.0
    unpriced_calls: int = 0


@dataclass
class SessionExport:
    session: dict[str, Any]
    #: "forked from …" when the session began as a copy of another, and that as data.
    forked: str | None
    forked_from: dict[str, Any] | None
    #: Root first, then depth first: each agent followed by the agents it started.
    agents: list[AgentExport]
    #: Of the exported history; `logged` also counts model calls a rewind went back from.
    totals: Totals
    logged: Totals
    warnings: list[str] = field(default_factory=list)

    def __post_init__(self) -> None:
        self._by_key = {agent.key: agent for agent in self.agents}

    def agent(self, key: str) -> AgentExport:
        return self._by_key[key]


def collect(
    meta: SessionMeta, events: Sequence[Event], redactor: Redactor, warnings: Sequence[str] = ()
) -> SessionExport:
    """The export model of a session whose log holds `events` (all of them, as loaded)."""
    history = effective_history(events)
    tree = DelegationTree.from_events(history)
    redacted = [_redacted(event, redactor) for event in history]
    shown = _Shown(redactor)
    agents = {key: _agent(tree, key, shown) for key in _order(tree, history)}
    builder = _EntryBuilder(agents, shown)
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


class _Shown:
    """Text as an export shows it: redacted, without terminal controls, and redacted again (a
    control character inside a secret would have hidden it from the first pass)."""

    def __init__(self, redactor: Redactor) -> None:
        self.redactor = redactor

    def __call__(self, text: str) -> str:
        return safe_for_terminal(self.redactor.redact(safe_for_terminal(self.redactor.redact(text))))

    def line(self, text: str, limit: int = NOTE_CHARS) -> str:
        """On one line, and cut with an ellipsis past `limit` characters."""
        line = one_line(self(text))
        return line if len(line) <= limit else line[: limit - 1] + "…"

    def clip(self, text: str, limit: tuple[int, int]) -> Clipped:
        return clip(self(text), limit)


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


def _agent(tree: DelegationTree, key: str, shown: _Shown) -> AgentExport:
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


class _EntryBuilder:
    """Turns each agent's (redacted) events into entries: calls paired with their results and
    the agents they started, one-line markers for the rest."""

    def __init__(self, agents: dict[str, AgentExport], shown: _Shown) -> None:
        self.agents = agents
        self.shown = shown
        self.calls: dict[tuple[str, str], Call] = {}
        self.finishing: set[tuple[str, str]] = set()

    def add(self, event: Event, clean: Event) -> None:
        """`event` as stored gives the structure (ids), `clean` (redacted) the text."""
        agent = self.agents[event.agent_id]
        entries = agent.entries
        if isinstance(clean, SystemPromptEvent | ModelChangedEvent):
            if isinstance(clean, ModelChangedEvent) and agent.model:
                entries.append(self.note("model", f"model changed to {clean.model}"))
            agent.model = self.shown.line(clean.model)
        elif isinstance(clean, MessageEvent):
            entries.append(self._said(clean))
        elif isinstance(clean, ActionEvent) and isinstance(event, ActionEvent):
            self._action(agent, event, clean)
        elif isinstance(clean, ObservationEvent) and isinstance(event, ObservationEvent):
            self._observation(agent, event, clean)
        elif isinstance(clean, AgentErrorEvent):
            call = self.calls.get((agent.key, event.tool_call_id or "")) if isinstance(event, AgentErrorEvent) else None
            if call is not None and call.result is None:
                call.result = Result("error", self.shown.clip(clean.error, RESULT_LIMIT))
            else:
                entries.append(self.note("error", f"error: {clean.error}"))
        elif isinstance(event, DelegationOpenedEvent):
            self._opened(event)
        else:
            note = self._marker(clean)
            if note is not None:
                entries.append(note)

    def note(self, kind: str, text: str) -> Note:
        return Note(kind, self.shown.line(text))

    def _said(self, event: MessageEvent) -> Said:
        thought = sum(len(block.get("thinking") or "") for block in event.thinking)
        return Said(
            role=event.role,
            text=self.shown.clip(event.content, MESSAGE_LIMIT),
            source=self.shown.line(event.source),
            thought_chars=thought,
            context_blocks=len(event.context),
        )

    def _action(self, agent: AgentExport, event: ActionEvent, clean: ActionEvent) -> None:
        key = (agent.key, event.tool_call_id)
        message = clean.arguments.get("message")
        if clean.tool_name == "finish" and clean.valid and isinstance(message, str):
            self.finishing.add(key)  # its result repeats the message
            agent.entries.append(Said("assistant", self.shown.clip(message, MESSAGE_LIMIT), final=True))
            return
        if clean.valid or not clean.raw_arguments:
            texts = [(name, _argument_text(value)) for name, value in clean.arguments.items()]
        else:
            texts = [("arguments (not valid)", clean.raw_arguments)]
        call = Call(
            call_id=event.tool_call_id,
            tool=self.shown.line(clean.tool_name),
            summary=self.shown.line(clean.summary),
            arguments=[(self.shown.line(name), self.shown.clip(text, ARGUMENT_LIMIT)) for name, text in texts],
            risk=str(clean.risk or ""),
            valid=clean.valid,
        )
        self.calls[key] = call
        agent.entries.append(call)

    def _observation(self, agent: AgentExport, event: ObservationEvent, clean: ObservationEvent) -> None:
        key = (agent.key, event.tool_call_id)
        if key in self.finishing:
            return
        result = Result(clean.outcome, self.shown.clip(clean.content, RESULT_LIMIT))
        call = self.calls.get(key)
        if call is None or call.result is not None:  # a result without its call: shown on its own
            tool = self.shown.line(clean.tool_name)
            agent.entries.append(Call(call_id=event.tool_call_id, tool=tool, summary="", arguments=[], result=result))
        else:
            call.result = result

    def _opened(self, event: DelegationOpenedEvent) -> None:
        parent = self.agents.get(event.parent_agent_id or "")
        if parent is None:
            return
        call = self.calls.get((parent.key, event.tool_call_id))
        if call is not None:
            call.children.append(event.agent_id)
        else:
            parent.loose.append(event.agent_id)

    def _marker(self, event: Event) -> Note | None:
        """The one line an event without a place of its own gets, or None if it is not shown
        (its facts are in the JSON export)."""
        if isinstance(event, RewindEvent):
            return self.note("rewind", _rewind_line(event))
        if isinstance(event, HookRanEvent):
            return None if event.outcome == "ran" and not event.said else self.note("hook", hook_line(event))
        if isinstance(event, CriticResultEvent):
            return self.note("critic", critic_line(event))
        if isinstance(event, ConfirmationResolvedEvent):
            verdict = "approved" if event.approved else "rejected"
            reason = f": {event.reason}" if event.reason else ""
            return self.note(verdict, f"{verdict} by {event.decided_by}{reason}")
        if isinstance(event, StatusEvent) and event.status in ("finished", "error", "stuck", "paused"):
            return self.note("status", f"{event.status}: {event.detail}" if event.detail else str(event.status))
        if isinstance(event, DelegationClosedEvent) and (event.status != "finished" or event.reason):
            reason = f": {event.reason}" if event.reason else ""
            return self.note("status", f"ended {event.status}{reason}")
        if isinstance(event, CondensationEvent):
            return self.note(
                "context",
                f"condensed {event.removed} messages ({event.reason}): "
                f"{event.tokens_before:,} → {event.tokens_after:,} tokens",
            )
        if isinstance(event, ResultsTruncatedEvent):
            return self.note("context", f"shortened {len(event.positions)} tool result(s) to fit the context window")
        if isinstance(event, MicroagentTriggeredEvent):
            why = f"keyword {event.keyword!r}" if event.keyword else "always on"
            return self.note("context", f"microagent {event.name} added ({event.type}, {why}, {event.tokens} tokens)")
        if isinstance(event, PlanProposedEvent):
            return self.note("plan", "proposed the plan above, for the user to approve")
        return None


def _argument_text(value: Any) -> str:
    return value if isinstance(value, str) else json.dumps(value, ensure_ascii=False, indent=2)


def _rewind_line(event: RewindEvent) -> str:
    """`rewound the conversation and the files to before turn 2`, or the undo of a rewind."""
    if event.turn is None:
        what = f"undid rewind {event.undoes}" if event.undoes else "undid a rewind"
    else:
        undone = (("the conversation", event.conversation), ("the files", event.code))
        parts = " and ".join(part for part, on in undone if on)
        what = f"rewound {parts or 'nothing'} to before turn {event.turn}"
    dropped = "; what followed that point is left out" if event.conversation else ""
    problem = f" ({event.problem})" if event.problem else ""
    return f"{what}{dropped}{problem}"


def _forked_line(event: SessionForkedEvent) -> str:
    title = f" ({event.origin_title})" if event.origin_title else ""
    where = f"at turn {event.turn}" if event.turn is not None else "with all of its history"
    return f"forked from session {event.origin}{title} {where}"


def _session_fields(meta: SessionMeta, shown: _Shown) -> dict[str, Any]:
    data = meta.model_dump(mode="json")
    return {name: redact_value(data.get(name), shown) for name in SESSION_FIELDS}


def _usage(events: Sequence[Event]) -> Totals:
    calls = [event for event in events if isinstance(event, LLMUsageEvent)]
    return Totals(
        tokens=sum(call.prompt_tokens + call.completion_tokens for call in calls),
        cost=sum(call.cost or 0.0 for call in calls),
        unpriced_calls=sum(1 for call in calls if call.cost is None),
    )
