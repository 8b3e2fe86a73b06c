"""Stuck detection: each pattern fires at its threshold and not one step before, and a looping
run ends as stuck (exit 3) instead of spending its budget."""

from __future__ import annotations

import itertools
from pathlib import Path

import pytest

from openhands_tui.sdk import Agent
from openhands_tui.sdk.facts.event import ActionEvent, AgentErrorEvent, MessageEvent, ObservationEvent, Status
from openhands_tui.sdk.run.stuck import StuckDetector
from openhands_tui.testing import Script, ScriptedToolCall, Turn
from openhands_tui.tools.preset.default import get_default_tools
from tests.conftest import llm_for
from tests.sdk.helpers import run

_ids = itertools.count()


def _round(detector: StuckDetector, command: str, result: str, error: bool = False) -> None:
    call = f"c{next(_ids)}"
    detector.observe(ActionEvent(agent_id="a", tool_call_id=call, tool_name="terminal", arguments={"command": command}))
    if error:
        detector.observe(AgentErrorEvent(agent_id="a", tool_call_id=call, error=result))
    else:
        detector.observe(ObservationEvent(agent_id="a", tool_call_id=call, tool_name="terminal", content=result))


def _rounds_until_stuck(feed) -> int:
    detector = StuckDetector()
    for n in range(1, 30):
        feed(detector, n)
        if detector.verdict() is not None:
            return n
    raise AssertionError("never stuck")


def test_the_same_action_and_result_four_times() -> None:
    assert _rounds_until_stuck(lambda d, n: _round(d, "ls", "a b")) == 4


def test_the_same_action_and_error_three_times() -> None:
    assert _rounds_until_stuck(lambda d, n: _round(d, "cat x", "no such file", error=True)) == 3


def test_the_same_message_three_times() -> None:
    def feed(detector: StuckDetector, n: int) -> None:
        detector.observe(MessageEvent(agent_id="a", role="assistant", content="Let me check again."))
        _round(detector, f"ls {n}", "x")  # different actions: only the repeated words are stuck

    assert _rounds_until_stuck(feed) == 3


def test_two_actions_alternating_for_six_rounds() -> None:
    assert _rounds_until_stuck(lambda d, n: _round(d, "ls a" if n % 2 else "ls b", f"r{n % 2}")) == 6


def test_progress_and_user_turns_reset_it() -> None:
    detector = StuckDetector()
    for n in range(20):
        _round(detector, "pytest", f"{n} passed")  # same command, changing results: progress
    assert detector.verdict() is None
    for _ in range(3):
        _round(detector, "ls", "a")
    detector.observe(MessageEvent(agent_id="a", role="user", content="try harder"))
    _round(detector, "ls", "a")
    assert detector.verdict() is None


@pytest.mark.parametrize(
    ("turns", "reason"),
    [
        (
            [Turn(tool_calls=[ScriptedToolCall(name="terminal", arguments={"command": "ls"})], repeat=20)],
            "same result 4 times",
        ),
        (
            [
                Turn(
                    tool_calls=[ScriptedToolCall(name="file_editor", arguments={"command": "view", "path": "nope.py"})],
                    repeat=20,
                )
            ],
            "failed the same way 3 times",
        ),
    ],
)
async def test_a_looping_run_ends_as_stuck(serve, workspace: Path, turns: list[Turn], reason: str) -> None:
    server = serve([Script(turns=turns)])
    result = await run(Agent(llm=llm_for(server), tools=get_default_tools()), workspace, "loop")
    assert result.outcome.status is Status.STUCK and result.outcome.exit_code == 3
    assert reason in result.outcome.detail
    assert len(server.requests) <= 4
    assert result.kinds("status")[-1].status is Status.STUCK
