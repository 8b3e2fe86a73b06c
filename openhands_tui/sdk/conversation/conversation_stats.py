"""The SDK's `openhands.sdk.conversation.conversation_stats`: cost and tokens of a conversation."""

from openhands_tui.sdk.run.sdk_calls import ConversationStats

__all__ = ["ConversationStats"]
