"""Carrying out the tool calls of one model response: validate, rate, record, confirm, run.

Every call is first parsed and validated against its tool's action model, and turned into a
subject (what it touches). Then, in the order the model gave them, each call is rated for
risk *when it is about to run* — after the calls before it have run, so a symlink or a file
an earlier call made is judged as it really is — recorded as an action (fsynced before
anything runs), confirmed if the policy says to ask (run/approvals.py), and run. Consecutive calls
with no side effects (file views, read-only MCP tools, thinking) and delegations run side by
side, at most MAX_PARALLEL_CALLS at a time, their results recorded in the model's order; a
write between them keeps its place. A successful `finish` ends the response: later calls are
recorded as not run.

Mistakes the model can fix (bad JSON, an unknown tool, wrong arguments, a tool that raised)
become results it sees; they never end the run.

The functions here talk to the agent through `Actor` (record an event, set a status) and read
the run's shared `Runtime`; they never reach into the agent's run object.
"""

from __future__ import annotations

import asyncio
import json
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from pydantic import ValidationError

from openhands_tui.sdk.errors import StorageError
from openhands_tui.sdk.facts.event import (
    ActionEvent,
    AgentErrorEvent,
    ConfirmationRequestEvent,
    ConfirmationResolvedEvent,
    Event,
    ObservationEvent,
    Risk,
)
from openhands_tui.sdk.facts.subject import FileChange, Finish, MCPCall, OtherSubject, Subject
from openhands_tui.sdk.hooks.engine import HookOutcome
from openhands_tui.sdk.llm.answer_limits import MAX_CALL_CHARS
from openhands_tui.sdk.llm.client import ToolCall
from openhands_tui.sdk.run import plan_mode
from openhands_tui.sdk.run.actor import Actor
from openhands_tui.sdk.run.answer_ending import CUT_OFF_CALL
from openhands_tui.sdk.run.approvals import refusal, refused_by
from openhands_tui.sdk.run.call_arguments import excerpt, parse_arguments
from openhands_tui.sdk.run.escalation import execute
from openhands_tui.sdk.run.hook_points import fire, hook_input, tool_view, updated_call
from openhands_tui.sdk.run.messages import shorten
from openhands_tui.sdk.run.result_images import keep_images, result_images
from openhands_tui.sdk.run.runtime import Runtime
from openhands_tui.sdk.security.analyzer import Assessment
from openhands_tui.sdk.tool import Action, Observation, RiskyAction, ToolDefinition
from openhands_tui.sdk.tool.definition import CURRENT_AGENT_ID, CURRENT_TOOL_CALL_ID

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
    #: What the PreToolUse hooks decided about it (None: no hook ran).
    hooks: HookOutcome | None = None

    @property
    def runnable(self) -> bool:
        return self.error is None and self.tool is not None and self.action is not None

    @property
    def concurrent(self) -> bool:
        """Whether it may run side by side with its neighbours in the response: delegations,
        and calls whose subject has no side effect (file views, read-only MCP tools...)."""
        if not self.runnable or self.tool is None:
            return False
        return self.tool.concurrent or side_effect_free(self.subject())

    def subject(self) -> Subject | None:
        if not self.runnable:
            return None
        assert self.tool is not None and self.action is not None
        return self.tool.subject(self.action)


def side_effect_free(subject: Subject | None) -> bool:
    """Reads that can overlap: nothing they do changes what another call sees."""
    if isinstance(subject, FileChange):
        return subject.operation == "view"
    if isinstance(subject, MCPCall):
        return subject.annotations.read_only is True and subject.annotations.destructive is not True
    if isinstance(subject, OtherSubject):
        return not subject.changes and subject.category not in ("plan", "jobs")  # both keep state
    return False


# -- validate -----------------------------------------------------------------------------


#: How many side-effect-free calls of one response run at once.
MAX_PARALLEL_CALLS = 8
#: Longest tool result the model is sent (tools bound their own output well below this).
MAX_RESULT_CHARS = 100_000


def prepare(tools: Mapping[str, ToolDefinition[Any]], call: ToolCall) -> PreparedCall:
    """Parse and validate one call; nothing is recorded yet."""
    tool = tools.get(call.name)
    length = max(len(call.arguments), call.full_length)
    if length > MAX_CALL_CHARS:
        too_long = (
            f"Your {call.name!r} call is {length:,} characters long; calls are limited to "
            f"{MAX_CALL_CHARS:,}. Split the work (write a file in parts, or generate it with a script)."
        )
        return PreparedCall(call.model_copy(update={"arguments": call.arguments[:1000]}), {}, tool, None, too_long)
    arguments, error = parse_arguments(call.name, call.arguments)
    if error is None and "\\ud" in call.arguments.lower():  # surrogate escapes: resend them as parsed,
        call = call.model_copy(update={"arguments": json.dumps(arguments)})  # a lone one made U+FFFD
    action: Action | None = None
    if error is None and tool is None:
        named = call.name if len(call.name) <= 200 else f"{call.name[:200]}… ({len(call.name):,} characters)"
        error = f"There is no tool named {named!r}. Available tools: {', '.join(tools)}."
    if error is None and tool is not None:
        try:
            action = tool.action_type.model_validate(arguments)
        except ValidationError as exc:
            error = _explain_validation(tool, exc)
    return PreparedCall(call, arguments, tool, action, error)


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


