"""Resuming from events.jsonl: the same messages, interrupted actions, unanswered confirmations."""

from __future__ import annotations

from pathlib import Path

from openhands_tui.sdk import Agent, Status
from openhands_tui.sdk.facts.store import SessionMeta, SessionStore
from openhands_tui.sdk.run.actions import INTERRUPTED_TEXT
from openhands_tui.sdk.run.confirmation import Decision
from openhands_tui.testing import Script, ScriptedToolCall, Turn
from openhands_tui.tools.preset.default import get_default_tools
from tests.conftest import llm_for
from tests.sdk.helpers import ScriptedConfirmer, run


def _agent(server) -> Agent:
    return Agent(llm=llm_for(server), tools=get_default_tools())


def _copy_until(store: SessionStore, source: str, target: str, keep) -> None:
    """A new session holding the events of `source` up to and including the first `keep` match."""
    events = store.open(source).load().events
    log = store.create(SessionMeta(id=target))
    for event in events:
        log.append(event)
        if keep(event):
            break
    log.close()


async def test_resume_sends_exactly_the_stored_conversation(serve, workspace: Path, tmp_path: Path) -> None:
    store = SessionStore(tmp_path / "state")
    server = serve(
        [
            Script(
                turns=[
                    Turn.call("terminal", command="echo one"),
                    Turn.finish("first done"),
                    Turn.call("terminal", command="echo two"),
                    Turn.finish("second done"),
                ]
            )
        ]
    )
    first = await run(_agent(server), workspace, "first task", log=store.create(SessionMeta(id="s")))
    assert first.outcome.status is Status.FINISHED
    before = server.requests[-1].messages

    log = store.open("s")
    history = log.load().events
    second = await run(_agent(server), workspace, "second task", log=log, history=history)
    assert second.outcome.result == "second done"
    resumed_first_request = server.requests[2].messages
    assert resumed_first_request[: len(before)] == before
    assert resumed_first_request[-1] == {"role": "user", "content": "second task"}  # no workspace block twice
    assert not any(e.kind == "system_prompt" for e in second.events)


async def test_finished_session_needs_a_new_task(serve, workspace: Path, tmp_path: Path) -> None:
    import pytest

    from openhands_tui.sdk.errors import SessionError

    store = SessionStore(tmp_path / "state")
    server = serve([Script(turns=[Turn.finish("done")])])
    await run(_agent(server), workspace, "task", log=store.create(SessionMeta(id="s")))
    log = store.open("s")
    with pytest.raises(SessionError, match="nothing to continue"):
        await run(_agent(server), workspace, None, log=log, history=log.load().events)


async def test_an_action_without_observation_is_marked_interrupted_not_rerun(
    serve, workspace: Path, tmp_path: Path
) -> None:
    store = SessionStore(tmp_path / "state")
    server = serve(
        [
            Script(
                turns=[
                    Turn.call("terminal", command="echo ran >> count.txt"),
                    Turn.finish("a"),
                    Turn.finish("after resume"),
                ]
            )
        ]
    )
    await run(_agent(server), workspace, "go", log=store.create(SessionMeta(id="full")))
    assert (workspace / "count.txt").read_text() == "ran\n"
    _copy_until(store, "full", "cut", lambda e: e.kind == "action")  # as if killed while the tool ran

    log = store.open("cut")
    resumed = await run(_agent(server), workspace, None, log=log, history=log.load().events)
    assert resumed.outcome.result == "after resume"
    interrupted = resumed.kinds("observation")[0]
    assert interrupted.outcome == "interrupted" and interrupted.content.startswith(INTERRUPTED_TEXT)
    assert "may still be running" in interrupted.content  # no sandbox known to have ended them
    assert (workspace / "count.txt").read_text() == "ran\n"  # never re-run silently
    assert server.requests[-1].messages[-1]["content"] == interrupted.content


async def test_an_unanswered_confirmation_is_asked_again(serve, workspace: Path, tmp_path: Path) -> None:
    store = SessionStore(tmp_path / "state")
    risky = Turn(
        tool_calls=[
            ScriptedToolCall(
                name="terminal", arguments={"command": "echo approved >> log.txt", "security_risk": "HIGH"}
            )
        ]
    )
    server = serve([Script(turns=[risky, Turn.finish("a"), Turn.finish("after resume")])])
    await run(
        _agent(server),
        workspace,
        "go",
        log=store.create(SessionMeta(id="full")),
        confirmer=ScriptedConfirmer([Decision(approved=False)]),
    )
    assert not (workspace / "log.txt").exists()
    _copy_until(store, "full", "cut", lambda e: e.kind == "confirmation_requested")  # killed while asking

    log = store.open("cut")
    confirmer = ScriptedConfirmer([Decision(approved=True)])
    resumed = await run(_agent(server), workspace, None, log=log, history=log.load().events, confirmer=confirmer)
    assert [r.summary for r in confirmer.requests] == ["$ echo approved >> log.txt"]
    assert (workspace / "log.txt").read_text() == "approved\n"
    assert resumed.outcome.result == "after resume"


async def test_task_tracker_plan_survives_resume(serve, workspace: Path, tmp_path: Path) -> None:
    store = SessionStore(tmp_path / "state")
    plan = Turn.call("task_tracker", command="plan", task_list=[{"title": "write tests", "status": "in_progress"}])
    server = serve(
        [Script(turns=[plan, Turn.finish("a"), Turn.call("task_tracker", command="view"), Turn.finish("b")])]
    )
    await run(_agent(server), workspace, "go", log=store.create(SessionMeta(id="s")))
    log = store.open("s")
    resumed = await run(_agent(server), workspace, "again", log=log, history=log.load().events)
    assert "1. [~] write tests" in resumed.kinds("observation")[0].content
