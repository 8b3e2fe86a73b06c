"""What the scripted Anthropic server refuses, with the real API's messages, and how it signs
thinking blocks.

The checks are the ones a client of extended thinking and tool use trips over: a tool call
without its result right after it, a thinking or redacted_thinking block that was changed
(signatures are HMACs of the text under the server's secret, so any edit shows), a final
assistant tool-use turn that lost its thinking block while thinking is on, and thinking
settings the API does not accept.
"""

from __future__ import annotations

import base64
import hashlib
import hmac
import secrets
from typing import Any

THINKING_DOCS = "https://docs.claude.com/en/docs/build-with-claude/extended-thinking"
MIN_THINKING_BUDGET = 1024
THINKING_TYPES = ("thinking", "redacted_thinking")


class Signer:
    """Signs thinking text and redacted-thinking payloads; verifies what comes back."""

    def __init__(self, secret: bytes | None = None) -> None:
        self._secret = secret or secrets.token_bytes(32)

    def _mac(self, data: bytes) -> bytes:
        return hmac.new(self._secret, data, hashlib.sha256).digest()

    def sign(self, text: str) -> str:
        return base64.b64encode(b"sig1" + self._mac(text.encode())).decode()

    def redacted_data(self) -> str:
        nonce = secrets.token_bytes(24)
        return base64.b64encode(nonce + self._mac(b"redacted:" + nonce)).decode()

    def valid(self, block: dict[str, Any]) -> bool:
        try:
            if block.get("type") == "thinking":
                raw = base64.b64decode(str(block.get("signature") or ""), validate=True)
                return hmac.compare_digest(raw, b"sig1" + self._mac(str(block.get("thinking", "")).encode()))
            raw = base64.b64decode(str(block.get("data") or ""), validate=True)
            nonce, tag = raw[:-32], raw[-32:]
            return len(nonce) > 0 and hmac.compare_digest(tag, self._mac(b"redacted:" + nonce))
        except (ValueError, TypeError):
            return False


def thinking_enabled(body: dict[str, Any]) -> bool:
    thinking = body.get("thinking")
    return isinstance(thinking, dict) and thinking.get("type") in ("enabled", "adaptive")


def _blocks(message: dict[str, Any]) -> list[dict[str, Any]]:
    content = message.get("content")
    if isinstance(content, str):
        return [{"type": "text", "text": content}]
    return [block for block in content or () if isinstance(block, dict)]


def check_request(body: dict[str, Any], signer: Signer) -> str | None:
    """The message of the 400 the API would answer this request with, or None."""
    for check in (_check_shape, _check_thinking_settings, _check_tool_pairs):
        problem = check(body)
        if problem:
            return problem
    return _check_thinking_blocks(body, signer)


def _check_shape(body: dict[str, Any]) -> str | None:
    if not body.get("model"):
        return "model: Field required"
    if not isinstance(body.get("max_tokens"), int):
        return "max_tokens: Field required"
    messages = body.get("messages")
    if not isinstance(messages, list) or not messages:
        return "messages: at least one message is required"
    for number, message in enumerate(messages):
        if message.get("role") not in ("user", "assistant"):
            return f"messages.{number}.role: Input should be 'user' or 'assistant'"
    return None


def _check_thinking_settings(body: dict[str, Any]) -> str | None:
    if not thinking_enabled(body):
        return None
    thinking: dict[str, Any] = body["thinking"]
    if thinking.get("type") == "enabled":
        budget = thinking.get("budget_tokens")
        if not isinstance(budget, int) or budget < MIN_THINKING_BUDGET:
            return f"thinking.enabled.budget_tokens: Input should be greater than or equal to {MIN_THINKING_BUDGET}"
        if budget >= body["max_tokens"]:
            return (
                "`max_tokens` must be greater than `thinking.budget_tokens`. Please consult our documentation at "
                f"{THINKING_DOCS}#max-tokens-and-context-window-size"
            )
    if body.get("temperature") not in (None, 1, 1.0):
        return "`temperature` may only be set to 1 when thinking is enabled. Please consult our documentation at " + (
            THINKING_DOCS
        )
    choice = body.get("tool_choice") or {}
    if choice.get("type") in ("any", "tool"):
        return "Thinking may not be enabled when tool_choice forces tool use."
    return None


def _check_tool_pairs(body: dict[str, Any]) -> str | None:
    messages = body["messages"]
    for number, message in enumerate(messages):
        blocks = _blocks(message)
        if message["role"] == "assistant":
            calls = [b.get("id") for b in blocks if b.get("type") == "tool_use"]
            if not calls:
                continue
            following = messages[number + 1] if number + 1 < len(messages) else None
            answered = {
                b.get("tool_use_id")
                for b in (_blocks(following) if following and following["role"] == "user" else [])
                if b.get("type") == "tool_result"
            }
            missing = [call for call in calls if call not in answered]
            if missing and following is not None:
                return (
                    f"messages.{number + 1}: `tool_use` ids were found without `tool_result` blocks immediately "
                    f"after: {', '.join(str(m) for m in missing)}. Each `tool_use` block must have a corresponding "
                    "`tool_result` block in the next message."
                )
        else:
            previous = messages[number - 1] if number > 0 else None
            asked = {b.get("id") for b in _blocks(previous) if b.get("type") == "tool_use"} if previous else set()
            for position, block in enumerate(blocks):
                if block.get("type") == "tool_result" and block.get("tool_use_id") not in asked:
                    return (
                        f"messages.{number}.content.{position}: unexpected `tool_use_id` found in `tool_result` "
                        f"blocks: {block.get('tool_use_id')}. Each `tool_result` block must have a corresponding "
                        "`tool_use` block in the previous message."
                    )
    return None


def _check_thinking_blocks(body: dict[str, Any], signer: Signer) -> str | None:
    messages = body["messages"]
    assistant_turns = [n for n, m in enumerate(messages) if m["role"] == "assistant"]
    latest = assistant_turns[-1] if assistant_turns else None
    for number in assistant_turns:
        for position, block in enumerate(_blocks(messages[number])):
            if block.get("type") not in THINKING_TYPES or signer.valid(block):
                continue
            if number == latest:
                return (
                    f"messages.{number}.content.{position}: `thinking` or `redacted_thinking` blocks in the latest "
                    "assistant message cannot be modified. These blocks must remain as they were in the original "
                    "response."
                )
            return f"messages.{number}.content.{position}: Invalid `signature` in `thinking` block"
    if latest is None:
        return None
    blocks = _blocks(messages[latest])
    if thinking_enabled(body):
        used_tools = any(b.get("type") == "tool_use" for b in blocks)
        first = blocks[0].get("type") if blocks else "nothing"
        if used_tools and first not in THINKING_TYPES:
            return (
                f"messages.{latest}.content.0.type: Expected `thinking` or `redacted_thinking`, but found `{first}`. "
                "When `thinking` is enabled, a final `assistant` message must start with a thinking block "
                "(preceeding the lastmost set of `tool_use` and `tool_result` blocks). We recommend you include "
                "thinking blocks from previous turns. To avoid this requirement, disable `thinking`. Please consult "
                f"our documentation at {THINKING_DOCS}"
            )
    elif latest == len(messages) - 1 and any(b.get("type") in THINKING_TYPES for b in blocks):
        return (
            f"messages.{latest}.content.0: When thinking is disabled, an `assistant` message in the final position "
            "cannot contain `thinking`. To use thinking blocks, enable `thinking` in your request."
        )
    return None
