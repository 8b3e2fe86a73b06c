"""An editor is told, in ACP's own stop reasons, why the model stopped: a refusal, or answers
that kept reaching the output token limit."""

from __future__ import annotations

from pathlib import Path

import pytest
from acp import text_block

from openhands_tui.testing import Script, Turn
from tests.acp.test_acp import Editor, _open

pytestmark = pytest.mark.subprocess


@pytest.mark.parametrize(
    ("turns", "api", "stop"),
    [
        ([Turn(text="I can't help with that.", stop_reason="refusal")], "anthropic", "refusal"),
        ([Turn(text="and then", stop_reason="length", repeat=3)], "openai", "max_tokens"),
    ],
)
async def test_the_editor_hears_why_the_model_stopped(serve, workspace: Path, turns, api: str, stop: str) -> None:
    server = serve([Script(turns=turns)], api=api)
    editor = Editor()
    async with await _open(editor, server, workspace) as (conn, _process):
        await conn.initialize(protocol_version=1)
        session = await conn.new_session(cwd=str(workspace), mcp_servers=[])
        done = await conn.prompt(session_id=session.session_id, prompt=[text_block("do it")])
    assert done.stop_reason == stop
    assert ("content_filter" if stop == "refusal" else "output token limit") in editor.text()
