"""Turning a model's tool calls into something runnable, or into an error it can fix.

Kept apart from the step itself: this is pure parsing and explaining, no I/O.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

from pydantic import ValidationError

from openhands_tui.sdk.event import (
    ActionEvent,
    AgentErrorEvent,
    ConfirmationRequestEvent,
    ConfirmationResolvedEvent,
    Event,
    ObservationEvent,
)
from openhands_tui.sdk.llm import ToolCall
from openhands_tui.sdk.tool import Action, ToolDefinition


@dataclass
class PreparedCall:
    event: ActionEvent
    tool: ToolDefinition[Any] | None
    action: Action | None
    error: str | None = None


def parse_arguments(call: ToolCall) -> tuple[dict[str, Any], str | None]:
    raw = call.arguments.strip()
    if not raw:
        return {}, None
    try:
        parsed = json.loads(raw)
    except json.JSONDecodeError as exc:
        return {}, (
            f"The arguments of your {call.name!r} call are not valid JSON ({exc.msg} at character "
            f"{exc.pos}). Send them again as one JSON object."
        )
    if not isinstance(parsed, dict):
        return (
            {},
            f"The arguments of your {call.name!r} call must be a JSON object, not {type(parsed).__name__}.",
        )
    return parsed, None


def explain_validation(tool: ToolDefinition[Any], exc: ValidationError) -> str:
    problems = []
    for error in exc.errors()[:5]:
        where = ".".join(str(part) for part in error["loc"]) or "arguments"
        if error["type"] == "extra_forbidden":
            problems.append(f"unknown parameter {where!r}")
        else:
            problems.append(f"{where}: {error['msg']}")
    valid = ", ".join(tool.action_type.model_fields)
    return f"Invalid arguments for {tool.name!r}: {'; '.join(problems)}. Valid parameters: {valid}."


def concurrent_groups(prepared: list[PreparedCall]) -> list[list[PreparedCall]]:
    def concurrent(call: PreparedCall) -> bool:
        return call.tool is not None and call.tool.concurrent and call.error is None

    groups: list[list[PreparedCall]] = []
    for call in prepared:
        if concurrent(call) and groups and concurrent(groups[-1][-1]):
            groups[-1].append(call)
        else:
            groups.append([call])
    return groups


def unfinished_actions(events: list[Event]) -> tuple[list[ActionEvent], list[ActionEvent]]:
    """A stored agent's actions that never got a result: those whose confirmation was asked and
    never answered (to be asked again), and the rest (interrupted: never re-run silently)."""
    answered: set[str] = set()
    asked: set[str] = set()
    decided: set[str] = set()
    actions: list[ActionEvent] = []
    for event in events:
        if isinstance(event, ActionEvent):
            actions.append(event)
        elif isinstance(event, ObservationEvent | AgentErrorEvent) and event.tool_call_id:
            answered.add(event.tool_call_id)
        elif isinstance(event, ConfirmationRequestEvent):
            asked.add(event.action_id)
        elif isinstance(event, ConfirmationResolvedEvent):
            decided.add(event.action_id)
    open_actions = [a for a in actions if a.tool_call_id not in answered]
    ask_again = [a for a in open_actions if a.id in asked and a.id not in decided and a.valid]
    return ask_again, [a for a in open_actions if a not in ask_again]
