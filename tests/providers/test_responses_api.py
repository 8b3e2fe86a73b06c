"""The scripted server's Responses API (what Codex speaks), driven by a real client: litellm's
`aresponses` over real HTTP. Scripts match on instructions and the user's message."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest

from openhands_tui.sdk.llm.client import load_litellm
from openhands_tui.testing import Script, ScriptedToolCall, Turn

TOOL = {
    "type": "function",
    "name": "exec_command",
    "description": "Run a command.",
    "parameters": {"type": "object", "properties": {"cmd": {"type": "string"}}, "required": ["cmd"]},
}


def _ask(url: str, text: str, stream: bool) -> Any:
    litellm = load_litellm()

    async def ask() -> Any:
        answer = await litellm.aresponses(
            model="openai/scripted",
            input=[{"role": "user", "content": text}],
            instructions="You are the responses probe.",
            tools=[TOOL],
            api_base=url,
            api_key="k",
            stream=stream,
        )
        if not stream:
            return answer
        return [event async for event in answer]

    return asyncio.run(ask())


@pytest.mark.filterwarnings("ignore:Pydantic serializer warnings")  # litellm's own usage model
def test_tool_calls_and_text_as_output_items_streamed_and_not(serve) -> None:
    call = Turn(tool_calls=[ScriptedToolCall(name="exec_command", arguments={"cmd": "echo 7"})])
    probe = Script(name="probe", match="responses probe", match_user="go", turns=[call, Turn(text="all done")])
    other = Script(name="other", turns=[Turn(text="not the probe")])
    server = serve([probe, other])

    events = _ask(server.base_url, "go", stream=True)
    kinds = [event.type for event in events]
    assert kinds[0] == "response.created" and kinds[-1] == "response.completed"
    (item,) = [e.item for e in events if e.type == "response.output_item.done"]
    assert (item.type, item.name, item.arguments) == ("function_call", "exec_command", '{"cmd": "echo 7"}')
    assert events[-1].response.usage.input_tokens > 0

    answer = _ask(server.base_url, "go", stream=False)
    assert answer.output[0].content[0].text == "all done"
    assert _ask(server.base_url, "something else", stream=False).output[0].content[0].text == "not the probe"
    assert [r.script for r in server.requests] == ["probe", "probe", "other"]
    assert server.requests[0].body["tools"][0]["name"] == "exec_command"
