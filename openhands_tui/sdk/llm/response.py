"""A model's answer as the engine uses it, assembled from what litellm returns — streamed
chunks or a whole message — for any provider.

Kept apart from `llm/client.py` (which calls litellm) because it is pure: it reads litellm's objects
by attribute and never imports litellm. Thinking comes back two ways: Anthropic-style signed
blocks (`thinking_blocks`: `thinking` with a `signature`, or `redacted_thinking` with opaque
`data`), which must later be sent back unchanged, and a plain `reasoning_content` text from
other providers, kept for display only.
"""

from __future__ import annotations

import json
import random
from collections.abc import AsyncIterator, Callable
from typing import Any

from pydantic import Field

from openhands_tui.sdk.errors import LLMBadResponseError, LLMTransientError
from openhands_tui.sdk.llm.answer_limits import MAX_CALL_CHARS, BoundedText, bounded
from openhands_tui.sdk.llm.message import Message, TextContent
from openhands_tui.sdk.model import Model
from openhands_tui.sdk.terminal_text import DeltaJoiner, valid_unicode

TextCallback = Callable[[str], None]


class ToolCall(Model):
    id: str
    name: str
    arguments: str = ""
    #: The arguments' true length when they were too long to keep whole (0: `arguments` is whole).
    full_length: int = 0


class Usage(Model):
    """Tokens of one call. `prompt_tokens` counts every input token, cached ones included."""

    prompt_tokens: int = 0
    completion_tokens: int = 0
    cache_read_tokens: int = 0
    cache_write_tokens: int = 0
    reasoning_tokens: int = 0
    cost: float | None = None


class LLMResponse(Model):
    id: str
    text: str = ""
    tool_calls: list[ToolCall] = Field(default_factory=list)
    #: Provider thinking blocks, exactly as they must be sent back (signed or redacted).
    thinking: list[dict[str, Any]] = Field(default_factory=list)
    #: The reasoning text, for display (the joined thinking, or a provider's reasoning_content).
    reasoning: str = ""
    finish_reason: str | None = None
    usage: Usage = Field(default_factory=Usage)
    latency_ms: float = 0.0
    retries: int = 0
    #: Whether the usage is litellm's estimate from only some of the answer: the provider reported
    #: none, and chunks litellm keeps were let go while streaming (`_unburden`).
    usage_from_part: bool = Field(default=False, exclude=True)

    @property
    def message(self) -> Message:  # the SDK's `response.message`: the text (calls are in tool_calls)
        return Message(role="assistant", content=[TextContent(text=self.text)])


def canonical_block(block: Any) -> dict[str, Any] | None:
    """A thinking block in the one shape we store and send back: `{"type": "thinking",
    "thinking": ..., "signature": ...}` or `{"type": "redacted_thinking", "data": ...}`."""
    get = block.get if isinstance(block, dict) else lambda key, default=None: getattr(block, key, default)
    kind = get("type")
    if kind == "redacted_thinking":
        return {"type": "redacted_thinking", "data": get("data") or ""}
    if kind == "thinking":
        return {"type": "thinking", "thinking": get("thinking") or "", "signature": get("signature") or ""}
    return None


class _ThinkingAssembler:
    """Streamed thinking arrives as text pieces, then the block's signature, which ends it;
    a redacted block arrives whole."""

    def __init__(self) -> None:
        self.blocks: list[dict[str, Any]] = []
        self._open: dict[str, Any] | None = None
        self.text: list[str] = []

    def add(self, piece: Any) -> None:
        block = canonical_block(piece)
        if block is None:
            return
        if block["type"] == "redacted_thinking":
            self._close()
            self.blocks.append(block)
            return
        if self._open is None:
            self._open = {"type": "thinking", "thinking": "", "signature": ""}
        self._open["thinking"] += block["thinking"]
        if block["signature"]:
            self._open["signature"] = block["signature"]
            self._close()

    def _close(self) -> None:
        if self._open is not None:
            self.blocks.append(self._open)
            self._open = None

    def finish(self) -> list[dict[str, Any]]:
        self._close()  # an unsigned block is kept for display; it is never sent back
        return self.blocks


