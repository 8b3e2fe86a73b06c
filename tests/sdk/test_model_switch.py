"""`Conversation.set_model`: the next request names the new model, a resumed session keeps it,
each call is charged to the model that answered it, and a name litellm cannot place is refused
without changing anything."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest

from openhands_tui.sdk import Agent, Conversation, ConversationParts
from openhands_tui.sdk.errors import SessionError, SettingsError
from openhands_tui.sdk.facts.event import Event, LLMUsageEvent, ModelChangedEvent
from openhands_tui.sdk.facts.store import SessionMeta, SessionStore
from openhands_tui.sdk.facts.tree import DelegationTree
from openhands_tui.sdk.llm.litellm_import import load_litellm
from openhands_tui.testing import Script, Turn
from openhands_tui.tools.preset.default import get_default_tools
from tests.conftest import llm_for

#: litellm sends an `openai/` model to the endpoint by its bare name.
SWITCHED = "openai/scripted-b"


def _conversation(server, workspace: Path, events: list[Event], **parts: object) -> Conversation:
    agent = Agent(llm=llm_for(server, **parts.pop("llm", {})), tools=get_default_tools())  # type: ignore[arg-type]
    return Conversation(
        agent,
        workspace=workspace,
        parts=ConversationParts(subscribers=[events.append], **parts),  # type: ignore[arg-type]
    )


async def test_the_next_request_names_the_new_model_and_the_change_is_recorded(
    serve, workspace: Path, tmp_path: Path
) -> None:
    server = serve([Script(turns=[Turn.finish("one"), Turn.finish("two")])])
    log = SessionStore(tmp_path / "state").create(SessionMeta(id="s", model=server.model))
    events: list[Event] = []
    conversation = _conversation(server, workspace, events, log=log)
    try:
        await conversation.run("first")
        switch = conversation.set_model(SWITCHED)
        await conversation.run("second")
    finally:
        await conversation.close()
    assert [r.body["model"] for r in server.requests] == ["scripted", "scripted-b"]
    assert (switch.previous, switch.model, switch.changed) == (server.model, SWITCHED, True)
    changed = [e for e in events if isinstance(e, ModelChangedEvent)]
    assert [(e.agent_id, e.previous, e.model) for e in changed] == [("root", server.model, SWITCHED)]
    assert SessionStore(tmp_path / "state").open("s").meta.model == SWITCHED  # what --resume starts with
    assert DelegationTree.from_events(events).nodes["root"].model == SWITCHED


async def test_a_resumed_session_keeps_the_model_it_was_switched_to(serve, workspace: Path, tmp_path: Path) -> None:
    server = serve([Script(turns=[Turn.finish("one"), Turn.finish("two")])])
    store = SessionStore(tmp_path / "state")
    first: list[Event] = []
    conversation = _conversation(server, workspace, first, log=store.create(SessionMeta(id="s")))
    try:
        await conversation.run("first")
        conversation.set_model(SWITCHED)
    finally:
        await conversation.close()

    log = store.open("s")
    history = log.load().events
    again: list[Event] = []
    resumed = _conversation(server, workspace, again, log=log, history=history)  # built on the first model
    try:
        await resumed.run("second")
    finally:
        await resumed.close()
    assert server.requests[-1].body["model"] == "scripted-b"
    assert not any(isinstance(e, ModelChangedEvent) for e in again)  # already recorded: not again


async def test_resuming_with_another_model_on_purpose_records_that_choice(
    serve, workspace: Path, tmp_path: Path
) -> None:
    server = serve([Script(turns=[Turn.finish("one"), Turn.finish("two")])])
    store = SessionStore(tmp_path / "state")
    conversation = _conversation(server, workspace, [], log=store.create(SessionMeta(id="s")))
    try:
        await conversation.run("first")
        conversation.set_model(SWITCHED)
    finally:
        await conversation.close()

    log = store.open("s")
    again: list[Event] = []
    chosen = _conversation(server, workspace, again, log=log, history=log.load().events, llm={"model": "openai/c"})
    try:
        await chosen.run("second")
    finally:
        await chosen.close()
    assert server.requests[-1].body["model"] == "c"  # `--resume s --model openai/c`: the flag wins
    assert [(e.previous, e.model) for e in again if isinstance(e, ModelChangedEvent)] == [(SWITCHED, "openai/c")]


async def test_each_call_is_charged_to_the_model_that_answered_it(serve, workspace: Path) -> None:
    """A price set for the first model does not follow the switch: the second model is priced
    from litellm's list. The call that was streaming when the switch came is the old model's."""
    server = serve([Script(turns=[Turn(delay=1.0, text="slow"), Turn.finish("fast")])])
    events: list[Event] = []
    prices = {"input_cost_per_token": 1e-3, "output_cost_per_token": 2e-3}
    conversation = _conversation(server, workspace, events, llm=prices)
    try:
        running = asyncio.ensure_future(conversation.run("first"))
        while not server.requests:  # the first answer is on its way
            await asyncio.sleep(0.01)
        conversation.set_model("openai/gpt-4o-mini")
        await running
        await conversation.run("second")
    finally:
        await conversation.close()
    first, second = [e for e in events if isinstance(e, LLMUsageEvent)]
    assert (first.model, second.model) == (server.model, "openai/gpt-4o-mini")
    assert first.cost == pytest.approx(first.prompt_tokens * 1e-3 + first.completion_tokens * 2e-3)
    listed = load_litellm().model_cost["gpt-4o-mini"]
    expected = second.prompt_tokens * listed["input_cost_per_token"]
    expected += second.completion_tokens * listed["output_cost_per_token"]
    assert second.cost == pytest.approx(expected)
    stats = conversation.conversation_stats.usage_to_metrics
    assert stats[server.model].accumulated_cost == pytest.approx(first.cost)
    assert stats["openai/gpt-4o-mini"].accumulated_cost == pytest.approx(second.cost)
    assert DelegationTree.from_events(events).nodes["root"].cost == pytest.approx(first.cost + second.cost)


@pytest.mark.parametrize(
    ("name", "why"),
    [
        ("nonsense-model", "prefix the provider"),
        ("two words", "no spaces"),
    ],
)
async def test_a_name_litellm_cannot_place_is_refused_and_nothing_changes(
    serve, workspace: Path, name: str, why: str
) -> None:
    server = serve([Script(turns=[Turn.finish("one")])])
    events: list[Event] = []
    conversation = _conversation(server, workspace, events)
    try:
        await conversation.open()
        with pytest.raises(SettingsError, match=why) as refused:
            conversation.set_model(name)
        assert "\n" not in str(refused.value)
        await conversation.run("first")
    finally:
        await conversation.close()
    assert server.requests[-1].body["model"] == "scripted"
    assert not any(isinstance(e, ModelChangedEvent) for e in events)


def test_a_model_a_first_party_provider_does_not_list_is_refused() -> None:
    from openhands_tui.sdk.llm.model_names import model_problem

    assert model_problem("anthropic/claude-sonnet-4-5", None) is None
    assert "does not list it" in (model_problem("openai/gpt-4oo", None) or "")  # a typo of gpt-4o
    assert model_problem("openai/anything-the-endpoint-serves", "http://127.0.0.1:9") is None
    assert model_problem("ollama/my-own-finetune", None) is None  # a local server's models are its own


async def test_only_an_open_agent_can_be_switched(serve, workspace: Path) -> None:
    server = serve([Script(turns=[Turn.finish("one")])])
    conversation = _conversation(server, workspace, [])
    try:
        await conversation.open()
        with pytest.raises(SessionError, match="coder-1 is not running"):
            conversation.set_model(SWITCHED, agent_id="coder-1")
    finally:
        await conversation.close()


async def test_a_running_sub_agent_is_switched_by_its_id_and_the_root_keeps_its_model(serve, workspace: Path) -> None:
    from openhands_tui.sdk import AgentContext
    from openhands_tui.sdk.tool import Tool
    from openhands_tui.tools.delegate import register_agent

    def helper(llm):
        return Agent(llm=llm, name="helper", agent_context=AgentContext(system_message_suffix="ROLE:helper"))

    register_agent("helper", helper, "the helper")
    server = serve(
        [
            Script(
                name="root",
                match="ROLE:root",
                turns=[Turn.call("delegate", agent="helper", task="look"), Turn.finish("root done")],
            ),
            Script(
                name="helper",
                match="ROLE:helper",
                turns=[Turn(delay=1.0, tool_calls=Turn.call("think", thought="hm").tool_calls), Turn.finish("seen")],
            ),
        ]
    )
    root = Agent(
        llm=llm_for(server),
        name="root",
        tools=[Tool(name="DelegateTool", params={})],
        agent_context=AgentContext(system_message_suffix="ROLE:root"),
    )
    events: list[Event] = []
    conversation = Conversation(root, workspace=workspace, parts=ConversationParts(subscribers=[events.append]))
    try:
        running = asyncio.ensure_future(conversation.run("go"))
        while not server.requests_for("helper"):
            await asyncio.sleep(0.01)
        conversation.set_model(SWITCHED, agent_id="helper-1")
        await running
    finally:
        await conversation.close()
    assert [r.body["model"] for r in server.requests_for("helper")] == ["scripted", "scripted-b"]
    assert {r.body["model"] for r in server.requests_for("root")} == {"scripted"}
    assert [(e.agent_id, e.parent_agent_id) for e in events if isinstance(e, ModelChangedEvent)] == [
        ("helper-1", "root")
    ]
