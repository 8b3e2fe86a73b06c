"""`Message`, `TextContent`, `ImageContent`: the SDK's message types, for strategy code.

The engine itself sends plain OpenAI-style dicts (`run/messages.py`); these types exist so code
written against the OpenHands SDK (an observation's `to_llm_content`, a tool that asks a model
something with `llm.completion([Message(...)])`) works unchanged.
"""

from __future__ import annotations

from typing import Any, Literal

from pydantic import Field

from openhands_tui.sdk.model import StrictModel


class TextContent(StrictModel):
    """A piece of text in a message or a tool result."""

    sdk_instead = {"cache_prompt": "prompt caching is decided by the engine; remove it"}

    type: Literal["text"] = "text"
    text: str = Field(description="The text.")


class ImageContent(StrictModel):
    """Images by URL (or data: URL). Tool results keep only a note that an image was there."""

    type: Literal["image"] = "image"
    image_urls: list[str] = Field(description="http(s) or data: URLs of the images.")


Content = TextContent | ImageContent


class Message(StrictModel):
    """One message: a role and its content (a string, or a list of content parts)."""

    role: Literal["system", "user", "assistant", "tool"] = Field(description="Who says it.")
    content: str | list[Content] = Field(default_factory=list, description="Text, or text and image parts.")
    name: str | None = Field(default=None, description="The tool's name, for a tool result.")
    tool_call_id: str | None = Field(default=None, description="The call a tool result answers.")
    tool_calls: list[dict[str, Any]] = Field(
        default_factory=list, description="An assistant message's tool calls, in the OpenAI shape."
    )

    @property
    def text(self) -> str:
        return content_text(self.content)

    def to_chat(self) -> dict[str, Any]:
        """The OpenAI-style dict litellm takes (images as image_url parts)."""
        message: dict[str, Any] = {"role": self.role}
        if isinstance(self.content, str) or all(isinstance(part, TextContent) for part in self.content):
            message["content"] = self.text
        else:
            parts: list[dict[str, Any]] = []
            for part in self.content:
                if isinstance(part, TextContent):
                    parts.append({"type": "text", "text": part.text})
                else:
                    parts += [{"type": "image_url", "image_url": {"url": url}} for url in part.image_urls]
            message["content"] = parts
        if self.name:
            message["name"] = self.name
        if self.tool_call_id:
            message["tool_call_id"] = self.tool_call_id
        if self.tool_calls:
            message["tool_calls"] = self.tool_calls
        return message


def content_text(content: str | list[Any]) -> str:
    """The text of `content`; each image is a short note, since tool results here are text."""
    if isinstance(content, str):
        return content
    parts = []
    for part in content:
        if isinstance(part, TextContent):
            parts.append(part.text)
        elif isinstance(part, ImageContent):
            parts.append(f"[{len(part.image_urls)} image(s) not shown]")
        elif isinstance(part, str):
            parts.append(part)
    return "\n".join(parts)


def content_to_str(content: str | list[Any]) -> list[str]:
    """The SDK's `content_to_str`: the text of each part of a message's content."""
    if isinstance(content, str):
        return [content]
    return [content_text([part]) for part in content]
