"""Ready-made tool sets and agents (the SDK's `openhands.tools.preset`)."""

from openhands_tui.tools.preset.default import get_default_agent, get_default_tools

__all__ = ["get_default_agent", "get_default_tools"]
