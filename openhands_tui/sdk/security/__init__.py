"""Risk assessment of actions. Rules decide; the model's own estimate is only ever a floor
(effective risk = max(analyzer, model)). The SDK's policy and analyzer names are here too:
its policies map onto this engine's modes, its analyzers fail in one line saying why."""

from openhands_tui.sdk.security.analyzer import Assessment, RiskAnalyzer, RuleAnalyzer, StateChangeAnalyzer
from openhands_tui.sdk.security.confirmation_policy import (
    AlwaysConfirm,
    ConfirmationPolicyBase,
    ConfirmRisky,
    NeverConfirm,
    SecurityRisk,
)
from openhands_tui.sdk.security.llm_analyzer import (
    EnsembleSecurityAnalyzer,
    GraySwanAnalyzer,
    LLMSecurityAnalyzer,
    PatternSecurityAnalyzer,
    PolicyRailSecurityAnalyzer,
)

__all__ = [
    "AlwaysConfirm",
    "Assessment",
    "ConfirmRisky",
    "ConfirmationPolicyBase",
    "EnsembleSecurityAnalyzer",
    "GraySwanAnalyzer",
    "LLMSecurityAnalyzer",
    "NeverConfirm",
    "PatternSecurityAnalyzer",
    "PolicyRailSecurityAnalyzer",
    "RiskAnalyzer",
    "RuleAnalyzer",
    "SecurityRisk",
    "StateChangeAnalyzer",
]
