"""The SDK's workflow tool set (the model writes a script of sub-agent calls that the SDK runs)."""

from openhands_tui.sdk.unsupported import missing_module

missing_module(
    "openhands_tui.tools.workflow",
    "workflow scripts are not here; register agents and give the Agent Tool(name='DelegateTool'), "
    "whose delegate_parallel runs several at once",
)
