"""The SDK's browser tools: there is no browser here."""

from openhands_tui.sdk.unsupported import missing_module

missing_module(
    "openhands_tui.tools.browser_use",
    "there is no browser here; fetch pages with the terminal (curl) or an MCP server (e.g. fetch)",
)
