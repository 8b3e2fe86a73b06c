"""A streamed call is let go as soon as litellm's stream wrapper has handed over its usage (the
chunk it sends after the provider's stream has ended): reading on only had litellm build the
answer from its chunks a second time, price it again and run its success logging, ~2 ms of CPU
a step, for nobody. With a litellm callback registered (an observability service a strategy
set up) the stream is read to its end, so the callback still hears of every call. Real litellm
over real HTTP; litellm's own `stream_chunk_builder` is counted, not replaced."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest

from openhands_tui.sdk.llm.client import load_litellm
from openhands_tui.testing import Script, ScriptedToolCall, Turn
from tests.conftest import llm_for

_CALLBACK_LISTS = (
    "callbacks",
    "success_callback",
    "_async_success_callback",
    "input_callback",
    "failure_callback",
    "_async_failure_callback",
    "service_callback",
)


@pytest.fixture
def builds(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """How many times litellm assembled a whole answer from its chunks; litellm's callback lists
    are put back as they were after the test (registering a callback fills several)."""
    litellm = load_litellm()
    for name in _CALLBACK_LISTS:
        monkeypatch.setattr(litellm, name, list(getattr(litellm, name)))
    real = litellm.stream_chunk_builder
    counted: list[int] = []

    def counting(*args: Any, **kwargs: Any) -> Any:
        counted.append(1)
        return real(*args, **kwargs)

    monkeypatch.setattr(litellm, "stream_chunk_builder", counting)
    return counted


async def test_a_stream_is_let_go_once_its_usage_is_in(serve, builds: list[int]) -> None:
    call = ScriptedToolCall(name="terminal", arguments={"command": "echo hi"})
    server = serve([Script(turns=[Turn(text="first answer", tool_calls=[call]), Turn(text="second")])])
    llm = llm_for(server)
    first = await llm.complete([{"role": "user", "content": "one"}])
    second = await llm.complete([{"role": "user", "content": "two"}])
    await asyncio.sleep(0.05)  # anything litellm scheduled for later has run

    assert first.text == "first answer" and [c.name for c in first.tool_calls] == ["terminal"]
    assert first.finish_reason == "tool_calls" and second.text == "second"
    assert all(r.usage.prompt_tokens > 0 and r.usage.completion_tokens > 0 for r in (first, second))
    assert len(builds) == 2  # once a call, for the usage chunk; not again after it
    assert server.connections == 1  # the connection still goes back to the pool


async def test_a_registered_litellm_callback_still_hears_of_every_call(serve, builds: list[int]) -> None:
    litellm = load_litellm()
    heard: list[str] = []

    class Listener(litellm.integrations.custom_logger.CustomLogger):  # type: ignore[name-defined,misc]
        async def async_log_success_event(self, kwargs: Any, response_obj: Any, start_time: Any, end_time: Any) -> None:
            heard.append(response_obj.choices[0].message.content)

    litellm.callbacks.append(Listener())
    server = serve([Script(turns=[Turn(text="observed")])])
    response = await llm_for(server).complete([{"role": "user", "content": "one"}])
    for _ in range(100):
        if heard:
            break
        await asyncio.sleep(0.01)
    assert response.text == "observed" and heard == ["observed"]
