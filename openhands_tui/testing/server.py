"""A scripted OpenAI-compatible chat server on 127.0.0.1, for tests, demos and benchmarks.

Real HTTP: `POST /v1/chat/completions` answers as JSON or as server-sent events with
tool-call argument deltas and usage in the last chunk, exactly as OpenAI-compatible
providers do, so the real litellm client is exercised end to end. Faults (429 with
Retry-After, 500, 401, context-window overflow, hangs, garbage) are scripted per turn.

Run standalone: `python -m openhands_tui.testing --script s.json --port-file p.txt`
(`--api anthropic` serves the Anthropic Messages API instead).
"""

from __future__ import annotations

import argparse
import json
import secrets
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any, Literal

from openhands_tui.testing import responses
from openhands_tui.testing.http import Handler, RecordedRequest, ScriptedServer
from openhands_tui.testing.oddities import ODDITIES, answer_oddly, frame
from openhands_tui.testing.script import Turn, load_scripts

__all__ = ["RecordedRequest", "ScriptedLLMServer", "main"]

MODEL_NAME = "scripted"
#: vLLM's answer to a request with tools when it was started without a tool-call parser.
VLLM_NO_TOOL_PARSER = {
    "object": "error",
    "message": '"auto" tool choice requires --enable-auto-tool-choice and --tool-call-parser to be set',
    "type": "BadRequestError",
    "param": None,
    "code": 400,
}


class ScriptedLLMServer(ScriptedServer):
    """The OpenAI-compatible API: `POST /v1/chat/completions`, model `openai/scripted`."""

    model = "openai/scripted"

    def __init__(
        self,
        scripts: list[Any],
        *,
        refuses_stream_options: bool | Literal["always"] = False,
        refuses_tools: bool = False,
        reasoning_field: str = "reasoning_content",
        reuses_call_index: bool = False,
        **kwargs: Any,
    ) -> None:
        super().__init__(scripts, **kwargs)
        #: Like Ollama and SGLang: every streamed call of an answer says `index: 0`.
        self.reuses_call_index = reuses_call_index
        #: Where `Turn.thinking` goes: `reasoning_content` (DeepSeek, older vLLM) or `reasoning`
        #: (newer vLLM, OpenRouter).
        self.reasoning_field = reasoning_field
        #: Like some proxies and older local servers: a request with `stream_options` is a 400
        #: ("always": every request is, as a proxy whose own upstream refuses it would answer).
        self.refuses_stream_options = refuses_stream_options
        #: Like vLLM started without a tool-call parser: a request with `tools` is a 400.
        self.refuses_tools = refuses_tools

    def do_get(self, handler: Handler) -> None:
        if handler.path.rstrip("/").endswith("/models"):
            handler.send_json(200, {"object": "list", "data": [{"id": MODEL_NAME, "object": "model"}]})
        else:
            handler.send_json(404, _error("not found", "not_found"))

    def respond(self, handler: Handler, body: dict[str, Any], request_bytes: int) -> None:
        if responses.is_responses_path(handler.path):
            self._respond_responses(handler, body, request_bytes)
            return
        if not handler.path.split("?", 1)[0].rstrip("/").endswith("/chat/completions"):
            handler.send_json(404, _error(f"no route {handler.path}", "not_found"))
            return
        if self.refuses_stream_options == "always" or (self.refuses_stream_options and "stream_options" in body):
            self._remember(None, body, status=400)
            handler.send_json(
                400, _error("Unrecognized request argument supplied: stream_options", "invalid_request_error")
            )
            return
        if self.refuses_tools and body.get("tools"):
            self._remember(None, body, status=400)
            handler.send_json(400, VLLM_NO_TOOL_PARSER)
            return
        prompt_tokens = _prompt_tokens(request_bytes)
        if not self._measure(prompt_tokens):
            assert self.context_window is not None
            message = _overflow_message(self.context_window, prompt_tokens)
            handler.send_json(400, _error(message, "context_length_exceeded"))
            return
        script, turn = self.book.next_turn(body.get("messages", []))
        self._remember(script, body)
        if turn is None:
            name = script.name if script else "none matched"
            turn = Turn(text=f"(scripted model: no turns left for script {name!r})")
        if turn.delay:
            time.sleep(turn.delay)
        if turn.fault == "cut":
            partial = list(_chunks(turn.model_copy(update={"tool_calls": []}), body, False, request_bytes))[:-1]
            handler.start_events()
            handler.send_events([b"data: " + json.dumps(chunk).encode() + b"\n\n" for chunk in partial])
        elif turn.fault in ODDITIES:
            frames = [
                frame(chunk) for chunk in _chunks(turn.model_copy(update={"fault": None}), body, True, request_bytes)
            ]
            answer_oddly(handler, turn.fault, [*frames, b"data: [DONE]\n\n"])
        elif turn.fault is not None:
            _fault(handler, turn)
        elif body.get("stream"):
            include_usage = bool((body.get("stream_options") or {}).get("include_usage"))
            frames = [
                b"data: " + json.dumps(chunk).encode() + b"\n\n"
                for chunk in _chunks(
                    turn, body, include_usage, request_bytes, self.reasoning_field, self.reuses_call_index
                )
            ] + [b"data: [DONE]\n\n"]
            handler.start_events()
            handler.send_events(frames, turn.chunk_delay)
        else:
            handler.send_json(200, _completion(turn, body, request_bytes, self.reasoning_field))

    def _respond_responses(self, handler: Handler, body: dict[str, Any], request_bytes: int) -> None:
        """The Responses API (Codex): the same scripts, answered as output items."""
        script, turn = self.book.next_turn(responses.as_messages(body))
        self._remember(script, body)
        if turn is None:
            turn = Turn(text=f"(scripted model: no turns left for script {script.name if script else 'none'!r})")
        if turn.delay:
            time.sleep(turn.delay)
        prompt_tokens = _prompt_tokens(request_bytes)
        if turn.fault is not None:
            _fault(handler, turn)
        elif body.get("stream"):
            handler.start_events()
            handler.send_events(responses.events(turn, prompt_tokens), turn.chunk_delay)
        else:
            handler.send_json(200, responses.response(turn, prompt_tokens))


