"""The SDK's LLM profile store (named LLM settings saved as JSON files)."""

from openhands_tui.sdk.unsupported import missing_module

missing_module(
    "openhands_tui.sdk.llm.llm_profile_store",
    "LLM profiles are not stored here; build LLM(...) in code, or use --model and the settings file",
)
