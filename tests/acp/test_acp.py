"""`tui acp` driven over stdio the way an editor drives it: the real process, the
agent-client-protocol package's client side, and the scripted model server."""

from __future__ import annotations

import asyncio
import os
import sys
from pathlib import Path
from typing import Any

import pytest
from acp import RequestPermissionResponse, spawn_agent_process, text_block
from acp.schema import AllowedOutcome, DeniedOutcome

from openhands_tui.testing import Script, ScriptedToolCall, Turn
from tests.conftest import model_args
from tests.launcher import shared_launcher

pytestmark = pytest.mark.subprocess


class Editor:
    """A minimal ACP client: records every update, answers permission requests as told."""

    def __init__(self, answers: list[str] | None = None) -> None:
        self.updates: list[Any] = []
        self.permissions: list[Any] = []
        self.answers = list(answers or [])

    async def request_permission(self, session_id: str, tool_call: Any, options: list[Any], **kwargs: Any) -> Any:
        self.permissions.append((tool_call, options))
        choice = self.answers.pop(0) if self.answers else "reject_once"
        if choice == "cancel":
            return RequestPermissionResponse(outcome=DeniedOutcome(outcome="cancelled"))
        return RequestPermissionResponse(outcome=AllowedOutcome(outcome="selected", option_id=choice))

    async def session_update(self, session_id: str, update: Any, **kwargs: Any) -> None:
        self.updates.append(update)

    def kinds(self) -> list[str]:
        return [u.session_update for u in self.updates]

    def text(self) -> str:
        return "".join(u.content.text for u in self.updates if u.session_update == "agent_message_chunk")

    async def write_text_file(self, *args: Any, **kwargs: Any) -> None:
        raise NotImplementedError

    async def read_text_file(self, *args: Any, **kwargs: Any) -> None:
        raise NotImplementedError

    def on_connect(self, conn: Any) -> None:
        pass


def _tui(server, extra: list[str] | None = None, fresh: bool = False) -> tuple[str, list[str]]:
    """`tui acp` on the pipes the editor spawns it with: forked warm (tests/warm_spawn.py), or
    `fresh`, a whole new interpreter, imports and all."""
    args = ["acp", *model_args(server), *(extra or [])]
    if fresh:
        return sys.executable, ["-m", "openhands_tui", *args]
    command = shared_launcher().spawn_command(*args)
    return command[0], command[1:]


def _env() -> dict[str, str]:
    return {k: v for k, v in os.environ.items()}


async def _open(editor: Editor, server, workspace: Path, extra: list[str] | None = None, fresh: bool = False):
    command, args = _tui(server, extra, fresh)
    return spawn_agent_process(editor, command, *args, env=_env(), cwd=str(workspace))


async def test_an_editor_runs_a_task_and_answers_a_high_risk_question(serve, workspace: Path) -> None:
    (workspace / "build").mkdir()
    turns = [
        Turn(
            text="Cleaning up.",
            tool_calls=[
                ScriptedToolCall(
                    name="file_editor", arguments={"command": "create", "path": "a.txt", "file_text": "hi\n"}
                )
            ],
        ),
        Turn.call("terminal", command="rm -rf build"),
        Turn.call("task_tracker", command="plan", task_list=[{"title": "clean", "status": "done"}]),
        Turn.finish("Removed build/."),
    ]
    server = serve([Script(turns=turns)])
    editor = Editor(answers=["allow_once"])
    async with await _open(editor, server, workspace) as (conn, _process):
        init = await conn.initialize(protocol_version=1)
        assert init.agent_capabilities.load_session
        session = await conn.new_session(cwd=str(workspace), mcp_servers=[])
        assert {m.id for m in session.modes.available_modes} == {"always", "risky", "never", "plan"}
        done = await conn.prompt(session_id=session.session_id, prompt=[text_block("clean up the build")])
        assert done.stop_reason == "end_turn"
    assert not (workspace / "build").exists() and (workspace / "a.txt").read_text() == "hi\n"
    call, options = editor.permissions[0]
    assert "rm -rf build" in call.title and "HIGH" in call.title and call.kind == "execute"
    assert {o.kind for o in options} >= {"allow_once", "allow_always", "reject_once"}
    assert call.raw_input["risk"] == "HIGH" and "rm:rm" in call.raw_input["rules"]  # the editor hears which rule
    kinds = editor.kinds()
    assert "agent_message_chunk" in kinds and "tool_call" in kinds and "tool_call_update" in kinds and "plan" in kinds
    edit = next(u for u in editor.updates if u.session_update == "tool_call" and u.kind == "edit")
    assert edit.locations[0].path == "a.txt" and edit.content[0].type == "diff"
    assert "Cleaning up." in editor.text() and "Removed build/." in editor.text()


