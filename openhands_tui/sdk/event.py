"""The OpenHands SDK's `openhands.sdk.event` names, for code written against it (a critic that
looks through the events it is given for messages and actions). The events themselves are this
engine's (`sdk/facts/event.py`): an `ActionEvent` says what it touches in `subject` and its
arguments in `arguments`; every event has `kind`, `agent_id` and `timestamp`."""

from __future__ import annotations

from abc import ABC, abstractmethod

from openhands_tui.sdk.facts.event import (
    SHOWN_TO_MODEL,
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
from openhands_tui.sdk.llm.message import Message

#: Every event is a pydantic model with these common fields; `isinstance(e, Event)` holds for all.
Event = EventBase


class LLMConvertibleEvent(ABC):
    """The SDK's events the model is shown: `isinstance(event, LLMConvertibleEvent)` holds for
    the system prompt, messages, tool calls and tool results, and `event.to_llm_message()` is
    that event as a `Message` (the engine's own history is rebuilt from the same events)."""

    @abstractmethod
    def to_llm_message(self) -> Message: ...


for _shown in SHOWN_TO_MODEL:
    LLMConvertibleEvent.register(_shown)

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
    "Message",
    "MessageEvent",
    "ObservationEvent",
    "StreamingDeltaEvent",
    "SystemPromptEvent",
]
