"""The delegation tree, rebuilt purely from events — live, or from a stored `events.jsonl`.

Nothing else records who delegated to whom: the tree is a fold over the same event stream
the log stores, so a resumed session shows exactly the tree the live run showed.
"""

from __future__ import annotations

from collections.abc import Iterable
from datetime import datetime
from typing import Literal

from pydantic import Field

from openhands_tui.sdk.facts.event import (
    ChildChangesEvent,
    CriticResultEvent,
    DelegationClosedEvent,
    DelegationOpenedEvent,
    Event,
    LLMUsageEvent,
    MessageEvent,
    ModelChangedEvent,
    RewindEvent,
    SessionForkedEvent,
    Status,
    StatusEvent,
    SystemPromptEvent,
)
from openhands_tui.sdk.model import Model

NodeStatus = Literal[
    "idle", "running", "waiting_for_confirmation", "finished", "failed", "rejected", "interrupted", "paused"
]

_FROM_STATUS: dict[Status, NodeStatus] = {
    Status.IDLE: "idle",
    Status.RUNNING: "running",
    Status.WAITING_FOR_CONFIRMATION: "waiting_for_confirmation",
    Status.FINISHED: "finished",
    Status.ERROR: "failed",
    Status.STUCK: "failed",
    Status.PAUSED: "paused",
}
_FROM_CLOSED: dict[str, NodeStatus] = {
    "finished": "finished",
    "failed": "failed",
    "rejected": "rejected",
    "limit": "failed",
    "interrupted": "interrupted",
}


class TreeNode(Model):
    agent_id: str
    name: str
    task: str = ""
    parent_id: str | None = None
    depth: int = 0
    #: The model it calls: its system prompt's, or the last it was switched to (/model).
    model: str = ""
    status: NodeStatus = "idle"
    detail: str = ""
    children: list[str] = Field(default_factory=list)
    tokens: int = 0
    cost: float = 0.0
    #: Calls whose price is unknown (a model litellm has no price for): `cost` leaves them out.
    unpriced_calls: int = 0
    #: Input tokens of this agent's own calls, and those read from / written to the prompt cache.
    prompt_tokens: int = 0
    cache_read_tokens: int = 0
    cache_write_tokens: int = 0
    #: The last score its critic gave (None: not judged), and the refinement rounds it was sent back.
    critic_score: float | None = None
    critic_rounds: int = 0
    #: What it brought back from its own working copy (sdk/timeline/child_copy.py): files merged
    #: into the workspace, files that conflicted (None: it worked in the workspace itself).
    merged_files: int | None = None
    conflicted_files: int = 0
    started: str | None = None
    last_seen: str | None = None
    ended: str | None = None

    @property
    def elapsed_s(self) -> float:
        """Seconds from the first to the last event of this agent (or to its close)."""
        start, end = self.started, self.ended or self.last_seen
        if not start or not end:
            return 0.0
        return max(0.0, (datetime.fromisoformat(end) - datetime.fromisoformat(start)).total_seconds())


def _starts_a_task(event: Event) -> bool:
    """What starts the root's clock: the user's message (a session can sit open long before)."""
    return isinstance(event, MessageEvent) and event.role == "user"


