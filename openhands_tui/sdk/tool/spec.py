"""The SDK's `openhands.sdk.tool.spec`: `Tool(name=..., params={...})`."""

from openhands_tui.sdk.tool_spec import Tool

__all__ = ["Tool"]
