"""A chat message's content as the engine sends it: a string, or OpenAI-style parts (text and
`image_url`) when a user's message carries images. Helpers for code that reads content back
(the token estimates, the condenser's summary input, the context breakdown), so none of it
has to know which of the two shapes it was given.
"""

from __future__ import annotations

import base64
from typing import Any

#: What an image is counted as in estimates (providers charge about this for a screenshot; the
#: count the provider reports after the call corrects the estimate).
IMAGE_TOKENS = 1_500


def text_part(text: str) -> dict[str, Any]:
    return {"type": "text", "text": text}


def image_part(media_type: str, data: bytes) -> dict[str, Any]:
    """An image as a data: URL part; litellm turns it into each provider's image block."""
    encoded = base64.b64encode(data).decode("ascii")
    return {"type": "image_url", "image_url": {"url": f"data:{media_type};base64,{encoded}"}}


def text_of(content: Any) -> str:
    """The text of `content`: a string as it is, the text parts of a list joined."""
    if content is None:
        return ""
    if isinstance(content, str):
        return content
    return "\n\n".join(
        part.get("text") or "" for part in content if isinstance(part, dict) and part.get("type") == "text"
    )


def images_in(content: Any) -> int:
    """How many image parts `content` has."""
    if not isinstance(content, list):
        return 0
    return sum(1 for part in content if isinstance(part, dict) and part.get("type") == "image_url")
