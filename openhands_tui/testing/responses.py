"""The OpenAI Responses API (`POST /v1/responses`) on the scripted server, for clients that
speak nothing else (Codex): the same scripts and turns, answered as Responses output items.

Scripts are matched as for chat completions: `instructions` stand for the system prompt and
the input's first user message for the first user message. A turn's text becomes an assistant
`message` item, each tool call a `function_call` item; streamed as the API's typed events.
"""

from __future__ import annotations

import json
import secrets
from typing import Any

from openhands_tui.testing.script import Turn

MODEL_NAME = "scripted"


def is_responses_path(path: str) -> bool:
    return path.split("?", 1)[0].rstrip("/").endswith("/responses")


def as_messages(body: dict[str, Any]) -> list[dict[str, Any]]:
    """The request as chat messages, for matching a script: `instructions` and developer or
    system items joined into one system prompt, then the other messages in order."""
    system = [str(body.get("instructions") or "")]
    messages: list[dict[str, Any]] = []
    items = body.get("input")
    if isinstance(items, str):
        items = [{"role": "user", "content": items}]
    for item in items or []:
        if not isinstance(item, dict) or item.get("role") not in ("user", "system", "developer", "assistant"):
            continue
        content = item.get("content")
        if isinstance(content, list):
            content = "".join(str(part.get("text", "")) for part in content if isinstance(part, dict))
        if item["role"] in ("system", "developer"):
            system.append(str(content or ""))
        else:
            messages.append({"role": item["role"], "content": str(content or "")})
    return [{"role": "system", "content": "\n".join(system)}, *messages]


def output_items(turn: Turn) -> list[dict[str, Any]]:
    items: list[dict[str, Any]] = []
    if turn.text:
        items.append(
            {
                "type": "message",
                "id": f"msg_{secrets.token_hex(8)}",
                "role": "assistant",
                "status": "completed",
                "content": [{"type": "output_text", "text": turn.text, "annotations": []}],
            }
        )
    for index, call in enumerate(turn.tool_calls):
        items.append(
            {
                "type": "function_call",
                "id": f"fc_{secrets.token_hex(8)}",
                "call_id": call.id or f"call_{index}_{secrets.token_hex(6)}",
                "name": call.name,
                "arguments": call.arguments_text(),
                "status": "completed",
            }
        )
    return items


def response(turn: Turn, prompt_tokens: int, status: str = "completed") -> dict[str, Any]:
    output = output_items(turn) if status == "completed" else []
    completion_tokens = max(1, len(json.dumps(output)) // 4)
    return {
        "id": f"resp_{secrets.token_hex(8)}",
        "object": "response",
        "created_at": 0,
        "status": status,
        "model": MODEL_NAME,
        "output": output,
        "usage": {
            "input_tokens": prompt_tokens,
            "input_tokens_details": {"cached_tokens": 0},
            "output_tokens": completion_tokens,
            "output_tokens_details": {"reasoning_tokens": 0},
            "total_tokens": prompt_tokens + completion_tokens,
        },
    }


def events(turn: Turn, prompt_tokens: int) -> list[bytes]:
    """The stream: created, each item added (text as one delta) and done, then completed."""
    done = response(turn, prompt_tokens)
    frames: list[tuple[str, dict[str, Any]]] = [
        ("response.created", {"response": response(turn, prompt_tokens, "in_progress")})
    ]
    for index, item in enumerate(done["output"]):
        frames.append(("response.output_item.added", {"output_index": index, "item": item}))
        if item["type"] == "message":
            text = item["content"][0]["text"]
            frames.append(("response.output_text.delta", {"output_index": index, "content_index": 0, "delta": text}))
            frames.append(("response.output_text.done", {"output_index": index, "content_index": 0, "text": text}))
        frames.append(("response.output_item.done", {"output_index": index, "item": item}))
    frames.append(("response.completed", {"response": done}))
    return [
        f"event: {kind}\ndata: {json.dumps({'type': kind, 'sequence_number': n, **data})}\n\n".encode()
        for n, (kind, data) in enumerate(frames)
    ]
