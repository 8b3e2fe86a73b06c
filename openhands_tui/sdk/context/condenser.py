"""Keeping an agent's conversation inside its model's context window.

Before each model call the next request's size is estimated (anchored on the prompt tokens the
provider reported for the previous call). Past `threshold` of the window, or `max_messages`,
the middle of the conversation is replaced by a summary that a model writes: the system
prompt and the first messages (the task, the workspace context) stay, the recent tail stays,
and a tool call is never separated from its result. The cut is recorded as a `condensation`
event with message positions, so a resumed agent rebuilds exactly the same messages. A
context-window error from the provider forces a condensation and one retry (run/agent_run.py).
"""

from __future__ import annotations

import json
from typing import Any, Literal

from pydantic import Field, model_validator

from openhands_tui.sdk.errors import LLMError
from openhands_tui.sdk.llm.client import LLM, LLMResponse
from openhands_tui.sdk.llm.content import IMAGE_TOKENS, images_in, text_of
from openhands_tui.sdk.model import StrictModel

#: Why a condensation ran: the history neared the window (`tokens`) or `max_messages`, the
#: provider refused it as too long (`overflow`), or the user asked for it (`user`, /compact).
Reason = Literal["tokens", "messages", "overflow", "user"]

SUMMARY_SYSTEM_PROMPT = (
    "You condense the middle of a coding agent's conversation so that it can continue within its "
    "context window. Write a factual summary the agent will read instead of those messages: the "
    "user's goals and constraints, decisions taken and why, files created or changed (paths), "
    "commands run and what they showed, errors met and how they were resolved, and what remained "
    "to do. Keep exact names, paths, numbers and error texts. No preamble."
)
#: How the user's focus (`/compact keep the API design`) joins the summariser's instructions.
FOCUS_INSTRUCTION = "The user asked that the summary keep especially: {focus}"
#: Longest tool output quoted to the summarizer; the rest of each output is elided.
QUOTE_LIMIT = 1_500


class Condenser(StrictModel):
    """When and how an agent's history is condensed. `Agent(condenser=None)` turns it off."""

    threshold: float = Field(default=0.75, gt=0, le=1, description="Condense above this share of the window.")
    max_tokens: int | None = Field(default=None, description="Condense above this many tokens (overrides threshold).")
    max_messages: int | None = Field(default=None, description="Condense when the history has more messages.")
    keep_first: int = Field(default=1, ge=1, description="Messages after the system prompt always kept.")
    keep_recent: int = Field(default=10, ge=2, description="Most recent messages always kept.")
    summary_tokens: int = Field(default=800, ge=50, description="Longest summary, in tokens.")
    llm: LLM | None = Field(default=None, description="Model that writes summaries (default: the agent's).")


