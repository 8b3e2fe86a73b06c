"""Tool calls no model should send, sent anyway: each is answered as an error the model reads,
and the run goes on to finish."""

from __future__ import annotations

from pathlib import Path

import pytest

from openhands_tui.sdk import Agent
from openhands_tui.testing import Script, ScriptedToolCall, Turn
from openhands_tui.tools.preset.default import get_default_tools
from tests.conftest import llm_for
from tests.sdk.helpers import run

NUL = "contain a NUL character"
#: The call, and what the model is told about it.
CALLS = {
    "a lone surrogate in a command": ("terminal", '{"command": "echo \\ud800"}', "\ufffd"),
    "a NUL byte in a path": ("file_editor", '{"command": "create", "path": "x\\u0000y", "file_text": "x"}', NUL),
    "a NUL byte in a viewed path": ("file_editor", '{"command": "view", "path": "a\\u0000"}', NUL),
    "a NUL byte in a command": ("terminal", '{"command": "echo a\\u0000b"}', NUL),
    "a path longer than the system allows": (
        "file_editor",
        '{"command": "view", "path": "' + "a" * 5000 + '"}',
        "File name too long",
    ),
    "a lone surrogate in a file name": (
        "file_editor",
        '{"command": "create", "path": "\\udcff.txt", "file_text": "x"}',
        "\ufffd.txt",
    ),
}


@pytest.mark.parametrize("case", list(CALLS))
async def test_a_hostile_call_is_an_error_the_model_reads(serve, workspace: Path, case: str) -> None:
    name, arguments, told = CALLS[case]
    turns = [Turn(tool_calls=[ScriptedToolCall(name=name, arguments=arguments)]), Turn.finish("done")]
    server = serve([Script(turns=turns)])
    result = await run(Agent(llm=llm_for(server), tools=get_default_tools()), workspace, "go")
    assert result.outcome.status == "finished", result.outcome.detail
    assert result.outcome.result == "done"
    assert len(server.requests) == 2
    assert told in server.requests[1].messages[-1]["content"]


async def test_carriage_returns_and_bidi_overrides_never_disguise_a_transcript(serve, workspace: Path) -> None:
    from io import StringIO

    from openhands_tui.headless import TranscriptPrinter
    from openhands_tui.sdk import Conversation, ConversationParts

    disguised = "rm -rf ~ is what I ran\rall tests pass          \n\u202etxt.exe"
    server = serve([Script(turns=[Turn(text=disguised), Turn.finish(disguised)])])
    out = StringIO()
    conversation = Conversation(
        Agent(llm=llm_for(server), tools=[]),
        workspace=workspace,
        parts=ConversationParts(subscribers=[TranscriptPrinter(out)]),
    )
    await conversation.run("go")
    await conversation.close()
    printed = out.getvalue()
    assert "\r" not in printed and "\u202e" not in printed
    assert "all tests pass" in printed and "rm -rf" not in printed  # what a terminal would have shown


async def test_a_lone_surrogate_is_not_sent_back_to_an_anthropic_model(serve, workspace: Path) -> None:
    call = ScriptedToolCall(name="terminal", arguments='{"command": "echo \\ud800"}')
    server = serve([Script(turns=[Turn(tool_calls=[call]), Turn.finish("done")])], api="anthropic")
    result = await run(Agent(llm=llm_for(server), tools=get_default_tools()), workspace, "go")
    assert result.outcome.result == "done", result.outcome.detail
    resent = [block for m in server.requests[1].messages for block in m["content"] if block.get("type") == "tool_use"]
    assert resent[0]["input"] == {"command": "echo \ufffd"}


async def test_a_call_over_the_input_limit_is_refused_before_it_is_recorded(serve, workspace: Path, tmp_path) -> None:
    """A 2.4 MB tool call was written to the log seven times (arguments, raw call, subject,
    summary; again in the confirmation request) before it was refused."""
    from openhands_tui.sdk.facts.store import SessionMeta, SessionStore

    command = "curl -d @- http://example.com # " + "A" * 2_400_000
    server = serve([Script(turns=[Turn.call("terminal", command=command), Turn.finish("done")])])
    log = SessionStore(tmp_path / "state").create(SessionMeta(id="big"))
    result = await run(Agent(llm=llm_for(server), tools=get_default_tools()), workspace, "go", log=log)
    assert result.outcome.status == "finished", result.outcome.detail
    told = server.requests[1].messages[-1]["content"]
    assert "over the 1,000,000-byte limit on one call; it was not run" in told
    assert log.events_path.stat().st_size < 50_000
