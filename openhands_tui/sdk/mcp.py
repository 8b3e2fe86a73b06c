"""The SDK's `openhands.sdk.mcp`: `MCPServer(command=..., args=[...])` or `MCPServer(url=...)`
describes one server in `Agent(mcp_config={name: MCPServer(...)})` (see `tui help mcp`)."""

from openhands_tui.sdk.mcp_config import MCPServerConfig

MCPServer = MCPServerConfig

__all__ = ["MCPServer"]
