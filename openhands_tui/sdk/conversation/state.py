"""The SDK's `openhands.sdk.conversation.state`: a conversation's status and `conversation.state`."""

from openhands_tui.sdk.run.sdk_calls import ConversationExecutionStatus, ConversationState

__all__ = ["ConversationExecutionStatus", "ConversationState"]