class DelegationTree:
    """Feed it events with `apply`; read `nodes`, `root_id`, and subtree totals."""

    def __init__(self) -> None:
        self.nodes: dict[str, TreeNode] = {}
        self.root_id: str | None = None
        #: The session this one was forked from, and where (None: not a fork): the root shows it.
        self.origin: SessionForkedEvent | None = None

    @classmethod
    def from_events(cls, events: Iterable[Event]) -> DelegationTree:
        tree = cls()
        for event in events:
            tree.apply(event)
        return tree

    def apply(self, event: Event) -> None:
        if event.transient:
            return
        if isinstance(event, SessionForkedEvent):  # before the root's system prompt: no node of its own
            self.origin = event
            return
        if isinstance(event, DelegationOpenedEvent):
            node = self._node(event.agent_id, event.agent_name, event.parent_agent_id)
            node.task, node.depth, node.status = event.task, event.depth, "running"
        elif isinstance(event, SystemPromptEvent):
            node = self._node(event.agent_id, event.agent_name, event.parent_agent_id)
            node.model = event.model
            if event.parent_agent_id is None:
                self.root_id = self.root_id or event.agent_id
        else:
            node = self.nodes.get(event.agent_id) or self._node(event.agent_id, event.agent_id, event.parent_agent_id)
        if node.started is None and (node.parent_id is not None or _starts_a_task(event)):
            node.started = event.timestamp  # the root's clock starts with the task, not the session
        node.last_seen = event.timestamp
        if isinstance(event, LLMUsageEvent):
            node.tokens += event.prompt_tokens + event.completion_tokens
            node.cost += event.cost or 0.0
            node.unpriced_calls += event.cost is None
            node.prompt_tokens += event.prompt_tokens
            node.cache_read_tokens += event.cache_read_tokens
            node.cache_write_tokens += event.cache_write_tokens
        elif isinstance(event, StatusEvent):  # a child's close always comes after its last status
            node.status, node.detail = _FROM_STATUS[event.status], event.detail
            node.ended = node.last_seen if node.status in ("finished", "failed") else None
        elif isinstance(event, DelegationClosedEvent):
            node.status, node.detail, node.ended = _FROM_CLOSED[event.status], event.reason, event.timestamp
        elif isinstance(event, RewindEvent):  # calls a rewind took out of the history were paid for
            node.tokens += event.tokens_dropped
            node.cost += event.cost_dropped
        elif isinstance(event, ModelChangedEvent):
            node.model = event.model
        elif isinstance(event, CriticResultEvent) and event.score is not None:
            node.critic_score, node.critic_rounds = event.score, max(node.critic_rounds, event.round)
        elif isinstance(event, ChildChangesEvent):
            node.merged_files, node.conflicted_files = len(event.merged), len(event.conflicts)

    def _node(self, agent_id: str, name: str, parent_id: str | None) -> TreeNode:
        node = self.nodes.get(agent_id)
        if node is None:
            node = TreeNode(agent_id=agent_id, name=name, parent_id=parent_id)
            self.nodes[agent_id] = node
            parent = self.nodes.get(parent_id) if parent_id else None
            if parent is not None:
                parent.children.append(agent_id)
                node.depth = parent.depth + 1
            if parent_id is None and self.root_id is None:
                self.root_id = agent_id
        return node

    def subtree_tokens(self, agent_id: str) -> int:
        node = self.nodes[agent_id]
        return node.tokens + sum(self.subtree_tokens(child) for child in node.children)

    def subtree_cost(self, agent_id: str) -> float:
        node = self.nodes[agent_id]
        return node.cost + sum(self.subtree_cost(child) for child in node.children)

    def subtree_unpriced(self, agent_id: str) -> int:
        node = self.nodes[agent_id]
        return node.unpriced_calls + sum(self.subtree_unpriced(child) for child in node.children)

    def subtree_cache(self, agent_id: str) -> tuple[int, int, int]:
        """(input tokens, read from the prompt cache, written to it) of an agent and its subtree."""
        node = self.nodes[agent_id]
        prompt, read, write = node.prompt_tokens, node.cache_read_tokens, node.cache_write_tokens
        for child in node.children:
            child_prompt, child_read, child_write = self.subtree_cache(child)
            prompt, read, write = prompt + child_prompt, read + child_read, write + child_write
        return prompt, read, write

    def chain(self, agent_id: str) -> list[str]:
        """Agent names from the root down to `agent_id`."""
        names = []
        node: TreeNode | None = self.nodes.get(agent_id)
        while node is not None:
            names.append(node.name)
            node = self.nodes.get(node.parent_id) if node.parent_id else None
        return names[::-1]

    def snapshot(self) -> dict[str, dict[str, object]]:
        """Everything the tree knows, for comparing two trees."""
        return {
            agent_id: {
                **node.model_dump(),
                "subtree_tokens": self.subtree_tokens(agent_id),
                "subtree_cost": round(self.subtree_cost(agent_id), 9),
                "elapsed_s": node.elapsed_s,
            }
            for agent_id, node in self.nodes.items()
        }

    def render(self) -> str:
        """A plain-text view: one line per agent, indented by depth."""
        lines: list[str] = []

        def walk(agent_id: str, indent: int) -> None:
            node = self.nodes[agent_id]
            task = f" — {node.task[:60]}" if node.task else ""
            lines.append(f"{'  ' * indent}{node.name} [{node.status}] {self.subtree_tokens(agent_id)} tok{task}")
            for child in node.children:
                walk(child, indent + 1)

        if self.root_id is not None:
            walk(self.root_id, 0)
        return "\n".join(lines)