def _fault(handler: Handler, turn: Turn) -> None:
    if turn.fault == "hang":
        time.sleep(3600)
    elif turn.fault == "429":
        headers: dict[str, str] = {}
        if turn.retry_after is not None or turn.rate_limit_reset is None:
            headers["Retry-After"] = f"{turn.retry_after if turn.retry_after is not None else 0:g}"
        if turn.rate_limit_reset is not None:  # as OpenAI says it: the requests limit is spent
            reset = turn.rate_limit_reset
            headers |= {
                "x-ratelimit-limit-requests": "500",
                "x-ratelimit-remaining-requests": "0",
                "x-ratelimit-reset-requests": f"{int(reset // 60)}m{reset % 60:g}s" if reset >= 60 else f"{reset:g}s",
                "x-ratelimit-limit-tokens": "30000",
                "x-ratelimit-remaining-tokens": "29000",
                "x-ratelimit-reset-tokens": "2ms",
            }
        handler.send_json(429, _error("Rate limit reached for requests", "rate_limit_exceeded"), headers)
    elif turn.fault == "500":
        handler.send_json(500, _error("The server had an error while processing your request", "server_error"))
    elif turn.fault == "401":
        handler.send_json(401, _error("Incorrect API key provided", "invalid_api_key"))
    elif turn.fault == "context_window":
        handler.send_json(400, _error(_overflow_message(8192, 9000), "context_length_exceeded"))
    else:  # garbage
        handler.send_bytes(200, b"<html>definitely not JSON</html>", "text/html")


def _error(message: str, code: str) -> dict[str, Any]:
    kind = "invalid_request_error" if code in ("context_length_exceeded", "invalid_request_error") else code
    return {"error": {"message": message, "type": kind, "code": code, "param": None}}


def _overflow_message(window: int, tokens: int) -> str:
    return (
        f"This model's maximum context length is {window} tokens. However, your messages resulted in "
        f"{tokens} tokens. Please reduce the length of the messages."
    )


