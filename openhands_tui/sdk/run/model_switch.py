"""Changing an agent's model mid-session, and keeping the change when the session resumes.

The agent gets a copy of its LLM with the new model name: the same key, endpoint, reasoning
effort, timeouts and context-window setting, but not a price per token set for the old model
(it would price the new one wrongly; litellm's price list, or none, applies instead). The call
in flight, if any, finishes on the old model and is charged to it (`ModelCalls.answered_by`).

The change is a `ModelChangedEvent`: the log keeps it, the tree and the app show it, and an
agent opened from the log again takes the model it names (`fold_recorded_model`). The root's
change is also written to the session's meta, where the launcher reads the model of a resumed
session from.
"""

from __future__ import annotations

from typing import Any, Protocol, TypeVar

from openhands_tui.sdk.agent import Agent
from openhands_tui.sdk.context.condenser import ContextGauge
from openhands_tui.sdk.facts.event import Event, EventBase, ModelChangedEvent, SystemPromptEvent
from openhands_tui.sdk.llm.client import LLM
from openhands_tui.sdk.run.runtime import Runtime

E = TypeVar("E", bound=EventBase)

#: What belongs to one model and is not carried over to another: its price.
PER_MODEL: dict[str, Any] = {"input_cost_per_token": None, "output_cost_per_token": None}


class Switchable(Protocol):
    """The view of an agent a model change needs (`AgentRun` is one)."""

    agent: Agent
    agent_id: str
    depth: int
    runtime: Runtime
    gauge: ContextGauge

    def record(self, cls: type[E], **fields: Any) -> E: ...


def switched_llm(llm: LLM, model: str) -> LLM:
    """`llm` calling `model` instead: everything else as it was, but its per-model prices."""
    copy: LLM = llm.model_copy(update={"model": model, **PER_MODEL})
    return copy


def use_model(run: Switchable, model: str) -> None:
    """From its next call on, `run` asks `model`. The Agent is copied, never changed: a strategy
    may hand the same Agent to several children."""
    run.agent = run.agent.model_copy(update={"llm": switched_llm(run.agent.llm, model)})
    run.gauge.forget()  # the provider's count of the last request was the old model's tokenizer's


def change_model(run: Switchable, model: str) -> ModelChangedEvent:
    """Switch `run` to `model` and record it (the root's also in the session's meta)."""
    previous = run.agent.llm.model
    use_model(run, model)
    return record_change(run, previous)


def record_change(run: Switchable, previous: str) -> ModelChangedEvent:
    """Record that `run` now calls its current model instead of `previous`."""
    model = run.agent.llm.model
    event = run.record(ModelChangedEvent, model=model, previous=previous)
    log = run.runtime.bus.log
    if run.depth == 0 and log is not None:
        log.save_meta(model=model)  # `tui --resume` starts the root on it
    return event


def fold_recorded_model(run: Switchable, own: list[Event]) -> None:
    """An agent opened from its stored events takes the model they last name. Unless it was
    launched with a model other than the one it started with (`--resume ID --model M`, or
    LLM_MODEL): that choice stands, and is recorded as a change."""
    started = next((e.model for e in own if isinstance(e, SystemPromptEvent)), None)
    changes = [e.model for e in own if isinstance(e, ModelChangedEvent)]
    recorded = changes[-1] if changes else started
    launched = run.agent.llm.model
    if recorded is None or launched == recorded:
        return
    if launched == started:
        use_model(run, recorded)  # already in the log: nothing new to record
    else:
        record_change(run, recorded)
