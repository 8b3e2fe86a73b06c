"""`tui acp` answers whatever legal (or illegal) JSON an editor sends and keeps serving: a bare
number, `null`, a JSON-RPC batch or a line that is not JSON each get a JSON-RPC error with a
null id; a message over the size limit is dropped unread; the agent neither dies with a
traceback nor ends silently, and answers the next good request."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

import pytest

from openhands_tui.acp.guarded_input import MAX_MESSAGE_BYTES
from openhands_tui.testing import Script, Turn
from tests.acp.test_acp import _env, _tui

INITIALIZE = {"jsonrpc": "2.0", "id": 7, "method": "initialize", "params": {"protocolVersion": 1}}


def _lines(*messages: bytes) -> bytes:
    return b"".join(message + b"\n" for message in messages)


@pytest.mark.parametrize(
    ("sent", "code", "says"),
    [
        (b"42", -32600, "expected a JSON object, got a number"),
        (b"null", -32600, "expected a JSON object, got null"),
        (b'"hello"', -32600, "expected a JSON object, got a string"),
        (b"[" + json.dumps(INITIALIZE).encode() + b"]", -32600, "batches are not supported"),
        (b"{not json", -32700, "not JSON"),
    ],
    ids=["number", "null", "string", "batch", "garbage"],
)
def test_a_message_that_is_not_one_object_is_answered_and_the_agent_goes_on(
    serve, workspace: Path, sent: bytes, code: int, says: str
) -> None:
    server = serve([Script(turns=[Turn.finish("unused")])])
    command, args = _tui(server)
    result = subprocess.run(
        [command, *args],
        input=_lines(sent, json.dumps(INITIALIZE).encode()),
        capture_output=True,
        env=_env(),
        cwd=workspace,
        timeout=60,
    )
    assert result.returncode == 0, result.stderr.decode(errors="replace")
    assert b"Traceback" not in result.stderr
    answers = [json.loads(line) for line in result.stdout.splitlines()]
    assert answers[0]["id"] is None and answers[0]["error"]["code"] == code
    assert says in answers[0]["error"]["message"]
    assert answers[1]["id"] == 7 and answers[1]["result"]["protocolVersion"] == 1


def test_a_message_over_the_limit_is_dropped_unread(serve, workspace: Path) -> None:
    server = serve([Script(turns=[Turn.finish("unused")])])
    command, args = _tui(server)
    huge = {**INITIALIZE, "id": 1, "params": {"protocolVersion": 1, "padding": "x" * (MAX_MESSAGE_BYTES + 10)}}
    result = subprocess.run(
        [command, *args],
        input=_lines(json.dumps(huge).encode(), json.dumps(INITIALIZE).encode()),
        capture_output=True,
        env=_env(),
        cwd=workspace,
        timeout=120,
    )
    assert result.returncode == 0 and b"Traceback" not in result.stderr
    answers = [json.loads(line) for line in result.stdout.splitlines()]
    assert [answer["id"] for answer in answers] == [None, 7]  # the huge one was never answered as a request
    assert "over the" in answers[0]["error"]["message"]


async def test_a_prompt_over_the_input_limit_is_refused_and_nothing_reaches_the_model(serve, workspace: Path) -> None:
    from acp import text_block

    from tests.acp.test_acp import Editor, _open

    server = serve([Script(turns=[Turn.finish("never")])])
    editor = Editor()
    async with await _open(editor, server, workspace) as (conn, _process):
        await conn.initialize(protocol_version=1)
        session = await conn.new_session(cwd=str(workspace), mcp_servers=[])
        done = await conn.prompt(session_id=session.session_id, prompt=[text_block("x" * 1_000_001)])
    assert done.stop_reason == "end_turn"
    assert "over the 1,000,000-byte limit; nothing was sent" in editor.text()
    assert not server.requests
