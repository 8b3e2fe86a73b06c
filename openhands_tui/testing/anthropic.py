"""A scripted Anthropic Messages API server on 127.0.0.1, beside the OpenAI-compatible one.

`POST /v1/messages`, answered as JSON or as the API's server-sent events (`message_start`,
`content_block_start` / `_delta` / `_stop` with `text_delta`, `input_json_delta`,
`thinking_delta` and `signature_delta`, `message_delta`, `message_stop`), from the same
scripts (`Script` / `Turn`) as `ScriptedLLMServer`. Tests use model `server.model`
(`anthropic/claude-sonnet-4-5`) with `api_base=server.base_url`, so litellm's real Anthropic
path — its request transform, SSE parser, usage and cost — is what runs.

What the real API does and this one simulates:
- prompt caching (`prompt_cache.py`): breakpoints, the 20-block lookback, at most 4
  breakpoints, a minimum cacheable length, TTLs, and usage with `cache_read_input_tokens` /
  `cache_creation_input_tokens`; an entry is readable once the answer that wrote it begins.
- extended thinking: with `thinking` on, the answer starts with a signed thinking block
  (`Turn.thinking`, and a redacted one with `Turn.redacted_thinking`); a changed thinking block,
  or a last assistant tool-use turn that lost its thinking, is refused with the API's 400
  (`anthropic_rules.py`).
- `x-api-key` is required; faults come back in Anthropic's error shape.
"""

from __future__ import annotations

import json
import secrets
import time
from collections.abc import Iterator
from datetime import UTC, datetime, timedelta
from typing import Any

from openhands_tui.testing.anthropic_rules import Signer, check_request, thinking_enabled
from openhands_tui.testing.http import Handler, ScriptedServer
from openhands_tui.testing.prompt_cache import CachePlan, CacheRequestError, PromptCache, request_blocks
from openhands_tui.testing.script import Script, Turn

_EMPTY_THINKING = {"type": "thinking", "thinking": ""}
_EMPTY_TEXT = {"type": "text", "text": ""}
DEFAULT_THINKING = "Considering what the task needs next and which tool gets there."


class ScriptedAnthropicServer(ScriptedServer):
    """The Anthropic Messages API. `cache_min_tokens` is the minimum cacheable prompt length
    (1,024 for Claude Sonnet 4.5; tests with small prompts lower it)."""

    model = "anthropic/claude-sonnet-4-5"

    def __init__(self, scripts: list[Script], *, cache_min_tokens: int = 1024, **kwargs: Any) -> None:
        super().__init__(scripts, **kwargs)
        self.cache = PromptCache(min_tokens=cache_min_tokens)
        self.signer = Signer()
        #: Requests refused with a 400 (the message of each), for tests to assert there were none.
        self.refusals: list[str] = []

    @property
    def base_url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def respond(self, handler: Handler, body: dict[str, Any], request_bytes: int) -> None:
        if not handler.path.split("?", 1)[0].rstrip("/").endswith("/v1/messages"):  # clients add ?beta=true
            handler.send_json(404, _error("not_found_error", f"no route {handler.path}"))
            return
        if not handler.headers.get("x-api-key") and not handler.headers.get("authorization"):
            handler.send_json(401, _error("authentication_error", "x-api-key header is required"))
            return
        as_chat = self._as_chat(body)
        problem = check_request(body, self.signer)
        plan: CachePlan | None = None
        if problem is None:
            try:
                blocks = request_blocks(body)
                plan = self.cache.plan(blocks, str(body.get("model")))
            except CacheRequestError as exc:
                problem = str(exc)
        if problem is not None or plan is None:
            self._refuse(handler, self.book.script_for(as_chat), body, problem or "invalid request")
            return
        total = plan.input_tokens + plan.cache_read_input_tokens + plan.cache_creation_input_tokens
        if not self._measure(total):
            assert self.context_window is not None
            problem = f"prompt is too long: {total} tokens > {self.context_window} maximum"
            self._refuse(handler, self.book.script_for(as_chat), body, problem)
            return
        script, turn = self.book.next_turn(as_chat)  # a refused request uses no turn
        turn = turn or Turn(text=f"(scripted model: no turns left for script {script.name if script else 'none'!r})")
        if turn.delay:
            time.sleep(turn.delay)  # time to first byte: nothing is cached or sent before it
        if turn.fault == "overloaded_stream" and not body.get("stream"):
            turn = turn.model_copy(update={"fault": "529"})  # no stream to fail in: the status says it
        if turn.fault is not None:
            self._remember(script, body, status=_FAULT_STATUS.get(turn.fault, 200))
            _fault(handler, turn)
            return
        message = _message(turn, body, self.signer)
        usage = {**plan.usage, "output_tokens": _output_tokens(message["content"])}
        self._remember(script, body, usage=usage)
        self.cache.commit(plan)  # the answer begins: what it wrote is readable from now on
        sent_usage: dict[str, Any] = {**usage, "cache_creation": plan.cache_creation} if turn.cache_ttl_split else usage
        if body.get("stream"):
            handler.start_events()
            handler.send_events(list(_events(message, sent_usage)), turn.chunk_delay)
        else:
            handler.send_json(200, {**message, "usage": sent_usage})

    @staticmethod
    def _as_chat(body: dict[str, Any]) -> list[dict[str, Any]]:
        """The request as chat messages, system first, for choosing its script."""
        system = body.get("system") or ""
        if isinstance(system, list):
            system = "".join(part.get("text", "") for part in system if isinstance(part, dict))
        return [{"role": "system", "content": system}, *body.get("messages", [])]

    def _refuse(self, handler: Handler, script: Script | None, body: dict[str, Any], problem: str) -> None:
        with self._lock:
            self.refusals.append(problem)
        self._remember(script, body, status=400)
        handler.send_json(400, _error("invalid_request_error", problem))