async def test_a_rejection_is_obeyed_and_allow_always_saves_the_apps_rule(
    serve, workspace: Path, isolated_home: Path
) -> None:
    (workspace / "build").mkdir()
    (workspace / "dist").mkdir()
    turns = [
        Turn.call("terminal", command="rm -rf build"),
        Turn.call("terminal", command="rm -rf dist"),
        Turn.finish("ok"),
    ]
    server = serve([Script(turns=turns)])
    editor = Editor(answers=["reject_once", "allow_always"])
    async with await _open(editor, server, workspace) as (conn, _):
        await conn.initialize(protocol_version=1)
        session = await conn.new_session(cwd=str(workspace), mcp_servers=[])
        await conn.prompt(session_id=session.session_id, prompt=[text_block("clean")])
    assert (workspace / "build").exists() and not (workspace / "dist").exists()
    saved = (isolated_home / "config" / "openhands-tui" / "permissions.toml").read_text()
    assert 'command = "rm -rf dist"' in saved and "exact = true" in saved


async def test_cancel_stops_a_running_prompt(serve, workspace: Path) -> None:
    server = serve([Script(turns=[Turn.call("terminal", command="sleep 30"), Turn.finish("late")])])
    editor = Editor()
    async with await _open(editor, server, workspace, ["--confirm", "never"]) as (conn, _):
        await conn.initialize(protocol_version=1)
        session = await conn.new_session(cwd=str(workspace), mcp_servers=[])
        running = asyncio.ensure_future(conn.prompt(session_id=session.session_id, prompt=[text_block("wait")]))
        for _ in range(200):
            if any(u.session_update == "tool_call" for u in editor.updates):
                break
            await asyncio.sleep(0.05)
        await conn.cancel(session_id=session.session_id)
        done = await asyncio.wait_for(running, 20)
        assert done.stop_reason == "cancelled"


async def test_modes_delegation_and_loading_a_session(serve, workspace: Path) -> None:
    fixture = Path(__file__).resolve().parents[1] / "fixtures" / "three_levels.py"
    server = serve(
        [
            Script(
                name="root",
                match="ROLE:root",
                turns=[Turn.call("delegate", agent="coder", task="code it"), Turn.finish("root done")],
            ),
            Script(
                name="coder",
                match="ROLE:coder",
                turns=[Turn.call("terminal", command="echo coding"), Turn.finish("coded")],
            ),
        ]
    )
    editor = Editor()
    async with await _open(editor, server, workspace, ["--strategy", str(fixture)]) as (conn, _):
        await conn.initialize(protocol_version=1)
        session = await conn.new_session(cwd=str(workspace), mcp_servers=[])
        await conn.set_session_mode(session_id=session.session_id, mode_id="always")
        assert (
            editor.updates[-1].session_update == "current_mode_update"
            and editor.updates[-1].current_mode_id == "always"
        )
        await conn.prompt(session_id=session.session_id, prompt=[text_block("go")])
    child = next(u for u in editor.updates if u.session_update == "tool_call" and u.title.startswith("coder"))
    progress = [
        u for u in editor.updates if u.session_update == "tool_call_update" and u.tool_call_id == child.tool_call_id
    ]
    assert any("echo coding" in (u.content[0].content.text if u.content else "") for u in progress)
    assert progress[-1].status == "completed"

    loaded = Editor()
    async with await _open(loaded, server, workspace, ["--strategy", str(fixture)]) as (conn, _):
        await conn.initialize(protocol_version=1)
        await conn.load_session(cwd=str(workspace), session_id=session.session_id, mcp_servers=[])
    replayed = loaded.kinds()
    assert "user_message_chunk" in replayed and "root done" in loaded.text()


async def test_stdout_carries_nothing_but_the_protocol(serve, workspace: Path) -> None:
    """A bad model is reported inside the protocol, and the process's stdout stays parseable,
    from a fresh start (anything an import printed would be there too)."""
    server = serve([Script(turns=[Turn(fault="401")])])
    editor = Editor()
    async with await _open(editor, server, workspace, fresh=True) as (conn, _):
        await conn.initialize(protocol_version=1)
        session = await conn.new_session(cwd=str(workspace), mcp_servers=[])
        done = await conn.prompt(session_id=session.session_id, prompt=[text_block("hi")])
    assert done.stop_reason == "end_turn" and "refused the credentials" in editor.text()


async def test_the_editors_mcp_servers_give_the_agent_tools(serve, workspace: Path) -> None:
    from acp.schema import EnvVariable, McpServerStdio

    calls = [ScriptedToolCall(name="clock__get_current_time", arguments={"timezone": "Asia/Tokyo"})]
    server = serve([Script(turns=[Turn(tool_calls=calls), Turn.finish("It is late in Tokyo.")])])
    editor = Editor()
    clock = McpServerStdio(
        name="clock",
        command=sys.executable,
        args=["-m", "mcp_server_time", "--local-timezone", "UTC"],
        env=[EnvVariable(name="TZ", value="UTC")],
    )
    async with await _open(editor, server, workspace) as (conn, _):
        init = await conn.initialize(protocol_version=1)
        assert init.agent_capabilities.mcp_capabilities.http
        session = await conn.new_session(cwd=str(workspace), mcp_servers=[clock])
        done = await conn.prompt(session_id=session.session_id, prompt=[text_block("time in Tokyo?")])
        assert done.stop_reason == "end_turn"
    sent = [m["content"] for m in server.requests[1].messages if m["role"] == "tool"]
    assert '"timezone": "Asia/Tokyo"' in sent[0]
    call = next(u for u in editor.updates if u.session_update == "tool_call")
    assert "clock" in call.title and "get_current_time" in call.title