async def assemble_stream(
    stream: Any, on_text: TextCallback | None, on_thinking: TextCallback | None = None, *, for_us_only: bool = False
) -> LLMResponse:
    """The answer of a litellm stream. `for_us_only`: nobody else reads this call through litellm
    (no litellm callbacks), so the stream is let go once its usage chunk is in (`_until_delivered`)."""
    response_id = ""
    text = BoundedText()  # megabytes of answer are kept (and shown) as their start and end
    reasoning_text = BoundedText()
    thinking = _ThinkingAssembler()
    calls: dict[int, dict[str, str]] = {}
    arguments: dict[int, BoundedText] = {}
    slots = _CallSlots()
    finish_reason = None
    usage = Usage()
    text_joiner = DeltaJoiner()
    let_go = False
    async for chunk in _until_delivered(stream) if for_us_only else stream:
        let_go = _unburden(stream) or let_go
        response_id = response_id or getattr(chunk, "id", "") or ""
        chunk_usage = getattr(chunk, "usage", None)
        if chunk_usage:
            usage = usage_from(chunk_usage)
        if not chunk.choices:
            continue
        choice = chunk.choices[0]
        finish_reason = choice.finish_reason or finish_reason
        delta = choice.delta
        if delta is None:
            continue
        blocks = getattr(delta, "thinking_blocks", None) or ()
        for block in blocks:
            thinking.add(block)
        reasoning = getattr(delta, "reasoning_content", None)
        if reasoning:
            reasoning_text.add(reasoning)
        if on_thinking is not None and not reasoning_text.overflowed:
            piece = reasoning or "".join((canonical_block(b) or {}).get("thinking", "") for b in blocks)
            if piece:
                on_thinking(piece)
        if delta.content:
            piece = text_joiner.add(delta.content)
            text.add(piece)
            if on_text is not None and piece and not text.overflowed:  # the rest is in the message
                on_text(piece)
        for position, tc in enumerate(delta.tool_calls or ()):
            index = slots.slot(tc, position, calls, arguments)
            call = calls.setdefault(index, {"id": "", "name": ""})
            if tc.id:
                call["id"] = tc.id
            if tc.function is not None:
                if tc.function.name and not call["name"]:
                    call["name"] = tc.function.name
                # past the limit the call is refused; only its length still matters
                arguments.setdefault(index, BoundedText(MAX_CALL_CHARS + 1, keep_tail=False)).add(
                    tc.function.arguments or ""
                )
    if _ended_early(stream):
        raise LLMTransientError("the answer stream ended before the model finished (connection cut)")
    text.add(text_joiner.flush())
    tool_calls = [_call(c, arguments.get(i), f"call_{response_id}_{i}") for i, c in sorted(calls.items())]
    blocks = thinking.finish()
    return LLMResponse(
        id=response_id or f"resp-{random.getrandbits(48):012x}",
        text=valid_unicode(text.text()),
        tool_calls=tool_calls,
        thinking=blocks,
        reasoning=reasoning_text.text() or _joined(blocks),
        finish_reason=finish_reason,
        usage=usage,
        usage_from_part=let_go and not _provider_counted(stream),
    )


#: What litellm's stream wrapper may hold of an answer before it is let go (see `_unburden`).
_WRAPPER_KEEPS_CHARS = 65_536
_WRAPPER_KEEPS_CHUNKS = 64  # trimmed every ~60 chunks: cheap, and a 30 MB answer stays +13 MB RSS


def _unburden(stream: Any) -> bool:
    """Let go of what litellm's stream wrapper keeps of an answer we have already taken: it
    appends every piece of text to one string attribute (copied whole on each piece, so
    quadratic: a megabyte in small pieces is gigabytes copied) for its post-call rules, which we
    do not use, and keeps every chunk for the logging callbacks, which we do not use either (our
    usage is the provider's own usage chunk; litellm adds them up only without `include_usage`).
    The first chunk and the last two (its check for a model repeating itself) are kept. True if
    chunks were let go."""
    so_far = getattr(stream, "response_uptil_now", None)
    if isinstance(so_far, str) and len(so_far) > _WRAPPER_KEEPS_CHARS:
        stream.response_uptil_now = ""
    chunks = getattr(stream, "chunks", None)
    if isinstance(chunks, list) and len(chunks) > _WRAPPER_KEEPS_CHUNKS:
        del chunks[1:-2]
        return True
    return False


def _provider_counted(stream: Any) -> bool:
    """Whether the provider reported the usage: litellm's stream wrapper keeps the chunk that
    carried it (the last but one, never let go) for its total."""
    chunks = getattr(stream, "chunks", None) or ()
    return any(_carries_usage(chunk) for chunk in chunks[-3:])


def _carries_usage(chunk: Any) -> bool:
    try:
        return "usage" in chunk and chunk["usage"] is not None
    except (TypeError, KeyError):
        return getattr(chunk, "usage", None) is not None


