"""Risk assessment of actions. Rules decide; the model's own estimate is only ever a floor
(effective risk = max(analyzer, model))."""

from openhands_tui.sdk.security.analyzer import Assessment, RiskAnalyzer, RuleAnalyzer, StateChangeAnalyzer

__all__ = ["Assessment", "RiskAnalyzer", "RuleAnalyzer", "StateChangeAnalyzer"]
