"""The OpenHands SDK's `openhands.sdk.event` names, for code written against it (a critic that
looks through the events it is given for messages and actions). The events themselves are this
engine's (`sdk/facts/event.py`): an `ActionEvent` says what it touches in `subject` and its
arguments in `arguments`; every event has `kind`, `agent_id` and `timestamp`."""

from __future__ import annotations

from openhands_tui.sdk.facts.event import (
    ActionEvent,
    AgentErrorEvent,
    CondensationEvent,
    CriticResultEvent,
    EventBase,
    HookRanEvent,
    MessageEvent,
    ObservationEvent,
    SystemPromptEvent,
    TextDeltaEvent,
)

#: Every event is a pydantic model with these common fields; `isinstance(e, Event)` holds for all.
Event = EventBase
#: The SDK's base of events the model is shown: here, any event (the run decides what it sends).
LLMConvertibleEvent = EventBase
#: The SDK's names for the same events.
HookExecutionEvent = HookRanEvent
StreamingDeltaEvent = TextDeltaEvent
CondensationSummaryEvent = CondensationEvent

__all__ = [
    "ActionEvent",
    "AgentErrorEvent",
    "CondensationSummaryEvent",
    "CriticResultEvent",
    "Event",
    "HookExecutionEvent",
    "LLMConvertibleEvent",
    "MessageEvent",
    "ObservationEvent",
    "StreamingDeltaEvent",
    "SystemPromptEvent",
]
