"""What every event has: an id, a time, the agent that produced it and that agent's parent.

Apart from `event.py` so that groups of events can live in modules of their own (the session's
own control events, `session_event.py`) and still be one union there.
"""

from __future__ import annotations

import itertools
import secrets
from collections.abc import Callable
from datetime import UTC, datetime
from enum import StrEnum

from pydantic import ConfigDict, Field

from openhands_tui.sdk.model import Model


def _random_id() -> str:
    return secrets.token_hex(8)


def _utc_now() -> str:
    return datetime.now(UTC).isoformat(timespec="milliseconds")


_id_factory: Callable[[], str] = _random_id
_clock: Callable[[], str] = _utc_now


def use_deterministic_ids(prefix: str = "e") -> None:
    """Make event ids and timestamps predictable (for snapshots and golden files)."""
    global _id_factory, _clock
    counter = itertools.count(1)
    _id_factory = lambda: f"{prefix}{next(counter):06d}"  # noqa: E731
    ticks = itertools.count(0)
    _clock = lambda: f"2026-01-01T00:00:{next(ticks) % 60:02d}.000+00:00"  # noqa: E731


def use_random_ids() -> None:
    global _id_factory, _clock
    _id_factory, _clock = _random_id, _utc_now


def new_id() -> str:
    return _id_factory()


class Status(StrEnum):
    IDLE = "idle"
    RUNNING = "running"
    WAITING_FOR_CONFIRMATION = "waiting_for_confirmation"
    FINISHED = "finished"
    ERROR = "error"
    STUCK = "stuck"
    PAUSED = "paused"


class EventBase(Model):
    # defer_build: schemas are built on first use, keeping imports (and start-up) cheap
    model_config = ConfigDict(frozen=True, extra="forbid", defer_build=True)

    id: str = Field(default_factory=new_id)
    timestamp: str = Field(default_factory=lambda: _clock())
    agent_id: str
    parent_agent_id: str | None = None

    #: Transient events are published to subscribers but never written to the log.
    transient: bool = Field(default=False, exclude=True)