def assess_risk(
    runtime: Runtime, subject: Subject, model_risk: Risk | None, workspace: Path | None = None
) -> tuple[Risk, list[str], list[str]]:
    """Effective risk = max(rules, the model's own estimate), with the reasons for it and the ids
    of the rules behind them. An action the rules cannot rate (an analyzer bug on odd input) is
    rated HIGH, so it is asked about."""
    try:
        assessment = runtime.analyzer.assess(subject, workspace or runtime.workspace)
    except Exception as exc:
        reason = f"the rules could not rate this action ({type(exc).__name__}: {exc})"
        assessment = Assessment(risk=Risk.HIGH, reasons=[reason], rules=["rules:failed"])
    reasons = list(assessment.reasons)
    rules = list(assessment.rules) + [""] * (len(reasons) - len(assessment.rules))
    if model_risk is not None and model_risk.severity > assessment.risk.severity:
        reasons.append(f"the model rated this action {model_risk}")
        rules.append("model:estimate")
    return Risk.max(assessment.risk, model_risk), reasons, rules


def _record_action(
    actor: Actor, runtime: Runtime, prepared: PreparedCall, response_id: str, together: int
) -> ActionEvent:
    """Rate the call as things stand now and record it as an action (valid or not)."""
    call, tool, action = prepared.call, prepared.tool, prepared.action
    subject = prepared.subject()
    model_risk = action.security_risk if isinstance(action, RiskyAction) else None
    risk, reasons, rules = (
        assess_risk(runtime, subject, model_risk, actor.workspace) if subject is not None else (None, [], [])
    )
    prepared.event = actor.record(
        ActionEvent,
        tool_call_id=call.id,
        tool_name=call.name,
        arguments=prepared.arguments,
        # an invalid call goes back to the model as {}: what it sent is kept only as an excerpt
        raw_arguments=call.arguments if prepared.error is None else excerpt(call.arguments),
        valid=prepared.error is None,
        summary=tool.summarize(action) if tool is not None and action is not None else _unrun_summary(prepared),
        subject=subject,
        security_risk=model_risk,
        risk=risk,
        risk_reasons=reasons,
        risk_rules=rules,
        response_id=response_id,
        parallel=together if together > 1 else 0,
    )
    return prepared.event


def _unrun_summary(prepared: PreparedCall) -> str:
    return f"{prepared.call.name} ({'cut off' if prepared.error == CUT_OFF_CALL else 'invalid'})"


# -- run ------------------------------------------------------------------------------------


async def carry_out(actor: Actor, runtime: Runtime, calls: list[PreparedCall], response_id: str) -> str | None:
    """Run one response's calls in order; return the `finish` message if the task ended."""
    if runtime.checkpoints is not None:  # the files as they were before the turn, kept first
        await runtime.checkpoints.settle()
    groups = _concurrent_groups(calls)
    for index, group in enumerate(groups):
        for prepared in group:
            await _before(actor, runtime, prepared)
            _record_action(actor, runtime, prepared, response_id, len(group))
        runtime.bus.sync()  # durable before any of them runs
        if len(group) == 1:
            results = [await _run_one(actor, runtime, group[0])]
        else:
            results = await _run_together(actor, runtime, group)
        finish = next((r for r in results if r is not None), None)
        if finish is not None:
            for later in (p for rest in groups[index + 1 :] for p in rest):
                event = _record_action(actor, runtime, later, response_id, 1)
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
    refused = await _refused(actor, runtime, prepared)
    if refused is not None:
        return _settle(actor, prepared, refused)
    try:
        observation = await _after(actor, runtime, prepared, await _execute(actor, runtime, prepared))
    except asyncio.CancelledError:
        assert prepared.event is not None
        _observe(actor, prepared.event, Observation(text=INTERRUPTED_TEXT, is_error=True), "interrupted")
        raise
    return _settle(actor, prepared, observation)


async def _run_together(actor: Actor, runtime: Runtime, group: list[PreparedCall]) -> list[str | None]:
    """Side by side (at most MAX_PARALLEL_CALLS at a time); asked about one at a time first,
    and their results recorded in the order the model gave the calls."""
    refusals = [await _refused(actor, runtime, p) for p in group]
    gate = asyncio.Semaphore(MAX_PARALLEL_CALLS)

    async def run(prepared: PreparedCall, refused: Observation | None) -> Observation:
        if refused is not None:
            return refused
        async with gate:
            return await _after(actor, runtime, prepared, await _execute(actor, runtime, prepared))

    tasks = [asyncio.ensure_future(run(p, r)) for p, r in zip(group, refusals, strict=True)]
    try:
        observations = await asyncio.gather(*tasks)
    except asyncio.CancelledError:
        for prepared, task in zip(group, tasks, strict=True):
            if task.done() and not task.cancelled() and task.exception() is None:
                _settle(actor, prepared, task.result())
            else:
                assert prepared.event is not None
                _observe(actor, prepared.event, Observation(text=INTERRUPTED_TEXT, is_error=True), "interrupted")
        raise
    return [_settle(actor, p, o) for p, o in zip(group, observations, strict=True)]


