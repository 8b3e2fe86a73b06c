"""Critics judge an agent's work as it ends and send it back while the score is too low.

Real litellm over real HTTP to the scripted server; real git for the workspace's patch.
"""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest

from openhands_tui.sdk import Agent, Status
from openhands_tui.sdk.critic import (
    AgentFinishedCritic,
    AgentReviewCritic,
    EmptyPatchCritic,
    IterativeRefinementConfig,
    LLMCritic,
)
from openhands_tui.sdk.strategy import load_strategy
from openhands_tui.testing import Script, Turn
from openhands_tui.tools.preset.default import get_default_tools
from tests.conftest import llm_for
from tests.sdk.helpers import run

SDK_STYLE_STRATEGY = '''
from openhands_tui.sdk import LLM, Agent
from openhands_tui.sdk.critic import IterativeRefinementConfig
from openhands_tui.sdk.critic.base import CriticBase
from openhands_tui.sdk.critic.result import CriticResult
from openhands_tui.sdk.event import ActionEvent, LLMConvertibleEvent
from openhands_tui.sdk.strategy import Strategy
from openhands_tui.tools.preset.default import get_default_tools


class NeedsDone(CriticBase):
    """Written as for the OpenHands SDK: a synchronous evaluate(events, git_patch)."""

    def evaluate(self, events, git_patch=None):
        assert all(isinstance(e, LLMConvertibleEvent) for e in events)
        if not any(isinstance(e, ActionEvent) for e in events):
            return CriticResult(score=0.0, message="no action at all")
        if git_patch and "DONE.txt" in git_patch:
            return CriticResult(score=1.0, message="DONE.txt is there")
        return CriticResult(score=0.1, message="DONE.txt is missing")


class Refining(Strategy):
    name = "refining"

    def build_agent(self, llm: LLM, params=None) -> Agent:
        critic = NeedsDone(iterative_refinement=IterativeRefinementConfig(success_threshold=0.7, max_iterations=3))
        return Agent(llm=llm, tools=get_default_tools(), critic=critic)
'''


def _git_workspace(workspace: Path) -> Path:
    subprocess.run(["git", "init", "-q", str(workspace)], check=True)
    (workspace / "README.md").write_text("hello\n")
    subprocess.run(["git", "-C", str(workspace), "add", "README.md"], check=True)
    subprocess.run(
        ["git", "-C", str(workspace), "-c", "user.name=t", "-c", "user.email=t@t", "commit", "-qm", "first"],
        check=True,
    )
    return workspace


def _user_texts(request) -> list[str]:
    return [m["content"] for m in request.messages if m["role"] == "user" and isinstance(m["content"], str)]


async def test_a_strategy_written_against_the_sdks_critic_api_runs_a_refinement_round(
    serve, workspace: Path, tmp_path: Path
) -> None:
    _git_workspace(workspace)
    strategy_file = tmp_path / "refining.py"
    strategy_file.write_text(SDK_STYLE_STRATEGY)
    server = serve(
        [
            Script(
                turns=[
                    Turn.finish("all done"),
                    Turn.call("file_editor", command="create", path="DONE.txt", file_text="yes\n"),
                    Turn.finish("now really done"),
                ]
            )
        ]
    )
    agent = load_strategy(strategy_file).build_agent(llm_for(server), {})
    result = await run(agent, workspace, "make DONE.txt")
    assert result.outcome.status is Status.FINISHED
    assert result.outcome.result == "now really done"
    verdicts = result.kinds("critic")
    assert [(v.critic, v.score, v.refine, v.round) for v in verdicts] == [
        ("NeedsDone", 0.1, True, 1),
        ("NeedsDone", 1.0, False, 1),
    ]
    # the model was sent back with the critic's follow-up prompt, marked as the critic's
    follow_up = [m for m in result.kinds("message") if m.role == "user" and m.source == "critic"]
    assert len(follow_up) == 1 and "DONE.txt is missing" in follow_up[0].content
    assert "DONE.txt is missing" in _user_texts(server.requests[1])[-1]


async def test_refinement_stops_after_its_rounds_and_the_agent_ends_with_its_last_answer(
    serve, workspace: Path
) -> None:
    _git_workspace(workspace)
    server = serve([Script(turns=[Turn.finish("one"), Turn.finish("two"), Turn.finish("three")])])
    critic = EmptyPatchCritic(iterative_refinement=IterativeRefinementConfig(success_threshold=0.5, max_iterations=2))
    result = await run(Agent(llm=llm_for(server), critic=critic), workspace, "change something")
    assert result.outcome.status is Status.FINISHED and result.outcome.result == "three"
    assert [(v.score, v.refine) for v in result.kinds("critic")] == [(0.0, True), (0.0, True), (0.0, False)]
    assert len(server.requests) == 3


async def test_rounds_are_counted_per_user_message(serve, workspace: Path) -> None:
    _git_workspace(workspace)
    server = serve([Script(turns=[Turn.finish("a"), Turn.finish("b"), Turn.finish("c"), Turn.finish("d")])])
    critic = EmptyPatchCritic(iterative_refinement=IterativeRefinementConfig(max_iterations=1))
    result = await run(Agent(llm=llm_for(server), critic=critic), workspace, "first")
    outcome = await result.conversation.run("second")
    await result.conversation.close()
    assert result.outcome.result == "b" and outcome.result == "d"


