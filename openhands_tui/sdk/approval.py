"""Before an action runs: how risky is it, and does someone have to say yes?

The analyzer's rules set the risk; the model's own estimate can only raise it. The policy
decides whether to ask; the run's confirmer (shared by every agent in the tree) answers.
A request is persisted and fsynced before anyone is asked, so a crash while waiting leads
to the question being asked again on resume, never to the action running unanswered.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from openhands_tui.sdk.confirmation import Decision
from openhands_tui.sdk.event import (
    ActionEvent,
    ConfirmationRequestEvent,
    ConfirmationResolvedEvent,
    Risk,
    Status,
)
from openhands_tui.sdk.runtime import Runtime
from openhands_tui.sdk.security.permissions import suggest_rule
from openhands_tui.sdk.tool import Action, Observation, ToolDefinition
from openhands_tui.sdk.tool_calls import PreparedCall

if TYPE_CHECKING:
    from openhands_tui.sdk.agent_run import AgentRun


def assess_risk(
    runtime: Runtime,
    tool: ToolDefinition[Any] | None,
    action: Action | None,
    arguments: dict[str, Any],
    model_risk: Risk | None,
) -> tuple[Risk | None, list[str]]:
    """Effective risk = max(rules, model's estimate), with the reasons for it."""
    if tool is None or action is None:
        return None, []
    assessment = runtime.analyzer.assess(
        tool.name, arguments, tool.changes_state(action), runtime.workspace, tool.working_directory()
    )
    reasons = list(assessment.reasons)
    if model_risk is not None and model_risk.severity > assessment.risk.severity:
        reasons.append(f"the model rated this action {model_risk}")
    return Risk.max(assessment.risk, model_risk), reasons


async def approved(run: AgentRun, call: PreparedCall) -> bool:
    """Whether `call` may run. Deny rules always apply; allow rules and the confirmer are
    consulted only when the policy says to ask. A rejection becomes the call's observation."""
    assert call.tool is not None and call.action is not None
    event, runtime = call.event, run.runtime
    risk = event.risk or Risk.LOW
    by_rule = runtime.permissions.decide(event.tool_name, event.arguments, call.tool.working_directory())
    if by_rule is not None and not by_rule.approved:
        denial = Decision(approved=False, decided_by=by_rule.decided_by, reason="a deny rule forbids it")
        return _resolve(run, event, denial)
    if not runtime.policy.should_ask(risk, call.tool.changes_state(call.action)):
        return True
    if by_rule is not None:
        return _resolve(run, event, Decision(approved=True, decided_by=by_rule.decided_by))
    suggestion = suggest_rule(event.tool_name, event.arguments, runtime.workspace, exact=risk is Risk.HIGH)
    request = run.record(
        ConfirmationRequestEvent,
        action_id=event.id,
        tool_call_id=event.tool_call_id,
        tool_name=event.tool_name,
        summary=event.summary,
        arguments=event.arguments,
        risk=risk,
        reasons=event.risk_reasons,
        chain=run.chain,
        suggested_rule=suggestion.model_dump(exclude={"source"}, exclude_none=True) if suggestion else None,
    )
    runtime.bus.sync()
    run.set_status(Status.WAITING_FOR_CONFIRMATION)
    decision = await runtime.confirmer.confirm(request)
    run.set_status(Status.RUNNING)
    if decision.approved and decision.remember is not None and runtime.rules_file is not None:
        runtime.permissions.remember(decision.remember, runtime.rules_file)
    return _resolve(run, event, decision)


def _resolve(run: AgentRun, event: ActionEvent, decision: Decision) -> bool:
    run.record(
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
        run.observe(event, Observation(text=text, is_error=True), "rejected")
    return decision.approved
