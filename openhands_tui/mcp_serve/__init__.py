"""`tui mcp serve`: our agent as an MCP server for other agents (server.py, approvals.py)."""
