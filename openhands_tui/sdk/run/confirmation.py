"""The decisions-in port: whether to ask about an action (policy) and who answers (confirmer).

The policy decides *whether* to ask; the confirmer (TUI modal, headless prompt, test double)
decides the answer. Every agent in a run, at any depth, asks the same confirmer.
"""

from __future__ import annotations

from typing import Protocol

from openhands_tui.sdk.facts.event import ConfirmationRequestEvent, Risk
from openhands_tui.sdk.model import Model
from openhands_tui.sdk.run.confirmation_mode import ConfirmationMode  # the policy is built on it
from openhands_tui.sdk.security.permissions import PermissionRule


class ConfirmationPolicy(Model):
    mode: ConfirmationMode = ConfirmationMode.RISKY
    threshold: Risk = Risk.HIGH

    def should_ask(self, risk: Risk, changes_state: bool) -> bool:
        if self.mode is ConfirmationMode.NEVER:
            return False
        if self.mode is ConfirmationMode.ALWAYS:
            return changes_state or risk.severity >= self.threshold.severity
        return risk.severity >= self.threshold.severity


#: What a confirmer is asked: the persisted event itself (agent chain, action, risk, reasons).
ConfirmationRequest = ConfirmationRequestEvent


class Decision(Model):
    approved: bool
    reason: str = ""
    decided_by: str = "user"
    #: "Approve and always allow": the rule to remember (usually the request's suggested_rule).
    remember: PermissionRule | None = None


class Confirmer(Protocol):
    async def confirm(self, request: ConfirmationRequest) -> Decision: ...


class ApproveAll:
    """Approves everything (for tests and `--confirm never`-like wiring)."""

    async def confirm(self, request: ConfirmationRequest) -> Decision:
        return Decision(approved=True, decided_by="auto-approve")


class RejectAll:
    """Rejects everything it is asked about, saying why (headless without a terminal)."""

    def __init__(self, reason: str) -> None:
        self.reason = reason

    async def confirm(self, request: ConfirmationRequest) -> Decision:
        return Decision(approved=False, reason=self.reason, decided_by="policy")
