"""The scripted server parses a request's messages only past what an earlier request began
with, and what it gets is `json.loads`'s, for any body: growing histories, histories that share
a beginning or part ways, other spacing, bodies it cannot follow and bodies that are not JSON."""

from __future__ import annotations

import json
import random
from typing import Any

import pytest

from openhands_tui.testing.http import RequestBodies


def _message(rng: random.Random, n: int) -> Any:
    kinds: list[Any] = [
        {"role": "tool", "tool_call_id": f"c{n}", "content": f'out {n} ünï \u2028 "q" \\\\ ]'},
        {"role": "assistant", "content": None, "tool_calls": [{"id": f"c{n}", "function": {"arguments": "{}"}}]},
        {"role": "user", "content": [{"type": "text", "text": "[1, 2]"}]},
        n,  # a number: where it ends is known only from what follows it
        [n, {"a": []}],
        "text ]",
    ]
    return rng.choice(kinds)


def _body(messages: list[Any], style: int) -> bytes:
    body = {"model": "scripted", "messages": messages, "stream": True, "tools": [{"type": "function"}]}
    if style == 1:
        body = {"messages": messages, "model": "scripted"}
    if style == 2:
        return json.dumps(body, indent=2).encode()
    if style == 3:
        return json.dumps(body, separators=(",", ":"), ensure_ascii=False).encode()
    return json.dumps(body).encode()


def test_bodies_of_growing_and_parting_histories_are_what_json_loads_gives() -> None:
    rng = random.Random(7)
    bodies = RequestBodies()
    histories: list[list[Any]] = [[{"role": "system", "content": "sys"}] for _ in range(3)]
    for n in range(300):
        which = rng.randrange(len(histories))
        history = histories[which]
        if rng.random() < 0.1:  # condensed, or an earlier message changed
            history[1:] = history[rng.randrange(1, len(history) + 1) :]
        history.extend(_message(rng, n) for _ in range(rng.randrange(3)))
        if rng.random() < 0.05:
            histories.append(list(history))  # another agent with the same beginning
        raw = _body(history, rng.choice([0, 0, 0, 1, 2, 3]))
        assert bodies.decode(raw) == json.loads(raw)


@pytest.mark.parametrize(
    "raw",
    [
        b'{"messages": []}',
        b'  {"messages" : [ ] , "a": 1 }  ',
        b'{"messages": {"not": "a list"}}',
        b'{"messages": [1, 2], "messages": [3]}',
        b"[]",
        b'"text"',
        b"{}",
        b'\xef\xbb\xbf{"messages": [1]}',
    ],
)
def test_odd_bodies_are_what_json_loads_gives(raw: bytes) -> None:
    bodies = RequestBodies()
    bodies.decode(b'{"messages": [1, 2]}')
    assert bodies.decode(raw) == json.loads(raw)


@pytest.mark.parametrize("raw", [b'{"messages": [1, 2', b'{"messages": [1, 2] x', b"not json", b'{"messages": [1 2]}'])
def test_broken_bodies_fail_as_json_loads_fails(raw: bytes) -> None:
    bodies = RequestBodies()
    bodies.decode(b'{"messages": [1, 2]}')
    with pytest.raises(json.JSONDecodeError):
        bodies.decode(raw)
