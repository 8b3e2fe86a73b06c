"""The SDK's conversation visualizers: something told of every event as it is published.

`Conversation(visualizer=...)` takes an instance or a class; without one nothing is printed
(the app and `--headless` own the terminal). `DefaultConversationVisualizer` prints one plain
line per message, tool call and result, and each delegation opened and closed, to stdout."""

from __future__ import annotations

from abc import ABC, abstractmethod
from typing import Any

from openhands_tui.sdk.facts.event import (
    ActionEvent,
    AgentErrorEvent,
    DelegationClosedEvent,
    DelegationOpenedEvent,
    Event,
    MessageEvent,
    ObservationEvent,
)
from openhands_tui.sdk.terminal_text import one_line


class ConversationVisualizerBase(ABC):
    """Subclass and implement `on_event`; `initialize(state)` is called once with the
    conversation's state (`self.conversation_stats` then works)."""

    def __init__(self) -> None:
        self._state: Any = None

    def initialize(self, state: Any) -> None:
        self._state = state

    @property
    def conversation_stats(self) -> Any:
        return self._state.stats if self._state is not None else None

    @abstractmethod
    def on_event(self, event: Event) -> None: ...


class DefaultConversationVisualizer(ConversationVisualizerBase):
    """Plain lines on stdout; a child agent's lines are indented under its parent's."""

    def __init__(self, name: str | None = None, width: int = 160) -> None:
        super().__init__()
        self.name = name
        self.width = width

    def on_event(self, event: Event) -> None:
        line = self.line(event)
        if line is not None:
            indent = "  " if event.parent_agent_id is not None else ""
            who = self.name if self.name is not None and event.parent_agent_id is None else event.agent_id
            print(f"{indent}[{who}] {one_line(line)[: self.width]}", flush=True)

    @staticmethod
    def line(event: Event) -> str | None:
        if isinstance(event, MessageEvent):
            return f"{event.role}: {event.content}"
        if isinstance(event, ActionEvent):
            return f"→ {event.tool_name} {event.summary or event.raw_arguments}"
        if isinstance(event, ObservationEvent):
            return f"← {event.tool_name} ({event.outcome}): {event.content}"
        if isinstance(event, AgentErrorEvent):
            return f"error: {event.error}"
        if isinstance(event, DelegationOpenedEvent):
            return f"delegates to {event.agent_name}: {event.task}"
        if isinstance(event, DelegationClosedEvent):
            return f"{event.agent_name} {event.status}: {event.result or event.reason}"
        return None


__all__ = ["ConversationVisualizerBase", "DefaultConversationVisualizer"]
