"""Turning a model's tool calls into something runnable, or into an error it can fix.

Kept apart from the step itself: this is pure parsing and explaining, no I/O.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

from pydantic import ValidationError

from openhands_tui.sdk.event import ActionEvent
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
