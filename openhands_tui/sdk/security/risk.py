"""The SDK's `openhands.sdk.security.risk`."""

from openhands_tui.sdk.security.confirmation_policy import SecurityRisk

__all__ = ["SecurityRisk"]
