"""The SDK's model-based risk analyzers, which this project does not have."""

from __future__ import annotations

from openhands_tui.sdk.unsupported import Unsupported

_RULES = "risk is rated by rules here (see `tui rules`); choose when to ask with set_confirmation_policy"


class LLMSecurityAnalyzer(Unsupported):
    why = f"a model does not rate risk: {_RULES}"


class EnsembleSecurityAnalyzer(Unsupported):
    why = f"there is one analyzer: {_RULES}"


class PatternSecurityAnalyzer(Unsupported):
    why = f"the command rules are the program table (add rules in your rules file): {_RULES}"


class PolicyRailSecurityAnalyzer(Unsupported):
    why = f"policy rails are the rules and the sandbox: {_RULES}"


class GraySwanAnalyzer(Unsupported):
    why = f"the GraySwan service is not used: {_RULES}"


__all__ = [
    "EnsembleSecurityAnalyzer",
    "GraySwanAnalyzer",
    "LLMSecurityAnalyzer",
    "PatternSecurityAnalyzer",
    "PolicyRailSecurityAnalyzer",
]
