"""Running an approved action under the sandbox, and asking to widen it when it was stopped.

A command the sandbox stopped (no network, a read-only path outside the workspace) is not a
dead end: the user is asked whether it may run once more with exactly what it lacked — a
confirmation like any other, persisted before it is asked, refused headless when there is no
terminal, never asked under `--confirm never`. A user rule may grant a command prefix network
access up front. What the sandbox will not grant (protected files, credentials) is explained
to the model instead.
"""

from __future__ import annotations

import contextlib
from typing import Any

from openhands_tui.sdk.facts.event import ActionEvent, ConfirmationResolvedEvent, Risk
from openhands_tui.sdk.facts.subject import ShellCommand
from openhands_tui.sdk.run.actor import Actor
from openhands_tui.sdk.run.approvals import ask
from openhands_tui.sdk.run.confirmation import ConfirmationMode
from openhands_tui.sdk.run.plan_mode import PLAN_MODE_SANDBOX
from openhands_tui.sdk.run.runtime import Runtime
from openhands_tui.sdk.sandbox import SandboxDenial, SandboxGrant
from openhands_tui.sdk.tool import Action, Observation, ToolDefinition


async def execute(
    actor: Actor, runtime: Runtime, tool: ToolDefinition[Any], action: Action, event: ActionEvent
) -> Observation:
    """Run the call in the sandbox (wider where a user rule grants it); if the sandbox stopped
    it, offer the user to run it once more with what it lacked, or tell the model why not."""
    grant = None
    if isinstance(event.subject, ShellCommand) and runtime.sandbox.enabled and not actor.read_only:
        rule = runtime.permissions.network_for(event.subject)
        grant = SandboxGrant(network=True) if rule is not None else None
    observation = await (tool.run_granted(action, grant) if grant is not None else tool.run(action))
    denial = observation.sandbox_denial
    if denial is None:
        return observation
    if not denial.grantable:
        return _noted(observation, f"The sandbox stopped it: {denial.reason}.")
    if actor.read_only:  # plan mode: nothing runs with more than the read-only sandbox gives
        return _noted(observation, f"The sandbox stopped it: {denial.reason}. {PLAN_MODE_SANDBOX}")
    refusal = await _escalation_refused(actor, runtime, event, denial)
    if refusal is not None:
        return _noted(observation, f"The sandbox stopped it: {denial.reason}. {refusal}")
    wider = denial.grant()
    if grant is not None:
        wider.network = wider.network or grant.network
    retried = await tool.run_granted(action, wider)
    return retried.model_copy(
        update={
            "text": f"(The sandbox stopped the first try; the user let it run again with {denial.asks_for()}.)\n"
            + retried.text
        }
    )


def _noted(observation: Observation, note: str) -> Observation:
    return observation.model_copy(update={"text": f"{observation.text}\n{note}", "is_error": True})


async def _escalation_refused(actor: Actor, runtime: Runtime, event: ActionEvent, denial: SandboxDenial) -> str | None:
    """Ask whether the stopped action may run once more with what the sandbox denied; None if
    it may, else what to tell the model."""
    if runtime.policy.mode is ConfirmationMode.NEVER:
        return "Confirmations are off (--confirm never), so nothing runs outside the sandbox; do without it."
    # a path to read is the one grant worth remembering: "always" lets later commands read it too
    only_reads = denial.read and not (denial.write or denial.network)
    suggested = {"action": "allow", "read": denial.read[0]} if only_reads and len(denial.read) == 1 else None
    decision = await ask(
        actor,
        runtime,
        event,
        risk=Risk.HIGH,
        reasons=[denial.reason],
        rules=["sandbox:escalation"],
        escalation=denial.asks_for(),
        suggested_rule=suggested,
    )
    if decision.approved and decision.remember is not None and decision.remember.read is not None:
        runtime.sandbox.readable.append(decision.remember.read)  # the jail binds it from the next command on
        if runtime.rules_file is not None:
            with contextlib.suppress(OSError):  # unsaved: it holds for this session
                runtime.permissions.remember(decision.remember, runtime.rules_file)
    actor.record(
        ConfirmationResolvedEvent,
        action_id=event.id,
        approved=decision.approved,
        reason=decision.reason,
        decided_by=decision.decided_by,
    )
    if decision.approved:
        return None
    why = f" ({decision.reason})" if decision.reason else ""
    who = "the user" if decision.decided_by == "user" else decision.decided_by
    return f"Running it again with {denial.asks_for()} was refused by {who}{why}; do without it or ask the user."
