"""What an MCP server may use beyond tools, over a real stdio transport (the project's own
FastMCP-style server, `tests/fixtures/mcp_capabilities_server.py`) and the scripted model
server: image results reach the model as image parts, roots are the workspace, elicitation is
declined where no one can answer, sampling asks first and is charged to the session, progress
becomes events."""

from __future__ import annotations

import base64
import sys
from pathlib import Path
from typing import Any

from openhands_tui.sdk import Agent
from openhands_tui.sdk.facts.store import SessionMeta, SessionStore
from openhands_tui.sdk.run.confirmation import Decision
from openhands_tui.testing import Script, ScriptedToolCall, Turn
from tests.conftest import llm_for
from tests.sdk.helpers import ScriptedConfirmer, run

SERVER = Path(__file__).parent.parent / "fixtures" / "mcp_capabilities_server.py"


def _config(**entry: Any) -> dict[str, Any]:
    return {"mcpServers": {"caps": {"command": sys.executable, "args": [str(SERVER)], **entry}}}


def _call(name: str, **arguments: object) -> ScriptedToolCall:
    return ScriptedToolCall(name=name, arguments=arguments)


def _tool_message(request: Any) -> dict[str, Any]:
    return next(m for m in request.messages if m["role"] == "tool")


def _image_parts(message: dict[str, Any]) -> list[dict[str, Any]]:
    content = message["content"]
    return [part for part in content if part.get("type") == "image_url"] if isinstance(content, list) else []


