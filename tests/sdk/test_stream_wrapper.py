"""What `llm_response._unburden` lets go of in litellm's stream wrapper is still kept there, and
is let go: litellm appends every piece of an answer to one string and keeps every chunk, which
made a 30 MB answer cost gigabytes of copying and hundreds of MB. Fails if litellm renames or
stops keeping them (then the trimming is dead code, to be revisited), or if trimming costs the
answer anything."""

from __future__ import annotations

import pytest

from openhands_tui.sdk.llm.client import load_litellm
from openhands_tui.sdk.llm.response import _WRAPPER_KEEPS_CHARS, _WRAPPER_KEEPS_CHUNKS, assemble_stream
from openhands_tui.testing import Script, Turn
from tests.conftest import llm_for


async def test_litellm_keeps_the_whole_answer_in_its_stream_wrapper_unless_we_let_it_go(serve) -> None:
    text = "".join(f"word{n} " for n in range(60_000))  # ~470 KB in ~500 chunks
    server = serve([Script(turns=[Turn(text=text), Turn(text=text)])])
    litellm = load_litellm()

    async def answer() -> object:
        return await litellm.acompletion(
            model="openai/scripted",
            api_key="k",
            api_base=server.base_url,
            messages=[{"role": "user", "content": "talk"}],
            stream=True,
            stream_options={"include_usage": True},
        )

    untouched = await answer()
    async for _ in untouched:  # type: ignore[attr-defined]
        pass
    assert len(untouched.chunks) > 4 * _WRAPPER_KEEPS_CHUNKS  # type: ignore[attr-defined]
    assert len(untouched.response_uptil_now) > 4 * _WRAPPER_KEEPS_CHARS  # type: ignore[attr-defined]

    taken = await answer()
    response = await assemble_stream(taken, None)
    assert response.text == text and response.usage.completion_tokens > 0
    assert len(taken.chunks) <= _WRAPPER_KEEPS_CHUNKS + 1  # type: ignore[attr-defined]
    assert len(taken.response_uptil_now) <= _WRAPPER_KEEPS_CHARS + 2_000  # type: ignore[attr-defined]


@pytest.mark.parametrize("reports_usage", [True, False])
async def test_a_long_answer_is_counted_whole_whether_or_not_the_server_reports_usage(
    serve, reports_usage: bool
) -> None:
    """A server that ignores `include_usage` (many local ones) leaves litellm to count the answer,
    from the chunks it still has once ours let them go: counted again over the whole answer. A
    server that reports its usage keeps its own figure."""
    text = "".join(f"word{n} " for n in range(3000))
    server = serve([Script(turns=[Turn(text=text, fault=None if reports_usage else "no_usage")])])
    response = await llm_for(server).complete([{"role": "user", "content": "talk"}])
    whole = load_litellm().token_counter(model=server.model, text=text, count_response_tokens=True)
    reported = len(text) // 4  # the scripted server's own count
    assert response.text == text and whole != reported
    assert response.usage.completion_tokens == (reported if reports_usage else whole)


async def test_a_long_answer_from_claude_keeps_the_providers_count(serve) -> None:
    text = "".join(f"word{n} " for n in range(3000))
    server = serve([Script(turns=[Turn(text=text)])], api="anthropic")
    response = await llm_for(server).complete([{"role": "user", "content": "talk"}])
    assert response.text == text and response.usage.completion_tokens == server.requests[-1].usage["output_tokens"]