class _Invalid(Observation):
    """An invalid call's error: recorded as an agent error tied to the call."""


class _Rejected(Observation):
    """A refusal by a rule, the policy or the user."""


async def _refused(actor: Actor, runtime: Runtime, prepared: PreparedCall) -> Observation | None:
    """None if the call is valid and approved; else the result the model is to read."""
    event = prepared.event
    assert event is not None
    if not prepared.runnable:
        return _Invalid(text=prepared.error or "invalid call", is_error=True)
    if actor.read_only:  # plan mode: before hooks and rules, which cannot let a change through
        why = plan_mode.refusal(event.subject, prepared.tool)
        if why is not None:
            return _Rejected(text=refused_by(actor, event, plan_mode.DECIDED_BY, why).text, is_error=True)
    refused = await refusal(actor, runtime, event, prepared.hooks)
    return _Rejected(text=refused.text, is_error=True) if refused is not None else None


async def _before(actor: Actor, runtime: Runtime, prepared: PreparedCall) -> None:
    """PreToolUse hooks: they may change the call's arguments (it is validated again, and rated
    as changed), and their allow / ask / deny is weighed when the call is admitted."""
    if not prepared.runnable or not runtime.hooks_for(actor.agent_id).has("PreToolUse"):
        return
    assert prepared.tool is not None
    view = tool_view(prepared.call.id, prepared.call.name, prepared.arguments, prepared.subject())
    outcome = await fire(actor, runtime, hook_input(runtime, "PreToolUse", tool=view), prepared.call.id)
    prepared.hooks = outcome
    if outcome.updated_input is None or outcome.decision == "deny":
        return
    known = set(prepared.tool.action_type.model_fields)
    changed = prepare(
        {prepared.tool.name: prepared.tool},
        updated_call(prepared.call, prepared.arguments, outcome.updated_input, known),
    )
    if changed.runnable:
        prepared.call, prepared.arguments, prepared.action = changed.call, changed.arguments, changed.action
    else:
        actor.record(AgentErrorEvent, error=f"a PreToolUse hook's updatedInput was not used: {changed.error}")


async def _after(actor: Actor, runtime: Runtime, prepared: PreparedCall, observation: Observation) -> Observation:
    """PostToolUse hooks: what they block with or add is appended to the result the model reads."""
    if not runtime.hooks_for(actor.agent_id).has("PostToolUse"):
        return observation
    event = prepared.event
    assert event is not None
    response = {"output": observation.text, "success": not observation.is_error}
    view = tool_view(event.tool_call_id, event.tool_name, event.arguments, event.subject, response)
    outcome = await fire(actor, runtime, hook_input(runtime, "PostToolUse", tool=view), event.tool_call_id)
    said = [text for text in (outcome.reason if outcome.decision == "deny" else "", outcome.context) if text]
    if not said:
        return observation
    feedback = "\n\n".join(f"[PostToolUse hook] {text}" for text in said)
    return observation.model_copy(update={"text": f"{observation.text}\n\n{feedback}"})


async def _execute(actor: Actor, runtime: Runtime, prepared: PreparedCall) -> Observation:
    """Run an admitted call; a tool that raised becomes an error the model reads."""
    event, tool, action = prepared.event, prepared.tool, prepared.action
    assert event is not None and tool is not None and action is not None
    CURRENT_TOOL_CALL_ID.set(event.tool_call_id)
    CURRENT_AGENT_ID.set(actor.agent_id)
    try:
        observation = await execute(actor, runtime, tool, action, event)
        if not result_images(observation):
            return observation
        return keep_images(observation, runtime.attachments, _takes_images(actor), event.tool_name)
    except (asyncio.CancelledError, StorageError):
        raise  # an interrupt, or a session that cannot be written: the run stops (run/loop.py)
    except Exception as exc:  # a tool bug is the model's problem to route around, not a crash
        return Observation(text=f"The {tool.name} tool failed: {type(exc).__name__}: {exc}", is_error=True)


def _settle(actor: Actor, prepared: PreparedCall, observation: Observation) -> str | None:
    """Record the result; the `finish` message if this call ended the task."""
    event = prepared.event
    assert event is not None
    if isinstance(observation, _Invalid):
        actor.record(
            AgentErrorEvent, error=observation.text, tool_call_id=event.tool_call_id, tool_name=event.tool_name
        )
        return None
    outcome = "rejected" if isinstance(observation, _Rejected) else "error" if observation.is_error else "ok"
    recorded = _observe(actor, event, observation, outcome)
    if isinstance(event.subject, Finish) and outcome == "ok":
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
        images=observation.images,
    )


def _takes_images(actor: Actor) -> bool | None:
    """Whether the acting agent's model takes images (None: unknown, they are sent)."""
    llm = getattr(getattr(actor, "agent", None), "llm", None)
    return llm.takes_images() if llm is not None else None


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