def _images_after_results(messages: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The image parts of the message that follows the first run of tool results (a user's)."""
    first = next(i for i, m in enumerate(messages) if m["role"] == "tool")
    following = next(m for m in messages[first:] if m["role"] != "tool")
    assert following["role"] == "user", following
    return _image_parts(following)


async def test_an_image_result_reaches_the_model_as_an_image_part_and_again_on_resume(
    serve, workspace: Path, tmp_path: Path
) -> None:
    from tests.fixtures.mcp_capabilities_server import tiny_png

    store = SessionStore(tmp_path / "state")
    server = serve([Script(turns=[Turn(tool_calls=[_call("caps__picture")]), Turn.finish("a red square")])])
    agent = Agent(llm=llm_for(server, model="openai/gpt-4o-mini"), tools=[], mcp_config=_config())
    result = await run(agent, workspace, "what is the picture?", log=store.create(SessionMeta(id="s")))

    assert result.outcome.status.value == "finished", result.outcome
    sent = _tool_message(server.requests[1])
    assert isinstance(sent["content"], str) and "here is the picture" in sent["content"]
    assert "shown after the tool results" in sent["content"]
    images = _images_after_results(server.requests[1].messages)
    assert len(images) == 1
    assert images[0]["image_url"]["url"] == "data:image/png;base64," + base64.b64encode(tiny_png()).decode()
    observation = next(e for e in result.kinds("observation") if e.tool_name == "caps__picture")
    assert [image.media_type for image in observation.images] == ["image/png"]
    stored = store.open("s").load().events
    line = next(e for e in stored if e.kind == "observation" and e.tool_name == "caps__picture")
    assert "base64" not in line.model_dump_json()  # the bytes are in attachments/, not the log
    assert (tmp_path / "state").rglob(f"{observation.images[0].sha256}.png")

    from openhands_tui.sdk.run.messages import MessageBuilder

    rebuilt = MessageBuilder("root", result.conversation.runtime.attachments.read)
    for event in stored:
        rebuilt.add(event)
    assert _images_after_results(rebuilt.messages) == images


async def test_a_model_without_vision_reads_a_note_and_a_fake_image_is_refused(serve, workspace: Path) -> None:
    calls = [_call("caps__picture"), _call("caps__fake_picture")]
    server = serve([Script(turns=[Turn(tool_calls=calls), Turn.finish("ok")])])
    agent = Agent(llm=llm_for(server, model="openai/gpt-3.5-turbo"), tools=[], mcp_config=_config())
    result = await run(agent, workspace, "pictures")

    assert result.outcome.status.value == "finished", result.outcome
    picture, fake = [m for m in server.requests[1].messages if m["role"] == "tool"]
    assert isinstance(picture["content"], str) and "does not take images" in picture["content"]
    assert isinstance(fake["content"], str)

    server2 = serve([Script(turns=[Turn(tool_calls=[_call("caps__fake_picture")]), Turn.finish("ok")])])
    agent2 = Agent(llm=llm_for(server2, model="openai/gpt-4o-mini"), tools=[], mcp_config=_config())
    await run(agent2, workspace, "picture")
    refused = _tool_message(server2.requests[1])
    assert isinstance(refused["content"], str)
    assert "said to be image/png but its contents" in refused["content"] or "not a PNG" in refused["content"]


async def test_roots_are_the_workspace(serve, workspace: Path) -> None:
    server = serve([Script(turns=[Turn(tool_calls=[_call("caps__where")]), Turn.finish("ok")])])
    await run(Agent(llm=llm_for(server), tools=[], mcp_config=_config()), workspace, "where?")
    assert _tool_message(server.requests[1])["content"] == workspace.resolve().as_uri()


async def test_elicitation_is_declined_with_a_notice_where_no_one_can_answer(serve, workspace: Path) -> None:
    server = serve([Script(turns=[Turn(tool_calls=[_call("caps__ask_name")]), Turn.finish("ok")])])
    result = await run(Agent(llm=llm_for(server), tools=[], mcp_config=_config()), workspace, "who?")

    assert _tool_message(server.requests[1])["content"] == "the user chose decline"
    notices = [e.error for e in result.kinds("agent_error") if "asked the user" in e.error]
    assert len(notices) == 1 and "Who are you?" in notices[0] and "\x1b" not in notices[0]


async def test_sampling_asks_first_then_goes_through_our_model_and_is_charged(serve, workspace: Path) -> None:
    server = serve(
        [
            Script(name="sampled", match="You summarize.", turns=[Turn(text="short")]),
            Script(turns=[Turn(tool_calls=[_call("caps__summarize", text="a long text")]), Turn.finish("ok")]),
        ]
    )
    confirmer = ScriptedConfirmer()
    llm = llm_for(server, model="openai/gpt-4o-mini")
    result = await run(Agent(llm=llm, tools=[], mcp_config=_config()), workspace, "sum", confirmer=confirmer)

    assert _tool_message(server.requests[2])["content"] == "the model said: short"
    sampled = server.requests[1]
    assert sampled.messages[0] == {"role": "system", "content": "You summarize."}
    assert sampled.body["max_tokens"] == 4096  # the server asked for 100,000
    asked = [r for r in confirmer.requests if r.rules == ["mcp:sampling"]]
    assert len(asked) == 1 and "caps" in asked[0].summary and "a long text" in asked[0].summary
    usage = result.kinds("llm_usage")
    assert len(usage) == 3 and all(u.agent_id == "root" and u.cost for u in usage)
    assert result.conversation.runtime.tree.subtree_cost("root") == sum(u.cost for u in usage)


async def test_sampling_refused_by_the_user_never_reaches_the_model(serve, workspace: Path) -> None:
    server = serve(
        [
            Script(name="sampled", match="You summarize.", turns=[Turn(text="short")]),
            Script(turns=[Turn(tool_calls=[_call("caps__summarize", text="x")]), Turn.finish("ok")]),
        ]
    )
    confirmer = ScriptedConfirmer(answers=[Decision(approved=True), Decision(approved=False, reason="no")])
    await run(Agent(llm=llm_for(server), tools=[], mcp_config=_config()), workspace, "sum", confirmer=confirmer)
    assert len(server.requests) == 2
    assert "did not approve" in _tool_message(server.requests[1])["content"]


async def test_sampling_refused_by_configuration_asks_no_one(serve, workspace: Path) -> None:
    server = serve([Script(turns=[Turn(tool_calls=[_call("caps__summarize", text="x")]), Turn.finish("ok")])])
    confirmer = ScriptedConfirmer()
    config = _config(sampling="refuse")
    await run(Agent(llm=llm_for(server), tools=[], mcp_config=config), workspace, "sum", confirmer=confirmer)
    assert not [r for r in confirmer.requests if r.rules == ["mcp:sampling"]]
    assert "refuses model requests" in _tool_message(server.requests[1])["content"]


async def test_progress_of_a_call_becomes_events_on_that_call(serve, workspace: Path) -> None:
    server = serve([Script(turns=[Turn(tool_calls=[_call("caps__count", steps=3)]), Turn.finish("ok")])])
    result = await run(Agent(llm=llm_for(server), tools=[], mcp_config=_config()), workspace, "count")

    action = next(e for e in result.kinds("action") if e.tool_name == "caps__count")
    progress = result.kinds("tool_progress")
    assert [p.line() for p in progress] == ["33% step 1 of 3", "67% step 2 of 3", "100% step 3 of 3"]
    assert {p.tool_call_id for p in progress} == {action.tool_call_id}


async def test_images_follow_all_the_results_of_one_response(serve, workspace: Path) -> None:
    calls = [_call("caps__picture"), _call("caps__where")]
    server = serve([Script(turns=[Turn(tool_calls=calls), Turn.finish("ok")])])
    agent = Agent(llm=llm_for(server, model="openai/gpt-4o-mini"), tools=[], mcp_config=_config())
    await run(agent, workspace, "pictures")

    roles = [m["role"] for m in server.requests[1].messages]
    assert roles[-4:] == ["assistant", "tool", "tool", "user"]
    assert len(_image_parts(server.requests[1].messages[-1])) == 1
