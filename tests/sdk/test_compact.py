"""`Conversation.compact`: the user's condensation, now, with what they want kept — recorded
with reason "user", its focus sent to the summariser — and refused in one line while the agent
works or when there is too little to condense."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest

from openhands_tui.sdk import Agent, Conversation, ConversationParts
from openhands_tui.sdk.context.condenser import Condenser
from openhands_tui.sdk.errors import SessionError
from openhands_tui.sdk.facts.event import CondensationEvent, Event, LLMUsageEvent
from openhands_tui.sdk.facts.store import SessionMeta, SessionStore
from openhands_tui.testing import Script, ScriptedToolCall, Turn
from openhands_tui.tools.preset.default import get_default_tools
from tests.conftest import llm_for

SUMMARIZER = Script(name="summarizer", match="You condense the middle", turns=[Turn(text="Echoed 0-5.", repeat=5)])


def _echoes(count: int) -> list[Turn]:
    calls = [
        Turn(tool_calls=[ScriptedToolCall(name="terminal", arguments={"command": f"echo {n}"})]) for n in range(count)
    ]
    return [*calls, Turn.finish("echoed")]


def _conversation(server, workspace: Path, events: list[Event], **parts: object) -> Conversation:
    agent = Agent(llm=llm_for(server), tools=get_default_tools(), condenser=Condenser())
    return Conversation(
        agent,
        workspace=workspace,
        parts=ConversationParts(subscribers=[events.append], **parts),  # type: ignore[arg-type]
    )


async def test_compact_condenses_now_with_the_users_focus(serve, workspace: Path, tmp_path: Path) -> None:
    server = serve([SUMMARIZER, Script(name="agent", turns=[*_echoes(6), Turn.finish("next")])])
    log = SessionStore(tmp_path / "state").create(SessionMeta(id="s"))
    events: list[Event] = []
    conversation = _conversation(server, workspace, events, log=log)
    try:
        await conversation.run("echo the numbers")
        condensed = await conversation.compact("  the exact\nnumbers echoed ")
        await conversation.run("and now?")
    finally:
        await conversation.close()

    assert condensed.reason == "user" and condensed.focus == "the exact numbers echoed"
    assert condensed.summarized and condensed.removed > 0
    assert condensed.tokens_after < condensed.tokens_before
    summary_request = server.requests_for("summarizer")[-1].messages
    assert summary_request[0]["content"].endswith("keep especially: the exact numbers echoed")
    assert [e for e in events if isinstance(e, CondensationEvent)] == [condensed]
    later = server.requests_for("agent")[-1].messages
    assert any("<CONDENSED_HISTORY>" in (m.get("content") or "") for m in later)  # the next call reads it
    summary_usage = [e for e in events if isinstance(e, LLMUsageEvent)][-2]
    assert summary_usage.model == server.model  # the summary's call is charged too
    stored = SessionStore(tmp_path / "state").open("s").load().events
    assert any(isinstance(e, CondensationEvent) and e.reason == "user" for e in stored)  # a resume rebuilds it


async def test_too_little_to_condense_is_said_and_nothing_is_asked(serve, workspace: Path) -> None:
    server = serve([SUMMARIZER, Script(name="agent", turns=[Turn.finish("hi")])])
    events: list[Event] = []
    conversation = _conversation(server, workspace, events)
    try:
        await conversation.run("hello")
        with pytest.raises(SessionError, match="nothing to condense yet") as refused:
            await conversation.compact()
    finally:
        await conversation.close()
    assert "\n" not in str(refused.value)
    assert not server.requests_for("summarizer")
    assert not any(isinstance(e, CondensationEvent) for e in events)


async def test_compact_is_refused_while_the_agent_works(serve, workspace: Path) -> None:
    server = serve([SUMMARIZER, Script(name="agent", turns=[*_echoes(6)[:-1], Turn(delay=1.0, text="done")])])
    conversation = _conversation(server, workspace, [])
    try:
        running = asyncio.ensure_future(conversation.run("echo the numbers"))
        while len(server.requests) < 6:  # the last, slow answer is on its way
            await asyncio.sleep(0.01)
        with pytest.raises(SessionError, match="is working: compact between runs"):
            await conversation.compact()
        await running
    finally:
        await conversation.close()
    assert not server.requests_for("summarizer")


async def test_an_agent_whose_condenser_is_off_is_not_compacted(serve, workspace: Path) -> None:
    server = serve([Script(name="agent", turns=_echoes(6))])
    agent = Agent(llm=llm_for(server), tools=get_default_tools(), condenser=None)
    conversation = Conversation(agent, workspace=workspace)
    try:
        await conversation.run("echo the numbers")
        with pytest.raises(SessionError, match="does not condense its history"):
            await conversation.compact()
    finally:
        await conversation.close()
