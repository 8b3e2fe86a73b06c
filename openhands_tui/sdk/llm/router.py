"""The SDK's LLM routers (a model chosen per request)."""

from openhands_tui.sdk.unsupported import missing_module

missing_module(
    "openhands_tui.sdk.llm.router",
    "one LLM serves an agent here; give a sub-agent its own LLM (register_agent) for other work",
)
