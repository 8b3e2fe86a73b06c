"""One result must never kill a session, and the engine must never freeze: hostile inputs to
the tools and the model client, each bounded in size and time."""

from __future__ import annotations

import asyncio
import json
import os
import time
from pathlib import Path

import pytest

from openhands_tui.executors.local.files import MAX_UNDO_DEPTH
from openhands_tui.sdk import Agent, Conversation, ConversationParts
from openhands_tui.sdk.sandbox import SandboxPolicy
from openhands_tui.sdk.tool import ToolContext
from openhands_tui.testing import Script, ScriptedToolCall, Turn
from openhands_tui.tools.file_editor import FileEditorAction, FileEditorTool
from openhands_tui.tools.preset.default import get_default_tools
from tests.conftest import llm_for
from tests.sdk.helpers import run


async def _edit(tool: FileEditorTool, **arguments: object):
    return await tool.run(FileEditorAction.model_validate(arguments))


@pytest.fixture
async def editor(workspace: Path):
    tool = FileEditorTool(ToolContext(workspace=workspace, agent_id="root"))
    yield tool
    await tool.close()


async def test_a_directory_of_100000_files_is_a_short_listing(editor: FileEditorTool, workspace: Path) -> None:
    crowd = workspace / "crowd"
    crowd.mkdir()
    for n in range(100_000):
        (crowd / f"f{n:06d}.txt").touch()
    (workspace / "a.txt").touch()
    started = time.monotonic()
    listing = await _edit(editor, command="view", path=".")
    assert time.monotonic() - started < 5
    assert len(listing.text) < 10_000 and "crowd/f000000.txt" in listing.text
    assert "99,950 more entries" in listing.text and "a.txt" in listing.text


async def test_a_string_found_200000_times_is_answered_at_once(editor: FileEditorTool, workspace: Path) -> None:
    (workspace / "big.txt").write_text("x\n" * 200_000)
    started = time.monotonic()
    several = await _edit(editor, command="str_replace", path="big.txt", old_str="x", new_str="y")
    assert time.monotonic() - started < 3
    assert several.is_error and "appears 200,000 times" in several.text and len(several.text) < 1_000


async def test_pipes_and_devices_are_refused_without_blocking(editor: FileEditorTool, workspace: Path) -> None:
    os.mkfifo(workspace / "pipe")
    for path in (str(workspace / "pipe"), "/dev/zero"):
        result = await asyncio.wait_for(_edit(editor, command="view", path=path), 5)
        assert result.is_error and "not a regular file" in result.text


async def test_a_huge_file_is_refused_for_edits_and_viewable_by_range(editor: FileEditorTool, workspace: Path) -> None:
    huge = workspace / "huge.log"
    with open(huge, "wb") as handle:
        handle.truncate(200 * 1024 * 1024)  # sparse: 200 MB without writing them
    refused = await _edit(editor, command="insert", path="huge.log", insert_line=0, new_str="x")
    assert refused.is_error and "more than the editor works on" in refused.text and len(refused.diff) == 0
    lines = workspace / "lines.log"
    lines.write_text("".join(f"line {n}\n" for n in range(1, 300_001)))
    window = await _edit(editor, command="view", path="lines.log", view_range=[150_000, 150_002])
    assert window.text.splitlines()[1:] == ["150000\tline 150000", "150001\tline 150001", "150002\tline 150002"]


async def test_undo_history_lives_on_disk_and_is_bounded(editor: FileEditorTool, workspace: Path) -> None:
    big = workspace / "big.txt"
    big.write_text("a\n" * 1_000_000)  # 2 MB
    for n in range(MAX_UNDO_DEPTH + 3):
        done = await _edit(editor, command="insert", path="big.txt", insert_line=0, new_str=f"edit {n}")
        assert not done.is_error and len(done.diff) < 2_000  # the diff of a one-line insert, not of 2 MB
    stored = list(editor.editor.undo.directory.iterdir())
    assert len(stored) == MAX_UNDO_DEPTH
    await _edit(editor, command="undo_edit", path="big.txt")
    assert big.read_text().startswith(f"edit {MAX_UNDO_DEPTH + 1}\n")


async def test_crlf_files_keep_their_line_endings(editor: FileEditorTool, workspace: Path) -> None:
    path = workspace / "win.txt"
    path.write_bytes(b"one\r\ntwo\r\nthree\r\n")
    await _edit(editor, command="insert", path="win.txt", insert_line=1, new_str="a\nb")
    await _edit(editor, command="str_replace", path="win.txt", old_str="two\nthree", new_str="2\n3")
    assert path.read_bytes() == b"one\r\na\r\nb\r\n2\r\n3\r\n"


