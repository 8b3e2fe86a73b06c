"""The condenser: long runs stay inside the window, cuts never split a call from its result,
a resumed agent rebuilds the same messages, and overflow errors condense and retry once."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from openhands_tui.sdk import Agent, Conversation, ConversationParts
from openhands_tui.sdk.context.condenser import Condenser, plan_cut
from openhands_tui.sdk.facts.event import Status
from openhands_tui.sdk.facts.store import SessionMeta, SessionStore
from openhands_tui.sdk.run.runtime import Limits
from openhands_tui.testing import Script, ScriptedToolCall, Turn
from openhands_tui.tools.preset.default import get_default_tools
from tests.conftest import llm_for
from tests.sdk.helpers import run

SUMMARIZER = Script(
    name="summarizer",
    match="You condense the middle",
    turns=[Turn(text="Summary: echoed the step numbers so far; all succeeded.", repeat=100)],
)


def _echo(n: int) -> Turn:
    return Turn(tool_calls=[ScriptedToolCall(name="terminal", arguments={"command": f"echo step {n}"})])


def _steps(count: int) -> list[Turn]:
    return [_echo(n) for n in range(count)] + [Turn.finish("all steps done")]


def _assert_well_formed(messages: list[dict[str, Any]]) -> None:
    """Every tool result follows the assistant message that made that call."""
    open_calls: set[str] = set()
    for message in messages:
        if message["role"] == "assistant":
            open_calls = {c["id"] for c in message.get("tool_calls") or ()}
        elif message["role"] == "tool":
            assert message["tool_call_id"] in open_calls, "a tool result lost its call"
        else:
            open_calls = set()


def test_plan_cut_keeps_calls_with_their_results() -> None:
    call = {
        "role": "assistant",
        "content": None,
        "tool_calls": [{"id": "a", "function": {"name": "t", "arguments": ""}}],
    }
    result = {"role": "tool", "tool_call_id": "a", "content": "ok"}
    messages = [{"role": "system", "content": "s"}, {"role": "user", "content": "task"}]
    messages += [call, result] * 10
    for keep_recent in range(2, 12):
        head, tail = plan_cut(messages, 1, keep_recent)  # type: ignore[misc]
        assert head == 2 and messages[tail]["role"] == "assistant"
        assert len(messages) - tail >= keep_recent
    assert plan_cut(messages[:6], 1, 4) is None  # nothing worth condensing


async def test_a_300_step_run_with_a_small_window_condenses_and_finishes(serve, workspace: Path) -> None:
    window = 7_000
    server = serve([SUMMARIZER, Script(turns=_steps(300))], context_window=window)
    agent = Agent(llm=llm_for(server, context_window=window), tools=get_default_tools())
    result = await run(agent, workspace, "echo the step numbers", limits=Limits(max_iterations=None))
    assert result.outcome.status is Status.FINISHED and result.outcome.result == "all steps done"
    condensations = result.kinds("condensation")
    assert len(condensations) >= 3 and all(c.reason == "tokens" and c.summarized for c in condensations)
    assert all(c.tokens_after < c.tokens_before for c in condensations)
    assert server.overflows == 0 and server.max_prompt_tokens <= window
    main = server.requests_for("default")
    assert len(main) == 301
    for request in main:
        _assert_well_formed(request.messages)
        assert request.messages[1]["content"].startswith("echo the step numbers")  # the task is kept
    assert "<CONDENSED_HISTORY>" in main[-1].messages[2]["content"]


async def test_resume_rebuilds_the_condensed_messages_exactly(serve, workspace: Path, tmp_path: Path) -> None:
    server = serve([SUMMARIZER, Script(turns=_steps(30))])
    condenser = Condenser(max_messages=24, keep_recent=6)
    agent = Agent(llm=llm_for(server), tools=get_default_tools(), condenser=condenser)
    store = SessionStore(tmp_path)
    log = store.create(SessionMeta(id="s"))
    first = await run(agent, workspace, "count", log=log)
    assert len(first.kinds("condensation")) >= 2
    live_messages = first.conversation.root.builder.messages
    conversation = Conversation(
        agent, workspace=workspace, parts=ConversationParts(history=store.open("s").load().events)
    )
    await conversation.open()
    assert conversation.root.builder.messages == live_messages
    await conversation.close()


async def test_a_context_window_error_condenses_and_retries_once(serve, workspace: Path) -> None:
    turns = [*(_echo(n) for n in range(10)), Turn(fault="context_window"), Turn.finish("fits now")]
    server = serve([SUMMARIZER, Script(turns=turns)])
    result = await run(Agent(llm=llm_for(server), tools=get_default_tools()), workspace, "go")
    assert result.outcome.status is Status.FINISHED and result.outcome.result == "fits now"
    [condensation] = result.kinds("condensation")
    assert condensation.reason == "overflow"


async def test_without_a_condenser_an_overflow_ends_the_run_clearly(serve, workspace: Path) -> None:
    server = serve([Script(turns=[_echo(0), Turn(fault="context_window")])])
    agent = Agent(llm=llm_for(server), tools=get_default_tools(), condenser=None)
    result = await run(agent, workspace, "go")
    assert result.outcome.status is Status.ERROR and result.outcome.exit_code == 1
    assert "does not fit the model's context window" in result.outcome.detail


async def test_a_failed_summary_leaves_a_note_and_the_run_goes_on(serve, workspace: Path) -> None:
    broken = Script(name="summarizer", match="You condense the middle", turns=[Turn(fault="500", repeat=20)])
    server = serve([broken, Script(turns=_steps(20))])
    agent = Agent(llm=llm_for(server), tools=get_default_tools(), condenser=Condenser(max_messages=20, keep_recent=6))
    result = await run(agent, workspace, "go")
    assert result.outcome.status is Status.FINISHED
    condensations = result.kinds("condensation")
    assert condensations and not condensations[0].summarized
    assert "the summary call failed" in condensations[0].summary


async def test_condensation_is_shown_in_the_app_and_the_transcript(serve, workspace: Path) -> None:
    import io

    from openhands_tui.headless import TranscriptPrinter
    from openhands_tui.tui.state import SessionView
    from openhands_tui.tui.widgets.entries import CondensationEntry, widget_for

    server = serve([SUMMARIZER, Script(turns=_steps(16))])
    agent = Agent(llm=llm_for(server), tools=get_default_tools(), condenser=Condenser(max_messages=20, keep_recent=6))
    result = await run(agent, workspace, "go")
    view, out = SessionView(), io.StringIO()
    printer = TranscriptPrinter(out)
    for event in result.events:
        view.apply(event)
        printer(event)
    entries = [e for e in view.transcript("root") if e.kind == "condensation"]
    assert len(entries) == len(result.kinds("condensation")) >= 1
    widget = widget_for(entries[0])
    assert isinstance(widget, CondensationEntry)
    assert str(widget.title()).startswith("⇊ condensed ") and "many messages" in str(widget.title())
    assert "⇊ condensed" in out.getvalue() and "(messages)" in out.getvalue()