class LLMSummarizingCondenser(Condenser):
    """The OpenHands SDK's condenser, by its names: past `max_size` messages (or `max_tokens`),
    the middle is summarized by `llm` (the SDK's `summarizing_llm` works too), keeping
    `keep_first` and, unless given, the most recent half of `max_size`."""

    sdk_renamed = {"max_size": "max_messages", "summarizing_llm": "llm"}
    sdk_instead = {"minimum_progress": "a condensation always cuts the whole middle; remove it"}

    max_messages: int | None = Field(default=120, ge=4, description="The SDK's max_size: condense past this many.")

    @model_validator(mode="after")
    def _recent_half(self) -> LLMSummarizingCondenser:
        if "keep_recent" not in self.model_fields_set and self.max_messages is not None:
            self.keep_recent = max(2, self.max_messages // 2 - self.keep_first)
        return self


class NoOpCondenser(Condenser):
    """The SDK's condenser that never condenses: `Agent(condenser=NoOpCondenser())` is
    `Agent(condenser=None)`."""


def approx_tokens(messages: list[dict[str, Any]]) -> int:
    """About four characters a token, plus what each message's JSON framing costs."""
    chars = 0
    for message in messages:
        content = message.get("content")
        chars += 40 + len(text_of(content)) + images_in(content) * IMAGE_TOKENS * 4
        for block in message.get("thinking_blocks") or ():
            chars += 20 + len(block.get("thinking") or block.get("data") or "") + len(block.get("signature") or "")
        for call in message.get("tool_calls") or ():
            chars += 90 + len(call["function"]["name"]) + len(call["function"]["arguments"])
    return chars // 4


class ContextGauge:
    """Estimates the next request's prompt tokens for one agent."""

    def __init__(self, tools: list[dict[str, Any]]) -> None:
        self.tools_tokens = len(json.dumps(tools)) // 4 if tools else 0
        self._anchor: tuple[int, int] | None = None  # (messages then, prompt tokens reported)

    def reported(self, messages_sent: int, prompt_tokens: int) -> None:
        """The provider counted `prompt_tokens` for a request of `messages_sent` messages."""
        if prompt_tokens > 0:
            self._anchor = (messages_sent, prompt_tokens)

    def forget(self) -> None:
        self._anchor = None  # the messages were rewritten: earlier counts no longer apply

    @property
    def last_reported(self) -> int | None:
        """The prompt tokens the provider counted for the last request (None: none since the
        messages were last rewritten)."""
        return self._anchor[1] if self._anchor is not None else None

    def estimate(self, messages: list[dict[str, Any]]) -> int:
        if self._anchor is not None and self._anchor[0] <= len(messages):
            count, tokens = self._anchor
            return tokens + approx_tokens(messages[count:])
        return self.tools_tokens + approx_tokens(messages)

    def due(self, config: Condenser | None, messages: list[dict[str, Any]], window: int | None) -> Reason | None:
        if config is None:
            return None
        if config.max_messages is not None and len(messages) > config.max_messages:
            return "messages"
        limit = config.max_tokens or (int(window * config.threshold) if window else None)
        if limit is not None and self.estimate(messages) > limit:
            return "tokens"
        return None


def plan_cut(messages: list[dict[str, Any]], keep_first: int, keep_recent: int) -> tuple[int, int] | None:
    """(head, tail): keep messages[:head] and messages[tail:]; None if there is no middle."""
    start = 1 if messages and messages[0]["role"] == "system" else 0
    head = min(start + keep_first, len(messages))
    while head < len(messages) and messages[head]["role"] == "tool":
        head += 1  # results stay with the call they answer
    tail = max(len(messages) - keep_recent, head)
    while tail > head and messages[tail]["role"] == "tool":
        tail -= 1  # the kept tail starts with the call, not halfway through its results
    return (head, tail) if tail - head >= 2 else None


def render_for_summary(messages: list[dict[str, Any]], limit_chars: int) -> str:
    parts: list[str] = []
    for message in messages:
        content = text_of(message.get("content"))
        images = images_in(message.get("content"))
        if images:  # the summarizer reads text: it is told the images were there
            content += f"\n[{images} image{'s' if images != 1 else ''} attached]"
        if message["role"] == "tool" and len(content) > QUOTE_LIMIT:
            content = content[:QUOTE_LIMIT] + f"\n… ({len(content) - QUOTE_LIMIT} more characters)"
        line = f"[{message['role']}] {content}".rstrip()
        for call in message.get("tool_calls") or ():
            line += f"\n  -> {call['function']['name']}({call['function']['arguments']})"
        parts.append(line)
    text = "\n\n".join(parts)
    if len(text) > limit_chars:  # keep the start (earlier summaries, the plan) and the latest part
        keep_start = limit_chars // 5
        omitted = len(text) - limit_chars
        text = text[:keep_start] + f"\n\n… ({omitted} characters omitted) …\n\n" + text[-(limit_chars - keep_start) :]
    return text


def summary_instructions(focus: str = "") -> str:
    """The summariser's system prompt, with what the user asked to keep (if anything)."""
    focus = " ".join(focus.split())
    return f"{SUMMARY_SYSTEM_PROMPT}\n\n{FOCUS_INSTRUCTION.format(focus=focus)}" if focus else SUMMARY_SYSTEM_PROMPT


async def summarize(
    llm: LLM, middle: list[dict[str, Any]], config: Condenser, window: int | None, focus: str = ""
) -> tuple[str, LLMResponse | None]:
    """The summary and the call that wrote it; a note instead if the call failed. `focus`: what
    the user asked the summary to keep especially (`/compact ...`)."""
    budget_tokens = int(window * 0.5) if window else 50_000  # the summary request must fit too
    request = [
        {"role": "system", "content": summary_instructions(focus)},
        {"role": "user", "content": render_for_summary(middle, budget_tokens * 4)},
    ]
    # A one-off request: no thinking (its budget would not fit the summary's length) and no
    # cache writes (nothing will read them).
    summarizer = llm.model_copy(
        update={
            "max_output_tokens": config.summary_tokens,
            "stream": False,
            "reasoning_effort": None,
            "caching_prompt": False,
        }
    )
    try:
        response = await summarizer.complete(request)
    except LLMError as exc:
        return f"(No summary: the summary call failed: {exc}. Check the workspace for their effects.)", None
    text = response.text.strip()
    if not text:
        return "(No summary: the model returned an empty one. Check the workspace for their effects.)", response
    return text, response


async def condense(
    messages: list[dict[str, Any]],
    config: Condenser,
    llm: LLM,
    gauge: ContextGauge,
    reason: Reason,
    window: int | None,
    focus: str = "",
) -> tuple[dict[str, Any], LLMResponse | None] | None:
    """The fields of the condensation event to record and the summary call (for its usage),
    or None when nothing can be cut. `llm` is the agent's model, used unless `config` names
    its own; `focus` is what the user asked the summary to keep."""
    cut = plan_cut(messages, config.keep_first, config.keep_recent)
    if cut is None:
        return None
    head, tail = cut
    before = gauge.estimate(messages)
    summary, response = await summarize(config.llm or llm, messages[head:tail], config, window, focus)
    gauge.forget()
    after = before - approx_tokens(messages[head:tail]) + approx_tokens([{"content": summary}])
    fields = {
        "summary": summary,
        "head": head,
        "tail": tail,
        "reason": reason,
        "focus": " ".join(focus.split()),
        "tokens_before": before,
        "tokens_after": max(after, 0),
        "summarized": response is not None and bool(response.text.strip()),
    }
    return fields, response


#: The shortest a tool result is cut to when the kept messages do not fit the window.
TRUNCATE_TO_CHARS = 2_000


def truncation_plan(
    messages: list[dict[str, Any]], gauge: ContextGauge, window: int | None, share: float = 0.9
) -> dict[str, Any] | None:
    """When the messages a condensation must keep (the task, the recent tail) still do not fit
    the window, the fields of a `results_truncated` event that shortens the biggest tool results
    until they do — a run is never lost to one huge result. None if nothing needs cutting."""
    if not window:
        return None
    before = gauge.estimate(messages)
    over = before - int(window * share)
    if over <= 0:
        return None
    sizes = sorted(
        ((len(text_of(m.get("content"))), i) for i, m in enumerate(messages) if m["role"] == "tool"), reverse=True
    )
    chosen: list[int] = []
    for size, index in sizes:
        if size <= TRUNCATE_TO_CHARS or over <= 0:
            break
        chosen.append(index)
        over -= (size - TRUNCATE_TO_CHARS) // 4
    if not chosen:
        return None
    saved = sum(len(messages[i].get("content") or "") - TRUNCATE_TO_CHARS for i in chosen) // 4
    return {
        "positions": sorted(chosen),
        "keep_chars": TRUNCATE_TO_CHARS,
        "tokens_before": before,
        "tokens_after": max(before - saved, 0),
    }
