"""The model client and everything about one model call: litellm's import, providers, errors,
the answer as the engine uses it, and what it cost.

`from openhands_tui.sdk.llm import LLM, Message` works as `openhands.sdk.llm` does in the
OpenHands SDK (a converted strategy keeps its imports). The names load on first use (PEP 562),
so importing one module here (`llm.errors`, say) does not load the client.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from openhands_tui.sdk.lazy_names import lazy_getattr

if TYPE_CHECKING:
    from openhands_tui.sdk.llm.client import LLM
    from openhands_tui.sdk.llm.message import ImageContent, Message, TextContent, content_to_str
    from openhands_tui.sdk.llm.metrics import Metrics
    from openhands_tui.sdk.llm.response import LLMResponse

_HOMES = {
    "LLM": "openhands_tui.sdk.llm.client",
    "LLMResponse": "openhands_tui.sdk.llm.response",
    "Metrics": "openhands_tui.sdk.llm.metrics",
    "ImageContent": "openhands_tui.sdk.llm.message",
    "Message": "openhands_tui.sdk.llm.message",
    "TextContent": "openhands_tui.sdk.llm.message",
    "content_to_str": "openhands_tui.sdk.llm.message",
}

__all__ = ["LLM", "ImageContent", "LLMResponse", "Message", "Metrics", "TextContent", "content_to_str"]


__getattr__ = lazy_getattr(__name__, _HOMES, globals())


def __dir__() -> list[str]:
    return sorted(__all__)