class _CallSlots:
    """Which call a streamed tool-call delta belongs to. By its `index`, as OpenAI sends it;
    but some servers (Ollama, SGLang, Gemini behind proxies) give every call of an answer
    index 0, which would glue their arguments into one invalid call: a delta that opens a call
    of its own — another id, or a name again after whole arguments — gets a new slot."""

    def __init__(self) -> None:
        self._current: dict[int, int] = {}  # the provider's index -> our slot
        self._next = 0

    def slot(self, tc: Any, position: int, calls: dict[int, dict[str, str]], arguments: dict[int, Any]) -> int:
        index = tc.index if tc.index is not None else position
        slot = self._current.get(index)
        if slot is None or self._opens_another(tc, calls[slot], arguments.get(slot)):
            slot = self._current[index] = self._next
            self._next += 1
        return slot

    @staticmethod
    def _opens_another(tc: Any, call: dict[str, str], so_far: Any) -> bool:
        if tc.id:
            return bool(call["id"]) and tc.id != call["id"]
        name = tc.function.name if tc.function is not None else None
        if not name or not call["name"] or so_far is None or so_far.overflowed:
            return False
        try:
            json.loads(so_far.text())  # the call before it is whole: this name starts the next
        except ValueError:
            return False
        return True


def _call(parts: dict[str, str], arguments: BoundedText | None, fallback_id: str) -> ToolCall:
    kept = arguments.text() if arguments is not None else ""
    too_long = arguments is not None and arguments.overflowed
    return ToolCall(
        id=parts["id"] or fallback_id,
        name=valid_unicode(parts["name"]),
        arguments=valid_unicode(kept),
        full_length=arguments.total if too_long and arguments is not None else 0,
    )


async def _until_delivered(stream: Any) -> AsyncIterator[Any]:
    """The stream's chunks, up to the one litellm's stream wrapper sends last: the usage, which it
    sends only once the provider's stream has ended. Asking for more would only have it build the
    whole answer from its chunks again (on a worker thread), price it again and run its success
    logging (~2 ms of CPU a call, ~14 % of a step against an instant model) before it stops."""
    async for chunk in stream:
        yield chunk
        if getattr(stream, "sent_stream_usage", False) is True and hasattr(stream, "aclose"):
            await stream.aclose()  # the provider's stream is read to its end: nothing is cut off
            return


def _ended_early(stream: Any) -> bool:
    """Whether the provider closed the stream without a finish reason: the answer is partial.
    litellm then makes up a closing "stop" chunk, so it is read from litellm's stream wrapper
    (which records what the provider itself sent); a stream that is not litellm's is trusted."""
    if not hasattr(stream, "received_finish_reason"):
        return False
    return stream.received_finish_reason is None and getattr(stream, "intermittent_finish_reason", None) is None


def from_message(raw: Any) -> LLMResponse:
    if not getattr(raw, "choices", None):
        raise LLMBadResponseError("the model returned no choices")
    message = raw.choices[0].message
    tool_calls = [
        ToolCall(
            id=tc.id or f"call_{raw.id}_{i}",
            name=tc.function.name or "",
            arguments=valid_unicode(tc.function.arguments or ""),
        )
        for i, tc in enumerate(message.tool_calls or ())
    ]
    blocks = [b for b in map(canonical_block, getattr(message, "thinking_blocks", None) or ()) if b is not None]
    return LLMResponse(
        id=raw.id or f"resp-{random.getrandbits(48):012x}",
        text=valid_unicode(bounded(message.content or "")),
        tool_calls=tool_calls,
        thinking=blocks,
        reasoning=bounded(getattr(message, "reasoning_content", None) or _joined(blocks)),
        finish_reason=raw.choices[0].finish_reason,
        usage=usage_from(getattr(raw, "usage", None)),
    )


def _joined(blocks: list[dict[str, Any]]) -> str:
    return "\n\n".join(b["thinking"] for b in blocks if b.get("thinking"))


def usage_from(raw: Any) -> Usage:
    """litellm's usage, any provider: OpenAI reports cached reads in `prompt_tokens_details`,
    Anthropic in `cache_read_input_tokens` and writes in `cache_creation_input_tokens`;
    litellm counts both inside `prompt_tokens` either way."""
    if raw is None:
        return Usage()
    details = getattr(raw, "prompt_tokens_details", None)
    cache_read = getattr(raw, "cache_read_input_tokens", None) or getattr(details, "cached_tokens", None) or 0
    cache_write = (
        getattr(raw, "cache_creation_input_tokens", None) or getattr(details, "cache_creation_tokens", None) or 0
    )
    completion_details = getattr(raw, "completion_tokens_details", None)
    return Usage(
        prompt_tokens=getattr(raw, "prompt_tokens", 0) or 0,
        completion_tokens=getattr(raw, "completion_tokens", 0) or 0,
        cache_read_tokens=int(cache_read),
        cache_write_tokens=int(cache_write),
        reasoning_tokens=int(getattr(completion_details, "reasoning_tokens", 0) or 0),
    )
