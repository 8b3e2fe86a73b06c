"""Events -> the chat messages a model is sent, for one agent.

Built incrementally: each event is folded in once, so a step costs O(new events), not
O(history). The same fold runs live and on resume, so a resumed agent sends exactly the
messages it would have sent had it never stopped. The messages are a `History`: a message in
it is never changed in place (a changed one is a new dict in its place), so what a request
computed for a message (its JSON, say) holds for the next request that sends it.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from typing import Any

from openhands_tui.sdk.facts.attachment import AttachedImage
from openhands_tui.sdk.facts.event import (
    ActionEvent,
    AgentErrorEvent,
    CondensationEvent,
    Event,
    MessageEvent,
    ObservationEvent,
    ResultsTruncatedEvent,
    SystemPromptEvent,
)
from openhands_tui.sdk.llm.content import image_part, text_part
from openhands_tui.sdk.llm.history import History

#: Reads an attached image's stored bytes (None: they are gone).
ImageReader = Callable[[AttachedImage], bytes | None]


def condensed_block(event: CondensationEvent) -> str:
    return (
        f"<CONDENSED_HISTORY>\n{event.removed} earlier messages of this conversation were condensed to fit "
        f"the context window. What they covered:\n\n{event.summary.strip()}\n</CONDENSED_HISTORY>"
    )


def _assistant_message(event: MessageEvent) -> dict[str, Any]:
    """What the model said, with the thinking that preceded it (the provider layer decides
    whether it goes back). A message kept only for its thinking has no text, like a reply
    that is only tool calls."""
    content = _bounded_text(event.content)
    if not event.thinking:
        return {"role": "assistant", "content": content}
    return {"role": "assistant", "content": content or None, "thinking_blocks": event.thinking}


#: What the model said is sent back at most this long: no real model writes more in one answer,
#: and a provider that streamed megabytes would otherwise have them re-sent with every request.
MAX_TEXT_IN_HISTORY = 100_000


def _bounded_text(text: str) -> str:
    if len(text) <= MAX_TEXT_IN_HISTORY:
        return text
    head = MAX_TEXT_IN_HISTORY // 2
    omitted = len(text) - 2 * head
    return f"{text[:head]}\n[... {omitted:,} characters of this answer omitted from the history ...]\n{text[-head:]}"


#: A tool call bigger than this (a `create` with a whole file in it) is sent back shortened:
#: the call already ran, and re-sending megabytes with every later request would fill the window.
MAX_ARGUMENTS_IN_HISTORY = 20_000
_KEEP_OF_LONG_STRING = 1_000
_KEEP_OF_LONG_LIST = 50


#: What providers accept as a function name (OpenAI and Anthropic alike).
_FUNCTION_NAME = re.compile(r"[A-Za-z0-9_-]{1,64}")


def sendable_name(name: str) -> str:
    """A called tool's name as it can be sent back: a model that calls `bad name!` or a name of
    100,000 characters would otherwise have every later request refused (400), the session's
    too on resume. Only names no tool can have are changed, the same way each time."""
    if _FUNCTION_NAME.fullmatch(name):
        return name
    return re.sub(r"[^A-Za-z0-9_-]", "_", name)[:64] or "invalid_tool"


def compact_arguments(raw: str) -> str:
    """The call's JSON with every long string value cut (deterministically, so prompt caches and
    resume see the same bytes), still valid JSON."""
    try:
        parsed = json.loads(raw)
    except ValueError:
        return "{}"

    def cut(value: Any) -> Any:
        if isinstance(value, str) and len(value) > _KEEP_OF_LONG_STRING * 2:
            omitted = len(value) - _KEEP_OF_LONG_STRING
            return value[:_KEEP_OF_LONG_STRING] + f"... [{omitted:,} more characters, omitted from the history]"
        if isinstance(value, dict):
            return {key: cut(item) for key, item in value.items()}
        if isinstance(value, list):
            kept = [cut(item) for item in value[:_KEEP_OF_LONG_LIST]]
            if len(value) > _KEEP_OF_LONG_LIST:  # 50,000 small items are as big as one long string
                kept.append(f"... [{len(value) - _KEEP_OF_LONG_LIST:,} more items, omitted from the history]")
            return kept
        return value

    compact = json.dumps(cut(parsed))
    if len(compact) > MAX_ARGUMENTS_IN_HISTORY:  # wide or deep in some other way: only its size goes back
        return json.dumps({"omitted": f"a {len(raw):,}-character call, omitted from the history"})
    return compact


def shorten(text: str, keep: int) -> str:
    """`text` cut to about `keep` characters: its head and tail, with a note of what is missing."""
    if len(text) <= keep:
        return text
    head = keep * 2 // 3
    tail = keep - head
    omitted = len(text) - head - tail
    note = f"[... {omitted:,} characters of this result were dropped to fit the context window ...]"
    return f"{text[:head]}\n{note}\n{text[-tail:]}"


#: The text before the images tools returned (they follow the results that name them).
TOOL_IMAGES_HEADER = "The images returned by the tool calls above, in order:"


def user_content(event: MessageEvent) -> str:
    return "\n\n".join([event.content, *event.context]) if event.context else event.content


def missing_image_note(image: AttachedImage) -> str:
    return f"[image {image.name} ({image.size:,} bytes) was attached here; it is no longer stored, so it is not shown]"


def user_message(event: MessageEvent, read: ImageReader | None) -> dict[str, Any]:
    """A user's message as sent: its text (with the context added), then its images as
    `image_url` parts, each read from where the session stored it (a note stands in for one
    that is gone, so a resumed session still goes on)."""
    text = user_content(event)
    if not event.images:
        return {"role": "user", "content": text}
    parts = [text_part(text)]
    for image in event.images:
        data = read(image) if read is not None else None
        parts.append(image_part(image.media_type, data) if data is not None else text_part(missing_image_note(image)))
    return {"role": "user", "content": parts}


class MessageBuilder:
    def __init__(self, agent_id: str, images: ImageReader | None = None) -> None:
        self.agent_id = agent_id
        #: Where a user message's images are read from (None: images are noted, not sent).
        self.images = images
        self.messages: History = History()
        self._response_id: str | None = None
        #: The assistant message of the response being built: its later tool calls (recorded
        #: after earlier ones ran) join it, ahead of the results already added after it.
        self._assistant: dict[str, Any] | None = None
        #: Where the user message carrying the current response's tool images is (None: none yet).
        self._images_message: int | None = None

    def add(self, event: Event) -> None:
        if event.agent_id != self.agent_id:
            return
        if isinstance(event, SystemPromptEvent):
            system = {"role": "system", "content": event.content}
            if self.messages and self.messages[0]["role"] == "system":
                self.messages[0] = system
            else:
                self.messages.insert(0, system)
        elif isinstance(event, MessageEvent):
            if event.role == "user":
                self._response_id, self._assistant = None, None
                self.messages.append(user_message(event, self.images))
            else:
                self._response_id = event.response_id
                self._assistant = _assistant_message(event)
                self.messages.append(self._assistant)
        elif isinstance(event, ActionEvent):
            self._add_tool_call(event)
        elif isinstance(event, ObservationEvent):
            self._add_tool_result(event.tool_call_id, event.content, event.images)
        elif isinstance(event, AgentErrorEvent) and event.tool_call_id:
            self._add_tool_result(event.tool_call_id, event.error)
        elif isinstance(event, ResultsTruncatedEvent):
            for position in event.positions:
                if 0 <= position < len(self.messages) and self.messages[position]["role"] == "tool":
                    message = dict(self.messages[position])
                    message["content"] = shorten(message.get("content") or "", event.keep_chars)
                    self.messages[position] = message
        elif isinstance(event, CondensationEvent):
            self.messages[event.head : event.tail] = [{"role": "user", "content": condensed_block(event)}]
            self._response_id, self._assistant = None, None

    def _add_tool_call(self, event: ActionEvent) -> None:
        # Invalid JSON in history makes some providers reject the whole request; the error
        # result that follows tells the model what was wrong with its call.
        arguments = event.raw_arguments if event.valid and event.raw_arguments else "{}"
        if len(arguments) > MAX_ARGUMENTS_IN_HISTORY:
            arguments = compact_arguments(arguments)
        call = {
            "id": event.tool_call_id,
            "type": "function",
            "function": {"name": sendable_name(event.tool_name), "arguments": arguments},
        }
        last = self._assistant
        if last is None or self._response_id != event.response_id or event.response_id is None:
            self._assistant = {"role": "assistant", "content": None, "tool_calls": [call]}
            self.messages.append(self._assistant)
            self._response_id = event.response_id
        else:  # the response's message with this call too: a new dict in its place
            self._assistant = {**last, "tool_calls": [*last.get("tool_calls", ()), call]}
            self._replace(last, self._assistant)

    def _replace(self, old: dict[str, Any], new: dict[str, Any]) -> None:
        """Put `new` where `old` is (looked for from the end, where the message being added to is)."""
        for index in range(len(self.messages) - 1, -1, -1):
            if self.messages[index] is old:
                self.messages[index] = new
                return

    def _add_tool_result(self, tool_call_id: str, content: str, images: list[AttachedImage] | None = None) -> None:
        """A tool's result as text; its images (a screenshot an MCP server returned) go in a user
        message after the response's results, because providers take images only from users
        (OpenAI's tool messages are text, and litellm drops image parts there). All the results
        of one response stay together: a result recorded after the images goes in ahead of them."""
        result = {"role": "tool", "tool_call_id": tool_call_id, "content": content}
        carrier = self._images_message if self._images_message == len(self.messages) - 1 else None
        if carrier is None:
            self.messages.append(result)
        else:
            self.messages.insert(carrier, result)
            self._images_message = carrier + 1
        if not images:
            return
        if self._images_message != len(self.messages) - 1:
            self.messages.append({"role": "user", "content": [text_part(TOOL_IMAGES_HEADER)]})
            self._images_message = len(self.messages) - 1
        parts = list(self.messages[-1]["content"])
        for image in images:
            data = self.images(image) if self.images is not None else None
            parts.append(
                image_part(image.media_type, data) if data is not None else text_part(missing_image_note(image))
            )
        self.messages[-1] = {**self.messages[-1], "content": parts}
