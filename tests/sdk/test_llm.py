"""The LLM client against the scripted server, through the real litellm and real HTTP."""

from __future__ import annotations

import time

import pytest

from openhands_tui.sdk.errors import LLMAuthError, LLMContextWindowError, LLMError, LLMTransientError
from openhands_tui.testing import Script, ScriptedToolCall, Turn
from tests.conftest import llm_for

MESSAGES = [{"role": "system", "content": "sys"}, {"role": "user", "content": "go"}]
TOOLS = [
    {
        "type": "function",
        "function": {
            "name": "terminal",
            "description": "run",
            "parameters": {"type": "object", "properties": {"command": {"type": "string"}}},
        },
    }
]


async def test_streaming_assembles_text_and_tool_call_deltas(serve) -> None:
    long_command = "echo " + "x" * 200
    server = serve(
        [
            Script(
                turns=[
                    Turn(
                        text="Let me check the repository layout first.",
                        tool_calls=[
                            ScriptedToolCall(name="terminal", arguments={"command": long_command}),
                            ScriptedToolCall(name="terminal", arguments={"command": "ls"}),
                        ],
                    )
                ]
            )
        ]
    )
    deltas: list[str] = []
    response = await llm_for(server).complete(MESSAGES, TOOLS, on_text=deltas.append)
    assert response.text == "Let me check the repository layout first."
    assert len(deltas) > 1 and "".join(deltas) == response.text  # it really streamed
    assert [c.name for c in response.tool_calls] == ["terminal", "terminal"]
    assert response.tool_calls[0].arguments == '{"command": "' + long_command + '"}'
    assert response.tool_calls[1].arguments == '{"command": "ls"}'
    assert response.usage.prompt_tokens > 0 and response.usage.completion_tokens > 0
    body = server.requests[0].body
    assert body["stream"] is True and body["tools"][0]["function"]["name"] == "terminal"


async def test_non_streaming_mode(serve) -> None:
    server = serve([Script(turns=[Turn.call("terminal", command="pwd")])])
    response = await llm_for(server, stream=False).complete(MESSAGES, TOOLS)
    assert response.tool_calls[0].arguments == '{"command": "pwd"}'
    assert server.requests[0].body.get("stream") in (None, False)


async def test_rate_limits_are_retried_honouring_retry_after(serve) -> None:
    server = serve(
        [
            Script(
                turns=[
                    Turn(fault="429", retry_after=0.4),
                    Turn(fault="429", retry_after=0.4),
                    Turn(text="ok"),
                ]
            )
        ]
    )
    retries: list[float] = []
    started = time.monotonic()
    response = await llm_for(server).complete(MESSAGES, on_retry=lambda n, delay, err: retries.append(delay))
    assert response.text == "ok" and response.retries == 2
    assert retries == [0.4, 0.4]
    assert time.monotonic() - started >= 0.8
    assert len(server.requests) == 3  # one retry layer: litellm and the OpenAI client do not retry too


async def test_server_errors_are_retried_then_reported(serve) -> None:
    server = serve([Script(turns=[Turn(fault="500"), Turn(text="recovered")])])
    assert (await llm_for(server).complete(MESSAGES)).text == "recovered"
    failing = serve([Script(turns=[Turn(fault="500")] * 5)])
    with pytest.raises(LLMTransientError):
        await llm_for(failing, num_retries=1).complete(MESSAGES)
    assert len(failing.requests) == 2


async def test_auth_errors_are_not_retried(serve) -> None:
    server = serve([Script(turns=[Turn(fault="401"), Turn(text="never")])])
    with pytest.raises(LLMAuthError):
        await llm_for(server).complete(MESSAGES)
    assert len(server.requests) == 1


async def test_context_window_overflow_is_typed(serve) -> None:
    server = serve([Script(turns=[Turn(fault="context_window")])])
    with pytest.raises(LLMContextWindowError):
        await llm_for(server).complete(MESSAGES)


async def test_a_hang_times_out_and_is_retried(serve) -> None:
    server = serve([Script(turns=[Turn(fault="hang"), Turn(text="after the hang")])])
    started = time.monotonic()
    response = await llm_for(server, timeout=1).complete(MESSAGES)
    assert response.text == "after the hang" and response.retries == 1
    assert time.monotonic() - started < 8


async def test_garbage_is_an_error_not_a_crash(serve) -> None:
    server = serve([Script(turns=[Turn(fault="garbage")] * 3)])
    with pytest.raises(LLMError):
        await llm_for(server, stream=False, num_retries=0).complete(MESSAGES)


def test_api_key_is_never_in_the_repr() -> None:
    from openhands_tui.sdk import LLM

    llm = LLM(model="openai/x", api_key="sk-very-secret")
    assert "sk-very-secret" not in repr(llm) and "sk-very-secret" not in llm.model_dump_json()


async def test_warm_up_on_another_thread_sends_nothing_and_leaves_later_calls_working(serve, caplog) -> None:
    """The app warms litellm up on a worker thread with its own event loop, then the engine
    calls it from another thread and loop: nothing may stay bound to the warm-up's loop."""
    import threading

    from openhands_tui.sdk.llm.warmup import warm_up

    server = serve([Script(turns=[Turn(text=f"answer {n}") for n in range(3)])])
    with caplog.at_level("DEBUG", logger="openhands_tui.sdk.llm.client"):
        worker = threading.Thread(target=warm_up)
        worker.start()
        worker.join()
    assert "warm-up failed" not in caplog.text  # it ran a whole (offline) completion
    assert server.requests == []
    caplog.clear()
    llm = llm_for(server)
    streamed: list[str] = []
    with caplog.at_level("WARNING"):
        answers = [(await llm.complete(MESSAGES, on_text=streamed.append)).text for _ in range(3)]
    assert answers == ["answer 0", "answer 1", "answer 2"]
    assert "".join(streamed) == "answer 0answer 1answer 2"
    assert len(server.requests) == 3
    assert [r.getMessage() for r in caplog.records if r.levelname in ("WARNING", "ERROR")] == []
