"""The OpenHands SDK's `openhands.sdk.conversation`: this engine's `Conversation` under the
SDK's names. It is both the SDK's `LocalConversation` and its `BaseConversation`: the calls
the SDK's conversations share are `SDKCalls` (`sdk/run/sdk_calls.py`)."""

from __future__ import annotations

from openhands_tui.sdk.conversation.state import ConversationExecutionStatus, ConversationState
from openhands_tui.sdk.conversation.types import ConversationCallbackType
from openhands_tui.sdk.conversation.visualizer import ConversationVisualizerBase, DefaultConversationVisualizer
from openhands_tui.sdk.run.conversation import Conversation
from openhands_tui.sdk.run.sdk_calls import ConversationStats, SDKCalls
from openhands_tui.sdk.unsupported import Unsupported

#: The SDK's base of its local and remote conversations: here, the calls they share.
BaseConversation = SDKCalls
#: The SDK's in-process conversation: the only kind here.
LocalConversation = Conversation


class RemoteConversation(Unsupported):
    why = "there is no remote agent-server here; use Conversation(agent=..., workspace=path), which runs locally"


__all__ = [
    "BaseConversation",
    "Conversation",
    "ConversationCallbackType",
    "ConversationExecutionStatus",
    "ConversationState",
    "ConversationStats",
    "ConversationVisualizerBase",
    "DefaultConversationVisualizer",
    "LocalConversation",
    "RemoteConversation",
]
