"""The app when a Claude answer ends oddly: refused (the run stops saying why, and a new
message carries on) or cut at the output token limit mid tool call (the call shows it did
not run, and why)."""

from __future__ import annotations

from pathlib import Path

from openhands_tui.sdk.run.answer_ending import CUT_OFF_CALL
from openhands_tui.testing import Script, ScriptedToolCall, Turn
from openhands_tui.tui.state import CUT_OFF_MARK
from tests.tui.conftest import SIZE, live_app, wait_until


async def test_a_refused_answer_stops_the_run_with_why_and_a_message_carries_on(serve, workspace: Path) -> None:
    refused = Turn(text="I can't help with that.", stop_reason="refusal")
    server = serve([Script(turns=[refused, Turn.finish("done another way")])], api="anthropic")
    app = live_app(server, workspace, task="do it")
    async with app.run_test(size=SIZE) as pilot:
        await wait_until(pilot, lambda: app.view.root_status == "error")
        entries = app.view.transcript("root")
        assert any(e.kind == "assistant" and e.text == "I can't help with that." for e in entries)
        notice = entries[-1]
        assert notice.kind == "notice" and notice.level == "error" and "content_filter" in notice.text
        assert "type a message to continue" in notice.text
        await pilot.press(*"try another way", "enter")
        await wait_until(pilot, lambda: app.view.root_status == "finished")
    assert server.refusals == []


async def test_a_call_cut_at_the_token_limit_shows_it_did_not_run(serve, workspace: Path) -> None:
    cut = Turn(
        tool_calls=[ScriptedToolCall(name="terminal", arguments='{"command": "touch cut_fi')], stop_reason="max_tokens"
    )
    server = serve([Script(turns=[cut, Turn.finish("ok")])], api="anthropic")
    app = live_app(server, workspace, task="make a file")
    async with app.run_test(size=SIZE) as pilot:
        await wait_until(pilot, lambda: app.view.root_status == "finished")
        tool = next(e for e in app.view.transcript("root") if e.kind == "tool")
        assert tool.data.get("error") == CUT_OFF_CALL
    assert not any(workspace.iterdir())


async def test_text_of_an_answer_whose_stream_failed_is_marked_and_the_retry_streams_apart(
    serve, workspace: Path
) -> None:
    turns = [
        Turn(text="Let me look at the files first", fault="overloaded_stream"),
        Turn(text="Listing.", tool_calls=[ScriptedToolCall(name="terminal", arguments={"command": "ls"})]),
        Turn.finish("ok"),
    ]
    server = serve([Script(turns=turns)], api="anthropic")
    app = live_app(server, workspace, task="look")
    async with app.run_test(size=SIZE) as pilot:
        await wait_until(pilot, lambda: app.view.root_status == "finished")
        said = [e for e in app.view.transcript("root") if e.kind == "assistant" and not e.data.get("final")]
        assert [e.text for e in said] == ["Let me look at the files first" + CUT_OFF_MARK, "Listing."]
        assert said[0].data["cut_off"] and not any(e.streaming for e in said)
