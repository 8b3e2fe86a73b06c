"""The export's model of a session: its agents, root first, and what each was asked, said and
did, as entries every format renders (`collect.py` builds it). Long texts are kept as their head
and tail (`Clipped`), with what was cut between them counted.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any


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
