"""The SDK's confirmation policies (`conversation.set_confirmation_policy(...)`), as this
engine's modes: `AlwaysConfirm` asks before every action that can change something (reads are
not asked about), `NeverConfirm` never asks, `ConfirmRisky(threshold=...)` asks from that risk
up. Risk is always rated here (by rules), so `confirm_unknown` has nothing to apply to."""

from __future__ import annotations

from enum import StrEnum
from typing import Any, ClassVar

from pydantic import field_validator

from openhands_tui.sdk.facts.risk import Risk
from openhands_tui.sdk.model import StrictModel


class SecurityRisk(StrEnum):
    """The SDK's risk levels; `UNKNOWN` is what its analyzers say when they cannot tell."""

    UNKNOWN = "UNKNOWN"
    LOW = "LOW"
    MEDIUM = "MEDIUM"
    HIGH = "HIGH"

    def to_risk(self) -> Risk:
        return Risk.HIGH if self is SecurityRisk.UNKNOWN else Risk(self.value)


class ConfirmationPolicyBase(StrictModel):
    #: The engine's confirmation mode this policy is.
    mode: ClassVar[str] = "risky"

    @property
    def risk_threshold(self) -> Risk | None:
        return None


class AlwaysConfirm(ConfirmationPolicyBase):
    mode: ClassVar[str] = "always"


class NeverConfirm(ConfirmationPolicyBase):
    mode: ClassVar[str] = "never"


class ConfirmRisky(ConfirmationPolicyBase):
    mode: ClassVar[str] = "risky"
    threshold: SecurityRisk = SecurityRisk.HIGH
    confirm_unknown: bool = True

    @field_validator("threshold", mode="before")
    @classmethod
    def _known_level(cls, value: Any) -> Any:
        if str(getattr(value, "value", value)) == "UNKNOWN":
            raise ValueError("ConfirmRisky(threshold=UNKNOWN) is not a threshold; use LOW, MEDIUM or HIGH")
        return value

    @property
    def risk_threshold(self) -> Risk | None:
        return SecurityRisk(self.threshold).to_risk()


__all__ = ["AlwaysConfirm", "ConfirmRisky", "ConfirmationPolicyBase", "NeverConfirm", "SecurityRisk"]