async def test_the_engine_survives_odd_text_and_odd_file_names(serve, workspace: Path) -> None:
    os.close(os.open(os.path.join(os.fsencode(workspace), b"caf\xe9.txt"), os.O_CREAT | os.O_WRONLY))
    split_emoji = "x" * 11 + "\ud83d" + "\ude00" + " and a lone \udc80 one"  # halves land in separate chunks
    turns = [
        Turn(
            text=split_emoji,
            tool_calls=[ScriptedToolCall(name="file_editor", arguments={"command": "view", "path": "."})],
        ),
        Turn.finish("done"),
    ]
    server = serve([Script(turns=turns)])
    result = await run(Agent(llm=llm_for(server), tools=get_default_tools()), workspace, "look")
    assert result.outcome.status == "finished", result.outcome.detail
    said = result.kinds("message")[1].content
    assert said.startswith("x" * 11 + "\U0001f600") and "\ufffd" in said
    assert "caf\ufffd.txt" in result.kinds("observation")[0].content


async def test_nothing_runs_after_finish_in_the_same_response(serve, workspace: Path) -> None:
    calls = [
        ScriptedToolCall(name="finish", arguments={"message": "all done"}),
        ScriptedToolCall(name="terminal", arguments={"command": "touch after-finish"}),
    ]
    server = serve([Script(turns=[Turn(tool_calls=calls)])])
    result = await run(Agent(llm=llm_for(server), tools=get_default_tools()), workspace, "go")
    assert result.outcome.result == "all done" and not (workspace / "after-finish").exists()
    skipped = [o for o in result.kinds("observation") if o.tool_name == "terminal"]
    assert skipped and skipped[0].outcome == "rejected" and "finish" in skipped[0].content


async def test_a_huge_create_is_refused_and_never_resent(serve, workspace: Path) -> None:
    huge = "y" * 3_000_000
    turns = [Turn.call("file_editor", command="create", path="huge.txt", file_text=huge), Turn.finish("gave up")]
    server = serve([Script(turns=turns)])
    result = await run(Agent(llm=llm_for(server), tools=get_default_tools()), workspace, "write it")
    assert not (workspace / "huge.txt").exists()
    assert len(json.dumps(server.requests[1].messages)) < 50_000  # the 3 MB call is not sent back
    assert "calls are limited" in server.requests[1].messages[-1]["content"]
    assert result.outcome.status == "finished"


async def test_a_big_create_is_written_and_sent_back_shortened(serve, workspace: Path) -> None:
    body = "z" * 400_000
    turns = [Turn.call("file_editor", command="create", path="big.txt", file_text=body), Turn.finish("made")]
    server = serve([Script(turns=turns)])
    await run(Agent(llm=llm_for(server), tools=get_default_tools()), workspace, "write it")
    assert (workspace / "big.txt").read_text() == body
    resent = json.dumps(server.requests[1].messages)
    assert len(resent) < 20_000 and "omitted from the history" in resent


async def test_a_result_too_big_for_the_window_is_shortened_not_fatal(serve, workspace: Path) -> None:
    (workspace / "wide.txt").write_text("w" * 29_000)
    turns = [Turn.call("file_editor", command="view", path="wide.txt"), Turn.finish("read it")]
    server = serve([Script(turns=turns)], context_window=4_000)
    result = await run(
        Agent(llm=llm_for(server, context_window=4_000), tools=get_default_tools()), workspace, "read it"
    )
    assert result.outcome.status == "finished", result.outcome.detail
    assert result.kinds("results_truncated") and server.overflows == 0
    assert "dropped to fit the context window" in server.requests[-1].messages[-1]["content"] or any(
        "dropped to fit" in (m.get("content") or "") for m in server.requests[-1].messages
    )


async def test_a_trickling_stream_meets_its_deadline(serve, workspace: Path) -> None:
    slow = Turn(text="a" * 240, chunk_delay=0.2)  # 20 chunks, 4 s in all
    server = serve([Script(turns=[slow, slow, Turn.finish("quick")])])
    llm = llm_for(server, timeout=1.0, num_retries=2)
    started = time.monotonic()
    result = await run(Agent(llm=llm, tools=[]), workspace, "go")
    assert time.monotonic() - started < 8
    assert result.outcome.result == "quick"
    assert any("did not complete within 1s" in e.error for e in result.kinds("agent_error"))


async def test_escape_sequences_never_reach_a_transcript(serve, workspace: Path) -> None:
    from io import StringIO

    from openhands_tui.headless import TranscriptPrinter

    evil = "\x1b]52;c;cm0gLXJmIH4=\x07\x1b]0;pwned\x07\x1b[2J"
    turns = [
        Turn(
            text=f"hi{evil}",
            tool_calls=[ScriptedToolCall(name="terminal", arguments={"command": f"printf '{evil}\\0bin'"})],
        ),
        Turn.finish(f"bye{evil}"),
    ]
    server = serve([Script(turns=turns)])
    out = StringIO()
    conversation = Conversation(
        Agent(llm=llm_for(server), tools=get_default_tools()),
        workspace=workspace,
        parts=ConversationParts(subscribers=[TranscriptPrinter(out)], sandbox=SandboxPolicy(mode="off")),
    )
    await conversation.run("go")
    await conversation.close()
    printed = out.getvalue()
    assert "\x1b" not in printed and "\x07" not in printed and "\0" not in printed
    assert "hi" in printed and "bin" in printed
    sent_back = server.requests[1].messages[-1]["content"]
    assert "\x1b" not in sent_back and "\0" not in sent_back  # the model is not sent control bytes either
