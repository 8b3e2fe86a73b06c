"""Carrying out the tool calls of one model response: validate, rate, record, confirm, run.

Every call is first parsed and validated against its tool's action model, and turned into a
subject (what it touches). Then, in the order the model gave them, each call is rated for
risk *when it is about to run* — after the calls before it have run, so a symlink or a file
an earlier call made is judged as it really is — recorded as an action (fsynced before
anything runs), confirmed if the policy says to ask, and run. Consecutive calls of tools that
allow it run concurrently, rated together. A successful `finish` ends the response: later
calls are recorded as not run.

Mistakes the model can fix (bad JSON, an unknown tool, wrong arguments, a tool that raised)
become results it sees; they never end the run. Deny rules always apply; allow rules and the
confirmer are consulted only when the policy says to ask. A confirmation request is persisted
before anyone is asked, so a crash while waiting means asking again on resume, never running
unanswered.

The functions here talk to the agent through `Actor` (record an event, set a status) and read
the run's shared `Runtime`; they never reach into the agent's run object.
"""

from __future__ import annotations

import asyncio
import json
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from pydantic import ValidationError

from openhands_tui.sdk.actor import Actor
from openhands_tui.sdk.confirmation import Decision
from openhands_tui.sdk.errors import StorageError
from openhands_tui.sdk.escalation import execute
from openhands_tui.sdk.event import (
    ActionEvent,
    AgentErrorEvent,
    ConfirmationRequestEvent,
    ConfirmationResolvedEvent,
    Event,
    ObservationEvent,
    Risk,
    Status,
)
from openhands_tui.sdk.llm import ToolCall
from openhands_tui.sdk.messages import shorten
from openhands_tui.sdk.runtime import Runtime
from openhands_tui.sdk.security.permissions import suggest_rule
from openhands_tui.sdk.subject import Finish, Subject
from openhands_tui.sdk.tool import Action, Observation, RiskyAction, ToolDefinition
from openhands_tui.sdk.tool.definition import CURRENT_TOOL_CALL_ID

INTERRUPTED_TEXT = (
    "This action was interrupted before it finished (the session stopped) and was not run "
    "again. Check its effects before retrying it."
)
NOT_RUN_AFTER_FINISH = "Not run: `finish` came earlier in the same response and ended the task."


@dataclass
class PreparedCall:
    """One tool call, validated (or with the error the model will be shown)."""

    call: ToolCall
    arguments: dict[str, Any]
    tool: ToolDefinition[Any] | None
    action: Action | None
    error: str | None = None
    event: ActionEvent | None = None

    @property
    def runnable(self) -> bool:
        return self.error is None and self.tool is not None and self.action is not None

    @property
    def concurrent(self) -> bool:
        return self.runnable and self.tool is not None and self.tool.concurrent

    def subject(self) -> Subject | None:
        if not self.runnable:
            return None
        assert self.tool is not None and self.action is not None
        return self.tool.subject(self.action)


# -- validate -----------------------------------------------------------------------------


#: Largest tool call accepted (its arguments as JSON); the file editor takes 1M-character files.
MAX_CALL_CHARS = 2_500_000
#: Longest tool result the model is sent (tools bound their own output well below this).
MAX_RESULT_CHARS = 100_000


def prepare(tools: Mapping[str, ToolDefinition[Any]], call: ToolCall) -> PreparedCall:
    """Parse and validate one call; nothing is recorded yet."""
    tool = tools.get(call.name)
    if len(call.arguments) > MAX_CALL_CHARS:
        too_long = (
            f"Your {call.name!r} call is {len(call.arguments):,} characters long; calls are limited to "
            f"{MAX_CALL_CHARS:,}. Split the work (write a file in parts, or generate it with a script)."
        )
        return PreparedCall(call.model_copy(update={"arguments": call.arguments[:1000]}), {}, tool, None, too_long)
    arguments, error = _parse_arguments(call)
    action: Action | None = None
    if error is None and tool is None:
        error = f"There is no tool named {call.name!r}. Available tools: {', '.join(tools)}."
    if error is None and tool is not None:
        try:
            action = tool.action_type.model_validate(arguments)
        except ValidationError as exc:
            error = _explain_validation(tool, exc)
    return PreparedCall(call, arguments, tool, action, error)


