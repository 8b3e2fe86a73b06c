"""Carrying out the tool calls of one model response, for one agent.

Each call is parsed, validated against its tool's action model, rated for risk and recorded
as an action before anything runs (the caller fsyncs them together). Then, in order, each is
confirmed if the policy asks for it and run; consecutive calls of tools that allow it run
concurrently. Mistakes the model can fix (bad JSON, unknown tool, wrong arguments, a tool
that raised) become results it sees; they never end the run.
"""

from __future__ import annotations

import asyncio
from typing import TYPE_CHECKING

from pydantic import ValidationError

from openhands_tui.sdk.approval import approved, assess_risk
from openhands_tui.sdk.event import ActionEvent, AgentErrorEvent
from openhands_tui.sdk.llm import ToolCall
from openhands_tui.sdk.tool import Action, Observation, RiskyAction
from openhands_tui.sdk.tool.definition import CURRENT_TOOL_CALL_ID
from openhands_tui.sdk.tool_calls import PreparedCall, concurrent_groups, explain_validation, parse_arguments

if TYPE_CHECKING:
    from openhands_tui.sdk.agent_run import AgentRun

INTERRUPTED_TEXT = (
    "This action was interrupted before it finished (the session stopped) and was not run "
    "again. Check its effects before retrying it."
)


def prepare(run: AgentRun, call: ToolCall, response_id: str) -> PreparedCall:
    """Parse, validate and rate one call, and record it as an action (valid or not)."""
    tool = run.tools.get(call.name)
    arguments, error = parse_arguments(call)
    action: Action | None = None
    if error is None and tool is None:
        error = f"There is no tool named {call.name!r}. Available tools: {', '.join(run.tools)}."
    if error is None and tool is not None:
        try:
            action = tool.action_type.model_validate(arguments)
        except ValidationError as exc:
            error = explain_validation(tool, exc)
    model_risk = action.security_risk if isinstance(action, RiskyAction) else None
    risk, reasons = assess_risk(run.runtime, tool, action, arguments, model_risk)
    event = run.record(
        ActionEvent,
        tool_call_id=call.id,
        tool_name=call.name,
        arguments=arguments,
        raw_arguments=call.arguments,
        valid=error is None,
        summary=tool.summarize(action) if tool is not None and action is not None else f"{call.name} (invalid)",
        security_risk=model_risk,
        risk=risk,
        risk_reasons=reasons,
        response_id=response_id,
    )
    return PreparedCall(event, tool, action, error)


def reprepare(run: AgentRun, event: ActionEvent) -> PreparedCall:
    """Rebuild a recorded action (one awaiting a decision on resume) without recording it again."""
    tool = run.tools.get(event.tool_name)
    if tool is None:
        return PreparedCall(event, None, None, f"There is no tool named {event.tool_name!r}.")
    try:
        return PreparedCall(event, tool, tool.action_type.model_validate(event.arguments))
    except ValidationError as exc:
        return PreparedCall(event, tool, None, explain_validation(tool, exc))


async def run_calls(run: AgentRun, prepared: list[PreparedCall]) -> str | None:
    """Run calls in order; consecutive calls of concurrent tools run together."""
    finish_message = None
    for group in concurrent_groups(prepared):
        if len(group) == 1:
            results = [await _run_one(run, group[0])]
        else:
            results = list(await asyncio.gather(*(_run_one(run, call) for call in group)))
        finish_message = next((r for r in results if r is not None), finish_message)
    return finish_message


async def _run_one(run: AgentRun, call: PreparedCall) -> str | None:
    if call.error is not None or call.tool is None or call.action is None:
        run.record(
            AgentErrorEvent,
            error=call.error or "invalid call",
            tool_call_id=call.event.tool_call_id,
            tool_name=call.event.tool_name,
        )
        return None
    if not await approved(run, call):
        return None
    CURRENT_TOOL_CALL_ID.set(call.event.tool_call_id)
    try:
        observation = await call.tool.run(call.action)
    except asyncio.CancelledError:
        run.observe(call.event, Observation(text=INTERRUPTED_TEXT, is_error=True), "interrupted")
        raise
    except Exception as exc:  # a tool bug is the model's problem to route around, not a crash
        observation = Observation(text=f"The {call.tool.name} tool failed: {type(exc).__name__}: {exc}", is_error=True)
    recorded = run.observe(call.event, observation, "error" if observation.is_error else "ok")
    if call.tool.name == "finish" and not observation.is_error:
        return recorded.content  # as published: redacted
    return None
