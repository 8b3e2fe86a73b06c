"""Approvals when `tui` is another agent's MCP server: the client's user is asked through MCP
elicitation where the client can ask (a form: approve or not, and why not); where it cannot,
nothing risky runs unasked — the request is refused with the reason, as a headless run without
a terminal refuses it, unless the person who started `tui mcp serve` chose `--confirm never`
(then the engine never asks at all).

The form's text is ours, built from the request with its escape sequences and invisible
characters named (`shown_for_approval`): the client shows it to a person, and a model's
command must not be able to dress itself up there.
"""

from __future__ import annotations

import asyncio
from typing import Any

from pydantic import BaseModel, Field

from openhands_tui.sdk.run.confirmation import ConfirmationRequest, Decision
from openhands_tui.sdk.terminal_text import shown_for_approval

#: What a refusal says when the client cannot ask its user.
NO_ONE_TO_ASK = (
    "the MCP client cannot ask its user (no elicitation), so a risky action is refused; "
    "start `tui mcp serve --confirm never` to allow everything"
)


class Approval(BaseModel):
    """The form the client's user fills in."""

    approve: bool = Field(default=False, title="Approve", description="Run this action")
    reason: str = Field(default="", title="Why not", description="Optional, told to the agent when refused")


def can_elicit(context: Any) -> bool:
    """Whether the connected client said it can put a form in front of its user."""
    from mcp import types

    capability = types.ClientCapabilities(elicitation=types.ElicitationCapability())
    try:
        return bool(context.session.check_client_capability(capability))
    except (AttributeError, ValueError):
        return False


def question(request: ConfirmationRequest) -> str:
    """The request in words: who asks, what, how risky, why."""
    chain = shown_for_approval(" → ".join(request.chain) or "agent")
    summary = shown_for_approval(request.summary)
    if request.escalation:
        head = f"{chain}: the sandbox stopped `{summary}`; run it again with {shown_for_approval(request.escalation)}?"
    else:
        head = f"{chain} wants to: {summary} (risk {request.risk})"
    reasons = "\n".join(f"- {shown_for_approval(reason)}" for reason in request.reasons)
    return f"{head}\n{reasons}" if reasons else head


class ClientConfirmer:
    """Asks the MCP client's user, one request at a time (parallel children queue up)."""

    def __init__(self, context: Any) -> None:
        self.context = context
        self._one_at_a_time = asyncio.Lock()

    async def confirm(self, request: ConfirmationRequest) -> Decision:
        if not can_elicit(self.context):
            return Decision(approved=False, reason=NO_ONE_TO_ASK, decided_by="policy")
        async with self._one_at_a_time:
            try:
                answer = await self.context.elicit(question(request), Approval)
            except Exception as exc:  # the client could not answer: nothing risky runs unasked
                return Decision(approved=False, reason=f"the MCP client did not answer ({exc})", decided_by="policy")
        if answer.action != "accept" or answer.data is None:
            return Decision(approved=False, reason=f"the client's user chose {answer.action}")
        if answer.data.approve:
            return Decision(approved=True)
        return Decision(approved=False, reason=answer.data.reason.strip()[:500])