def _parse_arguments(call: ToolCall) -> tuple[dict[str, Any], str | None]:
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
        return {}, f"The arguments of your {call.name!r} call must be a JSON object, not {type(parsed).__name__}."
    return parsed, None


def _explain_validation(tool: ToolDefinition[Any], exc: ValidationError) -> str:
    problems = []
    for error in exc.errors()[:5]:
        where = ".".join(str(part) for part in error["loc"]) or "arguments"
        if error["type"] == "extra_forbidden":
            problems.append(f"unknown parameter {where!r}")
        else:
            problems.append(f"{where}: {error['msg']}")
    valid = ", ".join(tool.action_type.model_fields)
    return f"Invalid arguments for {tool.name!r}: {'; '.join(problems)}. Valid parameters: {valid}."


# -- rate and record ----------------------------------------------------------------------


def assess_risk(runtime: Runtime, subject: Subject, model_risk: Risk | None) -> tuple[Risk, list[str]]:
    """Effective risk = max(rules, the model's own estimate), with the reasons for it."""
    assessment = runtime.analyzer.assess(subject, runtime.workspace)
    reasons = list(assessment.reasons)
    if model_risk is not None and model_risk.severity > assessment.risk.severity:
        reasons.append(f"the model rated this action {model_risk}")
    return Risk.max(assessment.risk, model_risk), reasons


def _record_action(actor: Actor, runtime: Runtime, prepared: PreparedCall, response_id: str) -> ActionEvent:
    """Rate the call as things stand now and record it as an action (valid or not)."""
    call, tool, action = prepared.call, prepared.tool, prepared.action
    subject = prepared.subject()
    model_risk = action.security_risk if isinstance(action, RiskyAction) else None
    risk, reasons = assess_risk(runtime, subject, model_risk) if subject is not None else (None, [])
    prepared.event = actor.record(
        ActionEvent,
        tool_call_id=call.id,
        tool_name=call.name,
        arguments=prepared.arguments,
        raw_arguments=call.arguments,
        valid=prepared.error is None,
        summary=tool.summarize(action) if tool is not None and action is not None else f"{call.name} (invalid)",
        subject=subject,
        security_risk=model_risk,
        risk=risk,
        risk_reasons=reasons,
        response_id=response_id,
    )
    return prepared.event


# -- run ------------------------------------------------------------------------------------


async def carry_out(actor: Actor, runtime: Runtime, calls: list[PreparedCall], response_id: str) -> str | None:
    """Run one response's calls in order; return the `finish` message if the task ended."""
    groups = _concurrent_groups(calls)
    for index, group in enumerate(groups):
        for prepared in group:
            _record_action(actor, runtime, prepared, response_id)
        runtime.bus.sync()  # durable before any of them runs
        if len(group) == 1:
            results = [await _run_one(actor, runtime, group[0])]
        else:
            results = list(await asyncio.gather(*(_run_one(actor, runtime, p) for p in group)))
        finish = next((r for r in results if r is not None), None)
        if finish is not None:
            for later in (p for rest in groups[index + 1 :] for p in rest):
                event = _record_action(actor, runtime, later, response_id)
                _observe(actor, event, Observation(text=NOT_RUN_AFTER_FINISH, is_error=True), "rejected")
            return finish
    return None


async def resume_calls(
    actor: Actor, runtime: Runtime, tools: Mapping[str, ToolDefinition[Any]], actions: list[ActionEvent]
) -> None:
    """Ask again about actions recorded before a restart whose confirmation was never answered."""
    for event in actions:
        prepared = prepare(tools, ToolCall(id=event.tool_call_id, name=event.tool_name, arguments=event.raw_arguments))
        if event.subject is None and prepared.runnable:  # recorded by a version without subjects
            event = event.model_copy(update={"subject": prepared.subject()})
        prepared.event = event
        await _run_one(actor, runtime, prepared)


def _concurrent_groups(calls: list[PreparedCall]) -> list[list[PreparedCall]]:
    groups: list[list[PreparedCall]] = []
    for call in calls:
        if call.concurrent and groups and groups[-1][-1].concurrent:
            groups[-1].append(call)
        else:
            groups.append([call])
    return groups


