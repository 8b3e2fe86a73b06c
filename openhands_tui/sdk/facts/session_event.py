"""Events by which a user steers a session: checkpoints of the workspace, rewinds, forks and a
change of model.

The log stays append-only: a rewind does not delete what came after the point it returns to, it
is an event that says "the conversation goes on from the state before event X"
(`sdk/timeline/history.py` folds them), so every rewind can itself be undone.
"""

from __future__ import annotations

from typing import Literal

from pydantic import Field

from openhands_tui.sdk.facts.event_base import EventBase


class CheckpointEvent(EventBase):
    """The workspace's files as they were at a moment, kept as a tree in the session's shadow
    repository (`sdk/timeline/shadow_repo.py`), never in the user's own git. A turn's checkpoint
    is taken while the model reads the message (before any tool runs), so it is recorded after
    the message it belongs to, and names it."""

    kind: Literal["checkpoint"] = "checkpoint"
    purpose: Literal["turn", "rewind"] = Field(
        default="turn", description="turn: before a user turn; rewind: before a rewind, to undo it."
    )
    turn_event: str = Field(default="", description="The id of the user's message it was taken before.")
    tree: str = Field(default="", description="The git tree id in the shadow repository; empty if none was taken.")
    files: int = 0
    skipped: list[str] = Field(default_factory=list, description="What was left out, and why.")
    problem: str = Field(default="", description="Why no checkpoint could be taken.")
    seconds: float = 0.0


class RewindEvent(EventBase):
    """The user rewound the session: the conversation (if `conversation`) goes on from the state
    it had just before event `to_event`, and the files (if `code`) were put back as tree
    `restored_tree` had them; `undo_tree` is how they were just before, to undo this."""

    kind: Literal["rewind"] = "rewind"
    to_event: str
    turn: int | None = Field(default=None, description="The turn rewound to (1: before the first); None: an undo.")
    undoes: str | None = Field(default=None, description="The id of the rewind this one undoes.")
    code: bool = True
    conversation: bool = True
    restored_tree: str = ""
    undo_tree: str = ""
    changed: list[str] = Field(default_factory=list, description="'M path', 'A path' or 'D path', as restored.")
    problem: str = Field(default="", description="Why the files could not be (fully) restored.")
    agents_started: int = Field(default=0, description="Sub-agents started before it: new ones get new ids.")
    #: What the model calls it takes out of the history cost: spent all the same, so the session's
    #: totals keep counting them (an undo takes the rewind out, and its calls come back).
    tokens_dropped: int = 0
    cost_dropped: float = 0.0


class SessionForkedEvent(EventBase):
    """This session began as a copy of another's history: the first event of a fork."""

    kind: Literal["session_forked"] = "session_forked"
    origin: str
    origin_title: str = ""
    turn: int | None = Field(default=None, description="Copied up to before this turn; None: all of it.")


class ModelChangedEvent(EventBase):
    """An agent's model was changed mid-session: its next call uses `model`."""

    kind: Literal["model_changed"] = "model_changed"
    model: str
    previous: str = ""
