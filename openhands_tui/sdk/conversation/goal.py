"""The SDK's `openhands.sdk.conversation.goal` (a judge model loops the agent until a goal is met)."""

from openhands_tui.sdk.unsupported import missing_module

missing_module(
    "openhands_tui.sdk.conversation.goal",
    "goal loops are not here; give the Agent a critic with iterative_refinement (see `tui help strategies`: Critics)",
)
