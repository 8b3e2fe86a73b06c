"""A session's events turned into each agent's entries: messages, tool calls paired with their
results and with the agents they started, and one line for the rest (rewinds, hook and critic
verdicts, approvals, errors).

Entries are made from events already redacted; every text in them is also passed through
`Shown`: without escape sequences and control characters, and redacted again (what stripping
joins might be a secret). That happens before anything measures the text: a Markdown fence must
be longer than every run of backticks it holds, and removing a control character can join two
runs.
"""

from __future__ import annotations

import json
from typing import Any

from openhands_tui.export.model import AgentExport, Call, Clipped, Note, Result, Said, clip
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
    MessageEvent,
    MicroagentTriggeredEvent,
    ModelChangedEvent,
    ObservationEvent,
    PlanProposedEvent,
    ResultsTruncatedEvent,
    RewindEvent,
    StatusEvent,
    SystemPromptEvent,
)
from openhands_tui.sdk.security.secrets import Redactor
from openhands_tui.sdk.terminal_text import one_line, safe_for_terminal
from openhands_tui.verdict_lines import critic_line, hook_line

#: How much of a tool's result, a call's argument and a message is kept (lines, characters):
#: a build log of 50,000 lines says what it has to say in its first and last lines.
RESULT_LIMIT = (60, 6_000)
ARGUMENT_LIMIT = (80, 6_000)
MESSAGE_LIMIT = (600, 40_000)
#: A one-line marker (a hook's reason, an error) longer than this is cut with an ellipsis.
NOTE_CHARS = 600


class Shown:
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


class EntryBuilder:
    """Turns each agent's (redacted) events into entries: calls paired with their results and
    the agents they started, one-line markers for the rest."""

    def __init__(self, agents: dict[str, AgentExport], shown: Shown) -> None:
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
