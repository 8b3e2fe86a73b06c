"""What an editor is offered beyond the prompt, over the real ACP client and stdio: the session's
`/` commands (the same list the app's menu shows) as soon as the session exists, and the model
as a config option it can switch, kept when the session is loaded again."""

from __future__ import annotations

import asyncio
import time
from pathlib import Path
from typing import Any

import pytest
from acp import RequestError, text_block

from openhands_tui.testing import Script, Turn
from tests.acp.test_acp import Editor, _open

pytestmark = pytest.mark.subprocess


def _option(option: Any) -> Any:
    """A config option as sent (the schema wraps each kind in a root model)."""
    return getattr(option, "root", option)


async def _commands(editor: Editor, timeout: float = 20.0) -> dict[str, str]:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        sent = [u for u in editor.updates if u.session_update == "available_commands_update"]
        if sent:
            return {c.name: c.description for c in sent[-1].available_commands}
        await asyncio.sleep(0.05)
    raise AssertionError("no available_commands_update")


async def test_the_editor_is_told_the_sessions_commands_when_the_session_opens(serve, workspace: Path) -> None:
    commands = workspace / ".claude" / "commands"
    commands.mkdir(parents=True)
    (commands / "review.md").write_text("---\ndescription: Review the change\x1b[31m\n---\nReview $ARGUMENTS\n")
    server = serve([Script(turns=[Turn.finish("reviewed")])])
    editor = Editor()
    async with await _open(editor, server, workspace) as (conn, _process):
        await conn.initialize(protocol_version=1)
        await conn.new_session(cwd=str(workspace), mcp_servers=[])
        offered = await _commands(editor)
    assert offered.get("review") == "Review the change"


async def test_the_editor_switches_the_model_and_a_loaded_session_keeps_it(serve, workspace: Path) -> None:
    server = serve([Script(turns=[Turn.finish("one"), Turn.finish("two")])])
    editor = Editor()
    async with await _open(editor, server, workspace) as (conn, _process):
        await conn.initialize(protocol_version=1)
        session = await conn.new_session(cwd=str(workspace), mcp_servers=[])
        (option,) = [_option(o) for o in session.config_options]
        assert option.category == "model"
        assert option.current_value == server.model
        assert server.model in [choice.value for choice in option.options]
        changed = await conn.set_config_option(config_id="model", session_id=session.session_id, value="openai/other")
        assert _option(changed.config_options[0]).current_value == "openai/other"
        with pytest.raises(RequestError):
            await conn.set_config_option(config_id="colour", session_id=session.session_id, value="red")
        await conn.prompt(session_id=session.session_id, prompt=[text_block("hi")])
    assert server.requests[-1].body["model"] == "other"
    loaded = Editor()
    async with await _open(loaded, server, workspace) as (conn, _process):
        await conn.initialize(protocol_version=1)
        again = await conn.load_session(cwd=str(workspace), session_id=session.session_id, mcp_servers=[])
    assert _option(again.config_options[0]).current_value == "openai/other"