def _prompt_tokens(request_bytes: int) -> int:
    return max(1, request_bytes // 4)  # about 4 bytes a token, like real tokenizers


def _usage(turn: Turn, request_bytes: int) -> dict[str, int]:
    prompt = _prompt_tokens(request_bytes)
    output = sum(len(c.arguments_text()) + len(c.name) for c in turn.tool_calls)
    output += len(turn.text) + len(turn.thinking or "")
    completion = max(1, output // 4)
    return {"prompt_tokens": prompt, "completion_tokens": completion, "total_tokens": prompt + completion}


def _call_ids(turn: Turn) -> list[str]:
    """Each call's id ("" for a call sent without one)."""
    return [call.id if call.id is not None else f"call_{secrets.token_hex(6)}" for call in turn.tool_calls]


def _finish_reason(turn: Turn) -> str:
    return turn.stop_reason or ("tool_calls" if turn.tool_calls else "stop")


def _completion(
    turn: Turn, body: dict[str, Any], request_bytes: int, reasoning_field: str = "reasoning_content"
) -> dict[str, Any]:
    message: dict[str, Any] = {"role": "assistant", "content": turn.text or None}
    if turn.thinking:
        message[reasoning_field] = turn.thinking
    if turn.tool_calls:
        message["tool_calls"] = [
            {"type": "function", "function": {"name": c.name, "arguments": c.arguments_text()}}
            | ({"id": call_id} if call_id else {})
            for call_id, c in zip(_call_ids(turn), turn.tool_calls, strict=True)
        ]
    return {
        "id": f"chatcmpl-{secrets.token_hex(6)}",
        "object": "chat.completion",
        "created": int(time.time()),
        "model": body.get("model", MODEL_NAME),
        "choices": [{"index": 0, "message": message, "finish_reason": _finish_reason(turn)}],
        "usage": _usage(turn, request_bytes),
    }


def _pieces(text: str, size: int) -> Iterator[str]:
    for start in range(0, len(text), size):
        yield text[start : start + size]


def _chunks(
    turn: Turn,
    body: dict[str, Any],
    include_usage: bool,
    request_bytes: int,
    reasoning_field: str = "reasoning_content",
    reuses_call_index: bool = False,
) -> Iterator[dict[str, Any]]:
    base = {
        "id": f"chatcmpl-{secrets.token_hex(6)}",
        "object": "chat.completion.chunk",
        "created": int(time.time()),
        "model": body.get("model", MODEL_NAME),
    }

    def chunk(delta: dict[str, Any], finish: str | None = None) -> dict[str, Any]:
        return {**base, "choices": [{"index": 0, "delta": delta, "finish_reason": finish}]}

    yield chunk({"role": "assistant", "content": ""})
    for piece in _pieces(turn.thinking or "", 12):
        yield chunk({reasoning_field: piece})
    for piece in _pieces(turn.text, max(12, len(turn.text) // 500)):  # megabytes: not millions of frames
        yield chunk({"content": piece})
    for position, (call_id, call) in enumerate(zip(_call_ids(turn), turn.tool_calls, strict=True)):
        index = 0 if reuses_call_index else position
        opening = {"index": index, "type": "function", "function": {"name": call.name, "arguments": ""}}
        if call_id:
            opening["id"] = call_id
        yield chunk({"tool_calls": [opening]})
        arguments = call.arguments_text()  # long ones in bigger pieces: a megabyte is not 40,000 frames
        for piece in _pieces(arguments, max(24, len(arguments) // 500)):
            yield chunk({"tool_calls": [{"index": index, "function": {"arguments": piece}}]})
    yield chunk({}, _finish_reason(turn))
    if include_usage:
        yield {**base, "choices": [], "usage": _usage(turn, request_bytes)}


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description="Run a scripted model server.")
    parser.add_argument("--script", type=Path, required=True, help="JSON file with the scripts")
    parser.add_argument("--api", choices=["openai", "anthropic"], default="openai", help="which API to serve")
    parser.add_argument("--port", type=int, default=0, help="port to listen on (0: any free port)")
    parser.add_argument("--port-file", type=Path, help="write the chosen port here once listening")
    args = parser.parse_args(argv)
    server_class: type[ScriptedServer] = ScriptedLLMServer
    if args.api == "anthropic":
        from openhands_tui.testing.anthropic import ScriptedAnthropicServer

        server_class = ScriptedAnthropicServer
    server = server_class(load_scripts(args.script), record=False, port=args.port)
    if args.port_file:
        tmp = args.port_file.with_suffix(".tmp")
        tmp.write_text(str(server.port))
        tmp.replace(args.port_file)
    print(server.base_url, flush=True)
    server.serve_forever()


if __name__ == "__main__":
    main()
