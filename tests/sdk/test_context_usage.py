"""`/context`'s breakdown: every token of an agent's next request under one source, the rows
adding up to the total, and text told apart from the knowledge added to it."""

from __future__ import annotations

from pathlib import Path

from openhands_tui.sdk import Agent, Conversation, ConversationParts
from openhands_tui.sdk.facts.event import CondensationEvent, MessageEvent
from openhands_tui.sdk.run.context_usage import (
    CONDENSED,
    CONVERSATION,
    KNOWLEDGE,
    SOURCES,
    SYSTEM,
    TOOL_OUTPUTS,
    TOOLS,
    measure,
)
from openhands_tui.sdk.run.messages import condensed_block, user_content
from openhands_tui.testing import Script, Turn
from openhands_tui.tools.preset.default import get_default_tools
from tests.conftest import llm_for


def test_each_part_of_a_message_is_counted_under_its_source() -> None:
    asked = MessageEvent(agent_id="a", role="user", content="fix it", context=["<KNOWLEDGE>docker</KNOWLEDGE>"])
    condensed = CondensationEvent(agent_id="a", summary="did things", head=2, tail=4, reason="user")
    call = {"id": "c", "type": "function", "function": {"name": "terminal", "arguments": '{"command": "ls"}'}}
    messages = [
        {"role": "system", "content": "you code"},
        {"role": "user", "content": user_content(asked)},
        {"role": "user", "content": condensed_block(condensed)},
        {"role": "assistant", "content": "looking", "tool_calls": [call]},
        {"role": "tool", "tool_call_id": "c", "content": "a.py b.py"},
    ]
    tools = [{"type": "function", "function": {"name": "terminal"}}]
    tokens = measure(messages, tools, [asked, condensed], len)  # one token a character: exact sums
    assert tokens[SYSTEM] == len("you code")
    assert tokens[KNOWLEDGE] == len(user_content(asked)) - len("fix it")
    assert tokens[CONVERSATION] == len("fix it") + len("looking") + len("terminal") + len('{"command": "ls"}')
    assert tokens[TOOL_OUTPUTS] == len("a.py b.py")
    assert tokens[CONDENSED] == len(condensed_block(condensed))
    assert tokens[TOOLS] > 0
    assert list(tokens) == list(SOURCES)


async def test_a_big_tool_output_fills_the_window_as_tool_outputs(serve, workspace: Path) -> None:
    (workspace / "big.txt").write_text("".join(f"line {n} of a long log\n" for n in range(1500)))
    server = serve([Script(turns=[Turn.call("terminal", command="cat big.txt"), Turn.finish("read it")])])
    agent = Agent(llm=llm_for(server, context_window=200_000), tools=get_default_tools())
    conversation = Conversation(agent, workspace=workspace, parts=ConversationParts())
    try:
        await conversation.run("read big.txt, and mind the docker setup")  # `docker` fires a microagent
        usage = conversation.context_usage()
    finally:
        await conversation.close()

    rows = dict(usage.rows)
    assert usage.total == sum(rows.values())
    assert max(rows, key=rows.__getitem__) == TOOL_OUTPUTS
    assert rows[TOOL_OUTPUTS] > 10_000
    assert all(rows[source] > 0 for source in (SYSTEM, TOOLS, KNOWLEDGE, CONVERSATION))
    assert rows[CONDENSED] == 0
    assert usage.window == 200_000 and usage.model == server.model
    assert "tiktoken" in usage.method  # the real tokenizer, shipped with litellm
    table = usage.table()
    assert "tool outputs" in table and f"{usage.total:,} of 200,000" in table