_FAULT_STATUS = {"429": 429, "500": 500, "401": 401, "context_window": 400, "529": 529}
#: What the API sends with a 429 (besides `retry-after`): the limits and when each resets.
_RATE_LIMIT_HEADERS = {
    "anthropic-ratelimit-requests-limit": "50",
    "anthropic-ratelimit-requests-remaining": "0",
    "anthropic-ratelimit-input-tokens-limit": "30000",
    "anthropic-ratelimit-input-tokens-remaining": "28000",
    "anthropic-ratelimit-output-tokens-limit": "8000",
    "anthropic-ratelimit-output-tokens-remaining": "8000",
}


def _error(kind: str, message: str) -> dict[str, Any]:
    return {"type": "error", "error": {"type": kind, "message": message}}


_overloaded = _error("overloaded_error", "Overloaded")


def _fault(handler: Handler, turn: Turn) -> None:
    if turn.fault == "hang":
        time.sleep(3600)
    elif turn.fault == "429":
        wait = turn.retry_after if turn.retry_after is not None else turn.rate_limit_reset or 0
        now = datetime.now(UTC)
        headers = {**_RATE_LIMIT_HEADERS, "anthropic-ratelimit-requests-reset": _rfc3339(now + timedelta(seconds=wait))}
        headers["anthropic-ratelimit-input-tokens-reset"] = _rfc3339(now)  # not spent: resets at once
        if turn.retry_after is not None or turn.rate_limit_reset is None:
            headers["retry-after"] = f"{wait:g}"
        message = "Number of request tokens has exceeded your rate limit"
        handler.send_json(429, _error("rate_limit_error", message), headers)
    elif turn.fault == "529":
        handler.send_json(529, _overloaded)
    elif turn.fault == "overloaded_stream":  # the stream had begun (with the turn's text): an error event ends it
        opened = {k: v for k, v in _message(Turn(), {}, Signer()).items() if k != "_raw"}
        started = {**opened, "usage": {"input_tokens": 10, "output_tokens": 1}}
        text = [_frame({"type": "content_block_start", "index": 0, "content_block": _EMPTY_TEXT})] if turn.text else []
        text += [_delta(0, {"type": "text_delta", "text": piece}) for piece in _pieces(turn.text, 12)]
        handler.start_events()
        handler.send_events([_frame({"type": "message_start", "message": started}), *text, _frame(_overloaded)])
    elif turn.fault == "500":
        handler.send_json(500, _error("api_error", "Internal server error"))
    elif turn.fault == "401":
        handler.send_json(401, _error("authentication_error", "invalid x-api-key"))
    elif turn.fault == "context_window":
        handler.send_json(400, _error("invalid_request_error", "prompt is too long: 9000 tokens > 8192 maximum"))
    else:  # garbage
        handler.send_bytes(200, b"<html>definitely not JSON</html>", "text/html")


