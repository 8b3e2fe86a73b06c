"""The SDK's import path for condensers: `from openhands.sdk.context.condenser import ...`."""

from openhands_tui.sdk.condenser import Condenser, LLMSummarizingCondenser, NoOpCondenser

__all__ = ["Condenser", "LLMSummarizingCondenser", "NoOpCondenser"]
