"""Noticing an agent that goes round in circles, so a run ends instead of burning its budget.

The patterns (OpenHands' stuck detector is the model; the thresholds are the issue's): the
same action with the same result 4 times in a row; the same action failing the same way 3
times; the same thing said 3 times with no user turn; two actions alternating with their
results over the last 6 rounds (A B A B A B). Only what happened since the user last spoke counts.
"""

from __future__ import annotations

import json
from dataclasses import dataclass

from openhands_tui.sdk.facts.event import ActionEvent, AgentErrorEvent, Event, MessageEvent, ObservationEvent

SAME_RESULT = 4
SAME_ERROR = 3
SAME_MESSAGE = 3
ALTERNATING_ROUNDS = 6


@dataclass(frozen=True)
class Round:
    """One tool call and what came back."""

    action: str
    result: str
    error: bool
    summary: str


class StuckDetector:
    def __init__(self) -> None:
        self.rounds: list[Round] = []
        self.messages: list[str] = []
        self._pending: dict[str, tuple[str, str]] = {}

    def observe(self, event: Event) -> None:
        if isinstance(event, MessageEvent):
            if event.role == "user":
                self.rounds.clear()
                self.messages.clear()
            elif event.content.strip():
                self.messages.append(event.content.strip())
        elif isinstance(event, ActionEvent):
            arguments = {k: v for k, v in event.arguments.items() if k != "security_risk"}
            key = f"{event.tool_name} {json.dumps(arguments, sort_keys=True)}"
            self._pending[event.tool_call_id] = (key, event.summary or event.tool_name)
        elif isinstance(event, ObservationEvent | AgentErrorEvent) and event.tool_call_id:
            action = self._pending.pop(event.tool_call_id, None)
            if action is not None:
                if isinstance(event, ObservationEvent):
                    result, error = event.content, event.outcome != "ok"
                else:
                    result, error = event.error, True
                self.rounds.append(Round(action[0], result, error, action[1]))
                del self.rounds[: -2 * ALTERNATING_ROUNDS]  # only the recent past matters

    def verdict(self) -> str | None:
        """Why the agent looks stuck, or None."""
        rounds = self.rounds
        if len(rounds) >= SAME_ERROR and _same(rounds[-SAME_ERROR:]) and all(r.error for r in rounds[-SAME_ERROR:]):
            return f"the same action failed the same way {SAME_ERROR} times in a row: {rounds[-1].summary}"
        if len(rounds) >= SAME_RESULT and _same(rounds[-SAME_RESULT:]):
            return f"the same action gave the same result {SAME_RESULT} times in a row: {rounds[-1].summary}"
        if len(self.messages) >= SAME_MESSAGE and len(set(self.messages[-SAME_MESSAGE:])) == 1:
            return f"the agent said the same thing {SAME_MESSAGE} times with no answer from the user"
        recent = rounds[-ALTERNATING_ROUNDS:]
        if len(recent) == ALTERNATING_ROUNDS and _alternating(recent):
            return (
                f"the agent alternated between two actions for {ALTERNATING_ROUNDS} rounds: "
                f"{recent[-2].summary} / {recent[-1].summary}"
            )
        return None


def _same(rounds: list[Round]) -> bool:
    first = rounds[0]
    return all(r.action == first.action and r.result == first.result for r in rounds)


def _alternating(rounds: list[Round]) -> bool:
    a, b = rounds[0], rounds[1]
    if (a.action, a.result) == (b.action, b.result):
        return False
    return _same(rounds[0::2]) and _same(rounds[1::2])