def _rfc3339(moment: datetime) -> str:
    return moment.isoformat(timespec="milliseconds").replace("+00:00", "Z")


def _tool_input(arguments: dict[str, Any] | str) -> dict[str, Any]:
    if isinstance(arguments, dict):
        return arguments
    try:
        parsed = json.loads(arguments)
    except json.JSONDecodeError:
        return {}
    return parsed if isinstance(parsed, dict) else {}


def _message(turn: Turn, body: dict[str, Any], signer: Signer) -> dict[str, Any]:
    content: list[dict[str, Any]] = []
    if thinking_enabled(body):
        thought = turn.thinking or DEFAULT_THINKING
        content.append({"type": "thinking", "thinking": thought, "signature": signer.sign(thought)})
        if turn.redacted_thinking:
            content.append({"type": "redacted_thinking", "data": signer.redacted_data()})
    if turn.text:
        content.append({"type": "text", "text": turn.text})
    for call in turn.tool_calls:
        content.append(
            {
                "type": "tool_use",
                "id": call.id or f"toolu_{secrets.token_hex(12)}",
                "name": call.name,
                "input": _tool_input(call.arguments),
                # what the stream sends as input_json_delta (may be malformed on purpose)
                "_raw_input": call.arguments_text(),
            }
        )
    return {
        "id": f"msg_{secrets.token_hex(12)}",
        "type": "message",
        "role": "assistant",
        "model": str(body.get("model", "claude-sonnet-4-5")),
        "content": [{k: v for k, v in block.items() if k != "_raw_input"} for block in content],
        "stop_reason": turn.stop_reason or ("tool_use" if turn.tool_calls else "end_turn"),
        "stop_sequence": None,
        "_raw": content,
    }


def _output_tokens(content: list[dict[str, Any]]) -> int:
    return max(1, sum(len(json.dumps(block)) for block in content) // 4)


def _pieces(text: str, size: int) -> Iterator[str]:
    for start in range(0, len(text), size):
        yield text[start : start + size]


def _frame(event: dict[str, Any]) -> bytes:
    return f"event: {event['type']}\ndata: {json.dumps(event)}\n\n".encode()


def _events(message: dict[str, Any], usage: dict[str, int]) -> Iterator[bytes]:
    start = {k: v for k, v in message.items() if k != "_raw"}
    start = {**start, "content": [], "stop_reason": None, "usage": {**usage, "output_tokens": 1}}
    yield _frame({"type": "message_start", "message": start})
    yield _frame({"type": "ping"})
    for index, block in enumerate(message["_raw"]):
        kind = block["type"]
        if kind == "thinking":
            yield _frame({"type": "content_block_start", "index": index, "content_block": _EMPTY_THINKING})
            for piece in _pieces(block["thinking"], 16):
                yield _delta(index, {"type": "thinking_delta", "thinking": piece})
            yield _delta(index, {"type": "signature_delta", "signature": block["signature"]})
        elif kind == "redacted_thinking":
            yield _frame({"type": "content_block_start", "index": index, "content_block": block})
        elif kind == "text":
            yield _frame({"type": "content_block_start", "index": index, "content_block": _EMPTY_TEXT})
            for piece in _pieces(block["text"], 12):
                yield _delta(index, {"type": "text_delta", "text": piece})
        else:
            call = {"type": "tool_use", "id": block["id"], "name": block["name"], "input": {}}
            yield _frame({"type": "content_block_start", "index": index, "content_block": call})
            for piece in _pieces(block["_raw_input"], 24):
                yield _delta(index, {"type": "input_json_delta", "partial_json": piece})
        yield _frame({"type": "content_block_stop", "index": index})
    delta = {"stop_reason": message["stop_reason"], "stop_sequence": None}
    yield _frame({"type": "message_delta", "delta": delta, "usage": {"output_tokens": usage["output_tokens"]}})
    yield _frame({"type": "message_stop"})


def _delta(index: int, delta: dict[str, Any]) -> bytes:
    return _frame({"type": "content_block_delta", "index": index, "delta": delta})
