"""The SDK's Tom (theory-of-mind) consultation tools, which need the Tom agent service."""

from openhands_tui.sdk.unsupported import missing_module

missing_module(
    "openhands_tui.tools.tom_consult",
    "the Tom agent service is not available here; add what the user prefers to AgentContext(system_message_suffix=...)",
)
