"""The SDK's `openhands.sdk.conversation.types`."""

from openhands_tui.sdk.run.sdk_calls import ConversationCallbackType

__all__ = ["ConversationCallbackType"]
