"""What an editor keeps and reads across sessions, over the real ACP client and stdio: a tool
call's completion that clients of both the current and the earlier schema accept, and the mode
chosen in the editor still current when the session is loaded again."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import jsonschema
import pytest
from acp import RequestError, text_block
from acp.schema import SessionNotification

from openhands_tui.testing import Script, Turn
from tests.acp.test_acp import Editor, _open

pytestmark = pytest.mark.subprocess

#: The earlier schema's tool-call update (the one Zed's example client validates with): raw
#: input and raw output are JSON objects (`z.record`), content a list of objects. A string
#: there fails validation and the client drops the completion, leaving the call "pending".
EARLIER_TOOL_CALL_UPDATE = {
    "type": "object",
    "required": ["sessionUpdate", "toolCallId"],
    "properties": {
        "sessionUpdate": {"enum": ["tool_call", "tool_call_update"]},
        "toolCallId": {"type": "string"},
        "status": {"enum": ["pending", "in_progress", "completed", "failed"]},
        "rawInput": {"type": "object"},
        "rawOutput": {"type": "object"},
        "content": {"type": "array", "items": {"type": "object", "required": ["type"]}},
    },
}


def _wire(update: Any) -> dict[str, Any]:
    return update.model_dump(by_alias=True, exclude_none=True, mode="json")


async def test_a_tool_calls_completion_is_accepted_by_the_current_and_the_earlier_schema(
    serve, workspace: Path
) -> None:
    server = serve([Script(turns=[Turn.call("terminal", command="echo hello"), Turn.finish("said hello")])])
    editor = Editor(answers=["allow_once"])
    async with await _open(editor, server, workspace) as (conn, _process):
        await conn.initialize(protocol_version=1)
        session = await conn.new_session(cwd=str(workspace), mcp_servers=[])
        await conn.set_session_mode(session_id=session.session_id, mode_id="never")
        await conn.prompt(session_id=session.session_id, prompt=[text_block("say hello")])
    calls = [u for u in editor.updates if u.session_update in ("tool_call", "tool_call_update")]
    done = [u for u in calls if u.session_update == "tool_call_update" and u.status == "completed"]
    assert done, [_wire(u) for u in calls]
    assert "hello" in done[-1].raw_output["output"]
    for update in calls:
        wire = _wire(update)
        SessionNotification.model_validate({"sessionId": session.session_id, "update": wire})
        jsonschema.validate(wire, EARLIER_TOOL_CALL_UPDATE)


async def test_the_mode_chosen_in_the_editor_is_current_again_when_the_session_is_loaded(
    serve, workspace: Path
) -> None:
    server = serve([Script(turns=[Turn.finish("done")])])
    editor = Editor()
    async with await _open(editor, server, workspace) as (conn, _process):
        await conn.initialize(protocol_version=1)
        session = await conn.new_session(cwd=str(workspace), mcp_servers=[])
        assert session.modes.current_mode_id != "always"
        await conn.set_session_mode(session_id=session.session_id, mode_id="always")
        await conn.prompt(session_id=session.session_id, prompt=[text_block("hi")])
    loaded = Editor()
    async with await _open(loaded, server, workspace) as (conn, _process):
        await conn.initialize(protocol_version=1)
        again = await conn.load_session(cwd=str(workspace), session_id=session.session_id, mcp_servers=[])
    assert again.modes.current_mode_id == "always"


async def test_an_editor_lists_resumes_forks_and_closes_the_sessions_of_its_workspace(serve, workspace: Path) -> None:
    server = serve([Script(turns=[Turn.finish("first answer"), Turn.finish("second answer")])])
    editor = Editor()
    async with await _open(editor, server, workspace) as (conn, _process):
        init = await conn.initialize(protocol_version=1)
        caps = init.agent_capabilities.session_capabilities
        assert caps.list is not None and caps.resume is not None and caps.close is not None and caps.fork is not None
        first = await conn.new_session(cwd=str(workspace), mcp_servers=[])
        await conn.prompt(session_id=first.session_id, prompt=[text_block("remember the first thing")])
        await conn.close_session(session_id=first.session_id)
        listed = await conn.list_sessions(cwd=str(workspace))
        ids = [s.session_id for s in listed.sessions]
        assert first.session_id in ids
        mine = next(s for s in listed.sessions if s.session_id == first.session_id)
        assert mine.updated_at and mine.cwd == str(workspace.resolve())
        assert (await conn.list_sessions(cwd=str(workspace / "elsewhere"))).sessions == []

        resumed = await conn.resume_session(cwd=str(workspace), session_id=first.session_id, mcp_servers=[])
        assert resumed.modes is not None
        await conn.prompt(session_id=first.session_id, prompt=[text_block("and the second")])
        forked = await conn.fork_session(cwd=str(workspace), session_id=first.session_id, mcp_servers=[])
        assert forked.session_id != first.session_id
        await conn.close_session(session_id=first.session_id)
        with pytest.raises(RequestError) as closed:
            await conn.prompt(session_id=first.session_id, prompt=[text_block("gone?")])
        assert "no session" in str(closed.value.data)
        after = {s.session_id for s in (await conn.list_sessions(cwd=str(workspace))).sessions}
    assert {first.session_id, forked.session_id} <= after
    assert "first answer" in editor.text() and "second answer" in editor.text()
    # the resumed session's model call carried the first turn: the conversation went on
    assert any("remember the first thing" in str(r.messages) for r in server.requests[1:])
