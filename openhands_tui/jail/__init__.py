"""The wall around everything that runs code for the agent: the terminal's shell, project code
it starts, and stdio MCP servers all start inside a bubblewrap jail built here, from the
session's SandboxPolicy. Uses the engine's facts (`openhands_tui.sdk`), never the tools."""
