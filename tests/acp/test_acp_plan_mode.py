"""Plan mode as an ACP session mode, with the real client over stdio: set, obeyed (nothing
written), kept when the session is loaded again, and a plan approved in the editor carried
out within the same prompt; "keep planning" leaves the workspace alone."""

from __future__ import annotations

from pathlib import Path

import pytest
from acp import text_block

from openhands_tui.testing import Script, Turn
from tests.acp.test_acp import Editor, _open

pytestmark = pytest.mark.subprocess


async def test_plan_mode_is_set_kept_across_load_and_approved_in_the_editor(serve, workspace: Path) -> None:
    server = serve(
        [
            Script(
                turns=[
                    Turn.call("file_editor", command="create", path="a.txt", file_text="early\n"),
                    Turn.finish("PLAN: create a.txt"),
                    Turn.finish("PLAN: create a.txt, then b.txt"),
                    Turn.call("file_editor", command="create", path="a.txt", file_text="done\n"),
                    Turn.finish("created"),
                ]
            )
        ]
    )
    editor = Editor(answers=["plan_keep_planning"])
    async with await _open(editor, server, workspace) as (conn, _):
        await conn.initialize(protocol_version=1)
        session = await conn.new_session(cwd=str(workspace), mcp_servers=[])
        assert "plan" in {m.id for m in session.modes.available_modes}
        await conn.set_session_mode(session_id=session.session_id, mode_id="plan")
        assert editor.updates[-1].session_update == "current_mode_update"
        assert editor.updates[-1].current_mode_id == "plan"
        done = await conn.prompt(session_id=session.session_id, prompt=[text_block("make a.txt")])
        assert done.stop_reason == "end_turn"
    assert list(workspace.iterdir()) == []
    plan_call, options = editor.permissions[0]
    assert plan_call.title == "Plan: carry it out?"
    assert {o.option_id for o in options} == {"plan_approve", "plan_approve_unasked", "plan_keep_planning"}
    shown = next(
        u for u in editor.updates if u.session_update == "tool_call" and u.tool_call_id == plan_call.tool_call_id
    )
    assert "PLAN: create a.txt" in shown.content[0].content.text

    loaded = Editor(answers=["plan_approve_unasked"])
    async with await _open(loaded, server, workspace) as (conn, _):
        await conn.initialize(protocol_version=1)
        again = await conn.load_session(cwd=str(workspace), session_id=session.session_id, mcp_servers=[])
        assert again.modes.current_mode_id == "plan"  # kept: the session's own record says so
        done = await conn.prompt(session_id=session.session_id, prompt=[text_block("also b.txt")])
        assert done.stop_reason == "end_turn"
    assert (workspace / "a.txt").read_text() == "done\n"
    modes = [u.current_mode_id for u in loaded.updates if u.session_update == "current_mode_update"]
    assert modes[-1] == "never"  # approved without asking: the editor hears the mode change
    approval = str(server.requests[3].messages[-1]["content"])
    assert "approved your plan" in approval and "then b.txt" in approval
