"""Whether a recorded action may run: deny rules always apply; allow rules and the confirmer
are consulted only when the policy says to ask. A HIGH-risk action is approved by a rule only
if it is an exact rule for it. A confirmation request is persisted (and fsynced) before anyone
is asked, so a crash while waiting means asking again on resume, never running unanswered.
Works on the narrow `Actor` view of an agent, like run/actions.py, which calls it."""

from __future__ import annotations

from typing import Any

from openhands_tui.sdk.facts.event import ActionEvent, ConfirmationRequestEvent, ConfirmationResolvedEvent, Risk, Status
from openhands_tui.sdk.hooks.engine import HookOutcome
from openhands_tui.sdk.run.actor import Actor
from openhands_tui.sdk.run.confirmation import Decision
from openhands_tui.sdk.run.hook_points import hook_input, record_hook
from openhands_tui.sdk.run.runtime import Runtime
from openhands_tui.sdk.security.permissions import suggest_rule
from openhands_tui.sdk.tool import Observation


async def refusal(
    actor: Actor, runtime: Runtime, event: ActionEvent, hooks: HookOutcome | None = None
) -> Observation | None:
    """None if the recorded action may run; else the result the model is to read (its caller
    records it, so results stay in the order the model gave the calls). A PreToolUse hook's
    deny refuses it; its ask asks the user whatever the risk; its allow admits it without
    asking — but never past a deny rule."""
    subject = event.subject
    assert subject is not None
    risk = event.risk or Risk.LOW
    if hooks is not None and hooks.decision == "deny":
        denial = Decision(approved=False, decided_by=hooks.decided_by, reason=hooks.reason or "a hook refused it")
        return _resolved(actor, event, denial)
    by_rule = runtime.permissions.decide(subject, risk, runtime.trusted)
    if by_rule is not None and not by_rule.approved:
        denial = Decision(approved=False, decided_by=by_rule.decided_by, reason="a deny rule forbids it")
        return _resolved(actor, event, denial)
    if hooks is not None and hooks.decision == "allow":
        return _resolved(actor, event, Decision(approved=True, decided_by=hooks.decided_by, reason=hooks.reason))
    if hooks is not None and hooks.decision == "ask":
        reasons = [*event.risk_reasons, f"a hook asks: {hooks.reason or hooks.decided_by}"]
        decision = await ask(actor, runtime, event, risk=risk, reasons=reasons, rules=[*event.risk_rules, "hook:ask"])
        return _resolved(actor, event, decision)
    if not runtime.policy.should_ask(risk, subject.changes_state and not actor.read_only):  # plan mode changes nothing
        return None
    if by_rule is not None:
        return _resolved(actor, event, Decision(approved=True, decided_by=by_rule.decided_by))
    suggestion = suggest_rule(subject, runtime.workspace, exact=risk is Risk.HIGH)
    suggested = suggestion.model_dump(exclude={"source", "workspace"}, exclude_defaults=True) if suggestion else None
    decision = await ask(
        actor, runtime, event, risk=risk, reasons=event.risk_reasons, rules=event.risk_rules, suggested_rule=suggested
    )
    if decision.approved and decision.remember is not None and runtime.rules_file is not None:
        try:
            runtime.permissions.remember(decision.remember, runtime.rules_file)
        except OSError as exc:  # a read-only config dir: the rule holds for this session, the run goes on
            unsaved = f"user (allowed for this session only: cannot write {exc.filename} ({exc.strerror or exc}))"
            decision = decision.model_copy(update={"decided_by": unsaved, "remember": None})
    return _resolved(actor, event, decision)


async def ask(
    actor: Actor,
    runtime: Runtime,
    event: ActionEvent,
    *,
    risk: Risk,
    reasons: list[str],
    rules: list[str] | None = None,
    suggested_rule: dict[str, Any] | None = None,
    escalation: str | None = None,
) -> Decision:
    """Ask the run's confirmer about a recorded action; the request is durable first, and the
    asking agent shows as waiting meanwhile."""
    request = actor.record(
        ConfirmationRequestEvent,
        action_id=event.id,
        tool_call_id=event.tool_call_id,
        tool_name=event.tool_name,
        summary=event.summary,
        arguments=event.arguments,
        subject=event.subject,
        risk=risk,
        reasons=reasons,
        rules=rules or [],
        chain=runtime.tree.chain(actor.agent_id),
        suggested_rule=suggested_rule,
        escalation=escalation,
    )
    runtime.bus.sync()
    actor.set_status(Status.WAITING_FOR_CONFIRMATION)
    if runtime.hooks_for(actor.agent_id).has("Notification"):  # told in the background: the question is not held up
        message = f"openhands-tui needs your permission: {event.summary}"
        given = hook_input(
            runtime,
            "Notification",
            fields={"message": message, "notification_type": "permission_prompt"},
            match_value="permission_prompt",
        )
        runtime.hooks_for(actor.agent_id).start(given, lambda ran: record_hook(actor, ran, event.tool_call_id))
    decision = await runtime.confirmer.confirm(request)
    actor.set_status(Status.RUNNING)
    return decision


def refused_by(actor: Actor, event: ActionEvent, decided_by: str, reason: str) -> Observation:
    """Refuse a recorded action without asking anyone (plan mode): recorded as any refusal is."""
    refused = _resolved(actor, event, Decision(approved=False, decided_by=decided_by, reason=reason))
    assert refused is not None
    return refused


def _resolved(actor: Actor, event: ActionEvent, decision: Decision) -> Observation | None:
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
        return Observation(text=text, is_error=True)
    return None
