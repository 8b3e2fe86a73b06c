"""Risk assessment of actions. The engine asks an analyzer; the model's own estimate is only
ever a floor (effective risk = max(analyzer, model))."""

from openhands_tui.sdk.security.analyzer import Assessment, RiskAnalyzer, StateChangeAnalyzer

__all__ = ["Assessment", "RiskAnalyzer", "StateChangeAnalyzer"]