async def test_an_llm_critic_scores_with_its_own_model_and_its_cost_is_recorded(serve, workspace: Path) -> None:
    _git_workspace(workspace)
    agent_server = serve(
        [
            Script(
                turns=[
                    Turn.finish("done"),
                    Turn.call("file_editor", command="create", path="tests.py", file_text="assert True\n"),
                    Turn.finish("done, with tests"),
                ]
            )
        ]
    )
    critic_server = serve([Script(turns=[Turn(text="SCORE: 0.3\nThere are no tests."), Turn(text="SCORE: 0.9")])])
    critic = LLMCritic(
        llm=llm_for(critic_server, model="openai/critic-model"),
        iterative_refinement=IterativeRefinementConfig(success_threshold=0.8),
    )
    result = await run(Agent(llm=llm_for(agent_server), tools=get_default_tools(), critic=critic), workspace, "add x")
    assert [(v.score, v.refine) for v in result.kinds("critic")] == [(0.3, True), (0.9, False)]
    assert result.kinds("critic")[0].message == "There are no tests."
    # the critic was shown the task, the answer and the patch with the new file
    shown = critic_server.requests[1].messages[-1]["content"]
    assert "add x" in shown and "done, with tests" in shown and "+++ b/tests.py" in shown
    assert sum(1 for u in result.kinds("llm_usage") if u.model == "openai/critic-model") == 2
    assert "There are no tests." in _user_texts(agent_server.requests[1])[-1]


async def test_an_agent_review_critic_runs_a_reviewer_in_the_tree_until_it_passes(serve, workspace: Path) -> None:
    _git_workspace(workspace)
    server = serve(
        [
            Script(
                name="reviewer",
                match_user="reviewing another agent",
                turns=[
                    Turn.finish('Needs work.\n```json\n{"decision": "not_pass", "summary": "add a docstring"}\n```'),
                    Turn.finish('```json\n{"decision": "pass", "summary": "fine now"}\n```'),
                ],
            ),
            Script(
                name="coder",
                turns=[
                    Turn.call("file_editor", command="create", path="m.py", file_text="x = 1\n"),
                    Turn.finish("wrote m.py"),
                    Turn.call("file_editor", command="create", path="m2.py", file_text='"""Doc."""\n'),
                    Turn.finish("added the docstring"),
                ],
            ),
        ]
    )
    critic = AgentReviewCritic(iterative_refinement=IterativeRefinementConfig(success_threshold=1.0))
    agent = Agent(llm=llm_for(server), tools=get_default_tools(), critic=critic)
    result = await run(agent, workspace, "write m.py")
    assert result.outcome.result == "added the docstring"
    assert [(v.score, v.message, v.refine) for v in result.kinds("critic")] == [
        (0.0, "add a docstring", True),
        (1.0, "fine now", False),
    ]
    opened = result.kinds("delegation_opened")
    assert [(o.agent_name, o.parent_agent_id) for o in opened] == [("reviewer", "root"), ("reviewer", "root")]
    assert "+++ b/m.py" in opened[0].task  # the reviewer was given the diff


async def test_a_failing_critic_is_said_and_the_agent_ends_as_it_would_have(serve, workspace: Path) -> None:
    server = serve([Script(turns=[Turn.finish("done")])])
    critic_server = serve([Script(turns=[Turn(fault="401")])])
    critic = LLMCritic(llm=llm_for(critic_server), iterative_refinement=IterativeRefinementConfig())
    result = await run(Agent(llm=llm_for(server), critic=critic), workspace, "go")
    assert result.outcome.status is Status.FINISHED and result.outcome.result == "done"
    (verdict,) = result.kinds("critic")
    assert verdict.score is None and verdict.error and not verdict.refine


async def test_outside_a_git_repository_the_patch_critics_say_why_they_fail(serve, workspace: Path) -> None:
    server = serve([Script(turns=[Turn.finish("done")])])
    result = await run(Agent(llm=llm_for(server), critic=AgentFinishedCritic()), workspace, "go")
    (verdict,) = result.kinds("critic")
    assert verdict.score == 0.0 and "not a git repository" in verdict.message


async def test_a_critic_in_all_actions_mode_judges_after_each_step(serve, workspace: Path) -> None:
    _git_workspace(workspace)
    server = serve(
        [Script(turns=[Turn.call("terminal", command="true"), Turn.call("terminal", command="true"), Turn.finish()])]
    )
    critic = AgentFinishedCritic(mode="all_actions")
    result = await run(Agent(llm=llm_for(server), tools=get_default_tools(), critic=critic), workspace, "go")
    assert [v.ending for v in result.kinds("critic")] == [False, False, True]


def test_the_openhands_critic_service_is_refused_in_one_line(tmp_path: Path) -> None:
    strategy = tmp_path / "api.py"
    strategy.write_text(
        "from openhands_tui.sdk import Agent\n"
        "from openhands_tui.sdk.critic import APIBasedCritic\n"
        "from openhands_tui.sdk.strategy import Strategy\n\n"
        "class S(Strategy):\n"
        "    def build_agent(self, llm, params=None):\n"
        "        critic = APIBasedCritic(server_url='http://x', api_key='k', model_name='critic')\n"
        "        return Agent(llm=llm, critic=critic)\n"
    )
    loaded = load_strategy(strategy)
    with pytest.raises(Exception) as raised:
        loaded.build_agent(llm_for_nothing(), {})
    assert "APIBasedCritic(...) is not supported" in str(raised.value)
    assert "LLMCritic" in str(raised.value) and "\n" not in str(raised.value)


def llm_for_nothing():
    from openhands_tui.sdk import LLM

    return LLM(model="openai/none", base_url="http://127.0.0.1:9", api_key="k")
