"""What differs between providers in what we send, as pure functions of the provider litellm
resolved (`llm/client.py` asks litellm which provider a model is, then calls these).

- **Prompt caching.** Claude (direct, or on Bedrock / Vertex / OpenRouter) caches only up to
  explicit breakpoints. We mark at most three, never more than the API's four: the system
  prompt (it covers the tools, which come first), the newest message (a moving breakpoint that
  writes the whole conversation for the next call), and the newest message of the previous
  call (whatever was added since, the next call reads at least that far). `cache_control` is
  not content, so moving these marks never changes the cached prefix. OpenAI-style providers
  cache stable prefixes by themselves; where one takes a `prompt_cache_key`, each agent role
  sends its own, so requests sharing a prefix land on the same cache.
- **Thinking blocks.** Claude wants its signed thinking blocks back, unchanged, with the tool
  calls they led to; other providers get no thinking in the history. If the last assistant
  tool-use turn has no signed block (a session that ran without thinking, or a block whose
  text had a secret redacted), Claude refuses the request unless thinking is off, so for that
  request it is.
"""

from __future__ import annotations

import hashlib
import json
from typing import Any

from openhands_tui.sdk.llm.history import memo_of

#: Providers through which Claude models take Anthropic `cache_control` breakpoints.
CLAUDE_CACHE_PROVIDERS = {"anthropic", "bedrock", "vertex_ai", "vertex_ai_beta", "openrouter"}
#: Providers through which litellm sends Claude's thinking blocks back (as the API requires).
CLAUDE_THINKING_PROVIDERS = {"anthropic", "bedrock", "vertex_ai", "vertex_ai_beta"}
CACHE_CONTROL = {"type": "ephemeral"}
MAX_BREAKPOINTS = 4


def takes_cache_breakpoints(provider: str, model: str) -> bool:
    return provider == "anthropic" or (provider in CLAUDE_CACHE_PROVIDERS and "claude" in model.lower())


def takes_thinking_blocks(provider: str, model: str) -> bool:
    return provider == "anthropic" or (provider in CLAUDE_THINKING_PROVIDERS and "claude" in model.lower())


def prefix_key(messages: list[dict[str, Any]], tools: list[dict[str, Any]] | None) -> str:
    """A short name for an agent's fixed prefix (system prompt and tools): agents of the same
    role share it, which is what a provider's cache key should group."""
    system = messages[0].get("content", "") if messages and messages[0].get("role") == "system" else ""
    digest = hashlib.sha256(json.dumps([system, tools or []], sort_keys=True).encode()).hexdigest()
    return f"oh-tui-{digest[:24]}"


def with_breakpoints(
    messages: list[dict[str, Any]], tools: list[dict[str, Any]] | None
) -> tuple[list[dict[str, Any]], list[dict[str, Any]] | None]:
    """Copies of `messages` (and `tools`) with cache breakpoints; the history itself is never
    changed. Only the marked messages are copied."""
    marks = _breakpoint_indices(messages)
    marked = list(messages)
    for index in marks:
        marked[index] = _marked(messages[index])
    marked_tools = tools
    if tools and not marks:  # no system prompt and no message: cache the tools at least
        marked_tools = [*tools[:-1], {**tools[-1], "cache_control": CACHE_CONTROL}]
    return marked, marked_tools


def _marked(message: dict[str, Any]) -> dict[str, Any]:
    """A copy of `message` with a breakpoint. A message of parts (text and images) is marked on
    its last part: litellm moves a message's own `cache_control` into a string content's one
    block, but for a list it reads the parts' only, and the mark would be lost."""
    content = message.get("content")
    if isinstance(content, list) and content:
        return {**message, "content": [*content[:-1], {**content[-1], "cache_control": CACHE_CONTROL}]}
    return {**message, "cache_control": CACHE_CONTROL}


def _breakpoint_indices(messages: list[dict[str, Any]]) -> list[int]:
    marks: list[int] = []
    if messages and messages[0].get("role") == "system":
        marks.append(0)
    newest = len(messages) - 1
    if newest > 0:
        last_assistant = next((i for i in range(newest, -1, -1) if messages[i].get("role") == "assistant"), None)
        previous = last_assistant - 1 if last_assistant is not None else None
        if previous is not None and previous > 0 and messages[previous].get("role") != "system":
            marks.append(previous)
        marks.append(newest)
    return sorted(set(marks))[-MAX_BREAKPOINTS:]


def without_thinking(messages: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The history without thinking blocks, for providers that do not take them back (a
    History's messages are looked at once each)."""
    memo = memo_of(messages)
    if not (memo.any_thinking(messages) if memo is not None else any("thinking_blocks" in m for m in messages)):
        return messages
    return [{k: v for k, v in m.items() if k != "thinking_blocks"} if "thinking_blocks" in m else m for m in messages]


def signed(block: dict[str, Any]) -> bool:
    """Whether Claude accepts this block back: redacted blocks, and thinking with a signature."""
    return block.get("type") == "redacted_thinking" or bool(block.get("type") == "thinking" and block.get("signature"))


def last_tool_turn_lacks_thinking(messages: list[dict[str, Any]]) -> bool:
    """Whether the last assistant message made tool calls without a signed thinking block
    (Claude then refuses a request with thinking on)."""
    for message in reversed(messages):
        if message.get("role") == "assistant":
            if not message.get("tool_calls"):
                return False
            return not any(signed(block) for block in message.get("thinking_blocks") or ())
    return False
