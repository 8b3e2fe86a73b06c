"""Scripts for the scripted model: what it answers, turn by turn, for each agent.

A script is chosen per request by matching its `match` text against the request's system
prompt (each agent has its own) and optionally `match_user` against the first user message.
Each request consumes one turn. A turn is an answer (text and/or tool calls) or a fault.
"""

from __future__ import annotations

import json
import threading
from pathlib import Path
from typing import Any, Literal

from pydantic import BaseModel, Field, model_validator

#: `cut`: the turn's text streams, then the stream ends without a finish reason (a dropped
#: connection the HTTP layer did not notice).
#: `529` (Anthropic): `overloaded_error`, the status Anthropic answers with when it is overloaded;
#: `overloaded_stream` (Anthropic): the stream opens (with the turn's text), then an `error` event says
#: it is overloaded.
#: The rest (`html_502`, `error_200`, `sse_noise`, `sse_garbage`, `no_done`, `byte_split`, `no_usage`) are
#: odd providers and proxies: see `oddities.py` (the OpenAI-compatible server only).
Fault = Literal[
    "429",
    "500",
    "401",
    "context_window",
    "hang",
    "garbage",
    "cut",
    "html_502",
    "error_200",
    "sse_noise",
    "sse_garbage",
    "no_done",
    "byte_split",
    "no_usage",
    "529",
    "overloaded_stream",
]


class ScriptedToolCall(BaseModel):
    name: str
    #: A dict is sent as JSON; a string is sent as-is (so malformed JSON can be scripted).
    arguments: dict[str, Any] | str = Field(default_factory=dict)
    #: None: a fresh id; "": no id at all (OpenAI-compatible servers that leave it out);
    #: the same id on two calls: a provider that repeats one.
    id: str | None = None

    def arguments_text(self) -> str:
        return self.arguments if isinstance(self.arguments, str) else json.dumps(self.arguments)


class Turn(BaseModel):
    text: str = ""
    tool_calls: list[ScriptedToolCall] = Field(default_factory=list)
    fault: Fault | None = None
    delay: float = Field(default=0.0, description="Seconds to wait before answering (latency).")
    chunk_delay: float = Field(default=0.0, description="Seconds between streamed chunks.")
    retry_after: float | None = None
    rate_limit_reset: float | None = Field(
        default=None,
        description=(
            "A 429 that says when its limit resets only in the rate-limit headers, in this many seconds, "
            "without `retry-after` (unless that is set too): OpenAI's `x-ratelimit-reset-*` ('1.5s', '6m0s'), "
            "Anthropic's `anthropic-ratelimit-*-reset` (an RFC 3339 time)."
        ),
    )
    repeat: int = Field(default=1, ge=1, description="Use this turn for this many requests.")
    thinking: str | None = Field(
        default=None,
        description=(
            "What the model thinks first: a signed thinking block when the request enables thinking "
            "(Anthropic; a default text if unset), `reasoning_content` deltas (OpenAI-compatible; only if set)."
        ),
    )
    redacted_thinking: bool = Field(
        default=False, description="Anthropic, thinking enabled: also answer with a redacted_thinking block."
    )
    stop_reason: str | None = Field(
        default=None,
        description=(
            "Why the answer ends, as the API says it (Anthropic `stop_reason`: max_tokens, refusal, pause_turn; "
            "OpenAI `finish_reason`: length, content_filter); default: tool_use/tool_calls or end_turn/stop. "
            "Script a cut tool call as string arguments that stop mid-JSON."
        ),
    )
    cache_ttl_split: bool = Field(
        default=False,
        description="Anthropic: usage also breaks cache writes down by TTL (`cache_creation.ephemeral_5m/1h_...`).",
    )

    @classmethod
    def call(cls, name: str, **arguments: Any) -> Turn:
        return cls(tool_calls=[ScriptedToolCall(name=name, arguments=arguments)])

    @classmethod
    def finish(cls, message: str = "done") -> Turn:
        return cls.call("finish", message=message)


class Script(BaseModel):
    name: str = "default"
    match: str = Field(default="", description="Substring of the system prompt ('' matches any).")
    match_user: str | None = Field(default=None, description="Substring of the first user message.")
    turns: list[Turn] = Field(default_factory=list)

    @model_validator(mode="after")
    def _expand_repeats(self) -> Script:
        if any(turn.repeat > 1 for turn in self.turns):
            expanded = []
            for turn in self.turns:
                expanded.extend([turn.model_copy(update={"repeat": 1})] * turn.repeat)
            self.turns = expanded
        return self

    def matches(self, system: str, first_user: str) -> bool:
        if self.match and self.match not in system:
            return False
        return not (self.match_user is not None and self.match_user not in first_user)


class ScriptBook:
    """All scripts of a server and where each one is up to (thread-safe)."""

    def __init__(self, scripts: list[Script]) -> None:
        self.scripts = scripts
        self._cursor = {id(script): 0 for script in scripts}
        self._lock = threading.Lock()

    def next_turn(self, messages: list[dict[str, Any]]) -> tuple[Script | None, Turn | None]:
        script = self.script_for(messages)
        if script is None:
            return None, None
        with self._lock:
            position = self._cursor[id(script)]
            if position >= len(script.turns):
                return script, None
            self._cursor[id(script)] = position + 1
            return script, script.turns[position]

    def script_for(self, messages: list[dict[str, Any]]) -> Script | None:
        """The script a request belongs to (without using up a turn)."""
        system = _text(next((m for m in messages if m.get("role") == "system"), {}))
        first_user = _text(next((m for m in messages if m.get("role") == "user"), {}))
        return next((s for s in self.scripts if s.matches(system, first_user)), None)

    def remaining(self) -> dict[str, int]:
        with self._lock:
            return {s.name: len(s.turns) - self._cursor[id(s)] for s in self.scripts}


def _text(message: dict[str, Any]) -> str:
    content = message.get("content") or ""
    if isinstance(content, list):
        return "".join(part.get("text", "") for part in content if isinstance(part, dict))
    return str(content)


def load_scripts(path: Path) -> list[Script]:
    """Read scripts from JSON: a list of scripts, or `{"scripts": [...]}`."""
    data = json.loads(path.read_text())
    items = data["scripts"] if isinstance(data, dict) else data
    return [Script.model_validate(item) for item in items]
