"""Confirmations as `session/request_permission`: the editor asks its user.

The request names the agent chain and the action (or, for a command the sandbox stopped,
what running it again would allow), with the options allow once, allow always (when there is
a rule to remember — the same one the app would save) and reject. The policy, rules and
sandbox decide *whether* to ask, exactly as in the app; the editor only answers.
"""

from __future__ import annotations

import asyncio
from typing import Any

from acp.schema import PermissionOption, ToolCallUpdate

from openhands_tui.acp.updates import locations, tool_kind
from openhands_tui.sdk.run.confirmation import ConfirmationRequest, Decision
from openhands_tui.sdk.security.permissions import PermissionRule
from openhands_tui.sdk.terminal_text import shown_for_approval

ALLOW_ONCE, ALLOW_ALWAYS, REJECT = "allow_once", "allow_always", "reject_once"


class EditorConfirmer:
    """Asks through the editor one request at a time (parallel children queue up)."""

    def __init__(self, agent: Any, session_id: str = "") -> None:
        self.agent = agent
        self.session_id = session_id
        self._one_at_a_time = asyncio.Lock()

    async def confirm(self, request: ConfirmationRequest) -> Decision:
        chain = shown_for_approval(" → ".join(request.chain))
        summary = shown_for_approval(request.summary)  # bidi and zero-width characters named, not obeyed
        if request.escalation:
            escalation = shown_for_approval(request.escalation)
            title = f"{chain}: the sandbox stopped `{summary}`; run it again with {escalation}?"
        else:
            title = f"{chain} wants to: {summary} ({request.risk})"
        options = [PermissionOption(option_id=ALLOW_ONCE, name="Allow once", kind="allow_once")]
        rule = PermissionRule.model_validate(request.suggested_rule) if request.suggested_rule else None
        if rule is not None:
            target = rule.command if rule.command is not None else rule.path
            options.append(
                PermissionOption(
                    option_id=ALLOW_ALWAYS, name=f"Always allow {shown_for_approval(repr(target))}", kind="allow_always"
                )
            )
        options.append(PermissionOption(option_id=REJECT, name="Reject", kind="reject_once"))
        call = ToolCallUpdate(
            tool_call_id=request.tool_call_id,
            title=title,
            kind=tool_kind(request.subject),
            status="pending",
            locations=locations(request.subject),
            raw_input={
                "arguments": request.arguments,
                "risk": request.risk,
                "reasons": request.reasons,
                "rules": request.rules,
            },
        )
        async with self._one_at_a_time:
            try:
                answer = await self.agent.client.request_permission(
                    session_id=self.session_id, tool_call=call, options=options
                )
            except Exception as exc:  # the editor could not answer: nothing risky runs unasked
                return Decision(approved=False, reason=f"the editor did not answer ({exc})", decided_by="policy")
        outcome = answer.outcome
        if getattr(outcome, "outcome", "") != "selected":
            return Decision(approved=False, reason="the user cancelled the request")
        if outcome.option_id == ALLOW_ALWAYS and rule is not None:
            return Decision(approved=True, remember=rule)
        if outcome.option_id in (ALLOW_ONCE, ALLOW_ALWAYS):
            return Decision(approved=True)
        return Decision(approved=False)
