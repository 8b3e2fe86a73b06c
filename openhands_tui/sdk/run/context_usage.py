"""What fills an agent's context window, by source (`/context`).

Measured on exactly what the agent's next request would send: its messages as the engine built
them (condensations and shortened results applied) and the tool schemas it is offered. Each
message is split by where its text came from:

- the system prompt;
- the tool schemas (their JSON);
- microagents and skills: the context blocks added to user messages (the workspace block with
  the always-on instructions, triggered knowledge, the strategy's suffix, notes a hook or plan
  mode added), told apart from what the user typed by the message's own event;
- the conversation: what the user typed and the model answered, its tool calls included;
- tool outputs: every tool result;
- condensed history: the summaries that stand in for condensed messages.

Only text is counted, not each message's few tokens of framing, so the rows add up to the total
exactly and the total is a little under what a provider reports.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Any

from openhands_tui.sdk.facts.event import CondensationEvent, Event, MessageEvent
from openhands_tui.sdk.llm.content import IMAGE_TOKENS, images_in, text_of
from openhands_tui.sdk.run.messages import condensed_block, user_content

SYSTEM = "system prompt"
TOOLS = "tool schemas"
KNOWLEDGE = "microagents & skills"
CONVERSATION = "conversation"
TOOL_OUTPUTS = "tool outputs"
CONDENSED = "condensed history"
#: The rows of a breakdown, always all of them and in this order.
SOURCES = (SYSTEM, TOOLS, KNOWLEDGE, CONVERSATION, TOOL_OUTPUTS, CONDENSED)


@dataclass(frozen=True)
class ContextUsage:
    """Tokens by source (`rows`, in `SOURCES` order), their total, and the window they fill."""

    agent_id: str
    model: str
    rows: tuple[tuple[str, int], ...]
    window: int | None
    #: How the tokens were counted, in words (a tokenizer, or an estimate).
    method: str
    #: Input tokens the provider counted for this agent's last request (None: none yet).
    reported: int | None = None

    @property
    def total(self) -> int:
        return sum(tokens for _, tokens in self.rows)

    def tokens(self, source: str) -> int:
        return dict(self.rows)[source]

    def table(self) -> str:
        """A plain-text table: one row per source, the total, and the share of the window."""
        width = max(len(source) for source in (*SOURCES, "total"))
        lines = [f"Context of {self.agent_id} ({self.model}):"]
        for source, tokens in self.rows:
            lines.append(f"  {source:<{width}}  {tokens:>9,}{_share(tokens, self.total)}")
        window = f" of {self.window:,} ({100 * self.total / self.window:.0f}% of the window)" if self.window else ""
        lines.append(f"  {'total':<{width}}  {self.total:>9,}{window}")
        if self.reported is not None:
            lines.append(f"  The provider counted {self.reported:,} input tokens for the last request.")
        lines.append(f"  ({self.method})")
        return "\n".join(lines)


def _share(part: int, whole: int) -> str:
    return f"  {100 * part / whole:>3.0f}%" if whole else ""


def measure(
    messages: list[dict[str, Any]],
    tools: list[dict[str, Any]],
    events: Iterable[Event],
    count: Callable[[str], int],
) -> dict[str, int]:
    """Tokens by source for `messages` and `tools`; `events` are the agent's own (they tell the
    context blocks of each user message from its text)."""
    typed: dict[str, MessageEvent] = {}
    summaries: set[str] = set()
    for event in events:
        if isinstance(event, MessageEvent) and event.role == "user":
            typed[user_content(event)] = event
        elif isinstance(event, CondensationEvent):
            summaries.add(condensed_block(event))
    tokens = dict.fromkeys(SOURCES, 0)
    tokens[TOOLS] = count(json.dumps(tools)) if tools else 0
    for message in messages:
        content = text_of(message.get("content"))
        tokens[CONVERSATION] += images_in(message.get("content")) * IMAGE_TOKENS
        role = message["role"]
        if role == "system":
            tokens[SYSTEM] += count(content)
        elif role == "tool":
            tokens[TOOL_OUTPUTS] += count(content)
        elif role == "user" and content in summaries:
            tokens[CONDENSED] += count(content)
        elif role == "user" and content in typed:
            event = typed[content]  # its text, then the blocks added to it
            text = count(event.content)
            tokens[CONVERSATION] += text
            tokens[KNOWLEDGE] += (count(content) - text) if event.context else 0
        else:
            tokens[CONVERSATION] += count(content)
        for call in message.get("tool_calls") or ():
            tokens[CONVERSATION] += count(call["function"]["name"]) + count(call["function"]["arguments"])
    return tokens


def context_usage(
    agent_id: str,
    model: str,
    messages: list[dict[str, Any]],
    tools: list[dict[str, Any]],
    events: Iterable[Event],
    count: Callable[[str], int],
    *,
    window: int | None,
    method: str,
    reported: int | None = None,
) -> ContextUsage:
    """The breakdown of one agent's next request (see the module's docstring)."""
    tokens = measure(messages, tools, events, count)
    return ContextUsage(
        agent_id=agent_id,
        model=model,
        rows=tuple((source, tokens[source]) for source in SOURCES),
        window=window,
        method=method,
        reported=reported,
    )
