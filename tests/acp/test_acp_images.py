"""An editor's image and resource blocks over ACP (the official client over stdio): the image
reaches the model server as an image part, a text resource as file context; the agent says it
takes images."""

from __future__ import annotations

import base64
from pathlib import Path

import pytest
from acp import embedded_text_resource, image_block, resource_block, text_block

from openhands_tui.testing import Script, Turn
from tests.acp.test_acp import Editor, _open
from tests.context.test_attachments import tiny_png

pytestmark = pytest.mark.subprocess


async def test_an_image_block_reaches_the_server_as_an_image_part_and_a_resource_as_file_context(
    serve, workspace: Path
) -> None:
    server = serve([Script(turns=[Turn.finish("a red pixel")])])
    editor = Editor()
    data = base64.b64encode(tiny_png()).decode()
    async with await _open(editor, server, workspace) as (conn, _process):
        init = await conn.initialize(protocol_version=1)
        assert init.agent_capabilities.prompt_capabilities.image
        session = await conn.new_session(cwd=str(workspace), mcp_servers=[])
        prompt = [
            text_block("what is this?"),
            image_block(data, "image/png"),
            resource_block(embedded_text_resource("file:///src/app.py", "x = 1\n")),
        ]
        done = await conn.prompt(session_id=session.session_id, prompt=prompt)
        assert done.stop_reason == "end_turn"
    content = server.requests[0].messages[1]["content"]
    assert {"type": "image_url", "image_url": {"url": f"data:image/png;base64,{data}"}} in content
    assert '<FILE path="/src/app.py">\nx = 1\n' in content[0]["text"]


async def test_an_image_block_that_is_no_image_is_refused_in_one_line_and_nothing_is_sent(
    serve, workspace: Path
) -> None:
    server = serve([Script(turns=[Turn.finish("never")])])
    editor = Editor()
    async with await _open(editor, server, workspace) as (conn, _process):
        await conn.initialize(protocol_version=1)
        session = await conn.new_session(cwd=str(workspace), mcp_servers=[])
        fake = base64.b64encode(b"not a picture").decode()
        done = await conn.prompt(session_id=session.session_id, prompt=[image_block(fake, "image/png")])
        assert done.stop_reason == "end_turn"
    assert "tui: image not sent: image-1: not a PNG, JPEG, GIF or WebP image" in editor.text()
    assert server.requests == []