async def _run_one(actor: Actor, runtime: Runtime, prepared: PreparedCall) -> str | None:
    event = prepared.event
    assert event is not None
    if not prepared.runnable:
        actor.record(
            AgentErrorEvent,
            error=prepared.error or "invalid call",
            tool_call_id=event.tool_call_id,
            tool_name=event.tool_name,
        )
        return None
    assert prepared.tool is not None and prepared.action is not None
    if not await _approved(actor, runtime, event):
        return None
    CURRENT_TOOL_CALL_ID.set(event.tool_call_id)
    try:
        observation = await execute(actor, runtime, prepared.tool, prepared.action, event)
    except asyncio.CancelledError:
        _observe(actor, event, Observation(text=INTERRUPTED_TEXT, is_error=True), "interrupted")
        raise
    except StorageError:
        raise  # the session cannot be written: the run stops (loop.py)
    except Exception as exc:  # a tool bug is the model's problem to route around, not a crash
        observation = Observation(
            text=f"The {prepared.tool.name} tool failed: {type(exc).__name__}: {exc}", is_error=True
        )
    recorded = _observe(actor, event, observation, "error" if observation.is_error else "ok")
    if isinstance(event.subject, Finish) and not observation.is_error:
        return recorded.content  # as published: redacted
    return None


def _observe(actor: Actor, action: ActionEvent, observation: Observation, outcome: str) -> ObservationEvent:
    return actor.record(
        ObservationEvent,
        tool_call_id=action.tool_call_id,
        tool_name=action.tool_name,
        content=shorten(observation.text, MAX_RESULT_CHARS),
        outcome=outcome,
        data=observation.data(),
    )


# -- confirm --------------------------------------------------------------------------------


async def _approved(actor: Actor, runtime: Runtime, event: ActionEvent) -> bool:
    """Whether the recorded action may run; a refusal becomes its observation."""
    subject = event.subject
    assert subject is not None
    risk = event.risk or Risk.LOW
    by_rule = runtime.permissions.decide(subject, risk)
    if by_rule is not None and not by_rule.approved:
        denial = Decision(approved=False, decided_by=by_rule.decided_by, reason="a deny rule forbids it")
        return _resolve(actor, event, denial)
    if not runtime.policy.should_ask(risk, subject.changes_state):
        return True
    if by_rule is not None:
        return _resolve(actor, event, Decision(approved=True, decided_by=by_rule.decided_by))
    suggestion = suggest_rule(subject, runtime.workspace, exact=risk is Risk.HIGH)
    request = actor.record(
        ConfirmationRequestEvent,
        action_id=event.id,
        tool_call_id=event.tool_call_id,
        tool_name=event.tool_name,
        summary=event.summary,
        arguments=event.arguments,
        subject=subject,
        risk=risk,
        reasons=event.risk_reasons,
        chain=runtime.tree.chain(actor.agent_id),
        suggested_rule=suggestion.model_dump(exclude={"source", "workspace"}, exclude_defaults=True)
        if suggestion
        else None,
    )
    runtime.bus.sync()
    actor.set_status(Status.WAITING_FOR_CONFIRMATION)
    decision = await runtime.confirmer.confirm(request)
    actor.set_status(Status.RUNNING)
    if decision.approved and decision.remember is not None and runtime.rules_file is not None:
        runtime.permissions.remember(decision.remember, runtime.rules_file)
    return _resolve(actor, event, decision)


def _resolve(actor: Actor, event: ActionEvent, decision: Decision) -> bool:
    actor.record(
        ConfirmationResolvedEvent,
        action_id=event.id,
        approved=decision.approved,
        reason=decision.reason,
        decided_by=decision.decided_by if decision.remember is None else f"{decision.decided_by} (remembered)",
    )
    if not decision.approved:
        who = "the user" if decision.decided_by == "user" else decision.decided_by
        because = f": {decision.reason}." if decision.reason else "."
        text = f"Rejected by {who}{because} The action was not run; choose another way or ask."
        _observe(actor, event, Observation(text=text, is_error=True), "rejected")
    return decision.approved


# -- resume ---------------------------------------------------------------------------------


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


def interrupted_observation(actor: Actor, action: ActionEvent, processes_ended: bool) -> None:
    """Tell the model an action recorded before a restart never reported back, and truthfully
    what became of what it started: a sandboxed session takes every process with it; without
    the sandbox, something started in the background may still be running."""
    if processes_ended:
        after = "Everything it started was stopped with the session."
    else:
        after = "Processes it started in the background may still be running: check (ps) before you start it again."
    _observe(actor, action, Observation(text=f"{INTERRUPTED_TEXT} {after}", is_error=True), "interrupted")
