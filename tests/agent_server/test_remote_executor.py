"""`--executor agent-server:URL` against a real OpenHands agent-server from PyPI (on a loopback
port of our choosing): the agent's files are made on the server's side and none here, its shell
keeps `cd` and exported variables between commands, the rules rate and refuse as locally, and the
server's key, taken from the environment, is in no event or log."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from openhands_tui.testing import Script, ScriptedToolCall, Turn
from tests.agent_server_fixture import AgentServer
from tests.conftest import model_args, run_tui

pytestmark = pytest.mark.subprocess


def _call(name: str, **arguments: object) -> Turn:
    return Turn(tool_calls=[ScriptedToolCall(name=name, arguments=arguments)])


def _run(agent_server: AgentServer, model, remote: Path, here: Path, *extra: str, key: str | None = None):
    env = {"SESSION_API_KEY": agent_server.key if key is None else key}
    return run_tui(
        "--headless", "--task", "build it", *model_args(model),
        "--executor", f"agent-server:{agent_server.url}", "--workspace", str(remote), *extra,
        cwd=here, env=env, fresh=True,
    )  # fmt: skip


def test_files_are_made_on_the_servers_side_and_the_shell_keeps_its_state(
    agent_server: AgentServer, serve, tmp_path: Path
) -> None:
    remote, here = tmp_path / "on-the-server", tmp_path / "here"
    remote.mkdir()
    here.mkdir()
    model = serve(
        [
            Script(
                turns=[
                    _call("file_editor", command="create", path="notes/hello.txt", file_text="one\ntwo\n"),
                    _call("file_editor", command="str_replace", path="notes/hello.txt", old_str="two", new_str="TWO"),
                    _call("terminal", command="cd notes && export GREETING=hi"),
                    _call("terminal", command='echo "$GREETING from $(pwd)"; cat hello.txt'),
                    Turn.finish("done remotely"),
                ]
            )
        ]
    )
    finished = _run(agent_server, model, remote, here)
    assert finished.returncode == 0, finished.stderr
    assert (remote / "notes" / "hello.txt").read_text() == "one\nTWO\n"
    assert os.listdir(here) == []  # nothing made on this side
    said = [m for m in model.requests[4].messages if m["role"] == "tool"][-1]["content"]
    assert f"hi from {remote}/notes" in said and "TWO" in said
    state = Path(os.environ["XDG_STATE_HOME"]) / "openhands-tui"
    for path in state.rglob("*"):
        if path.is_file():
            assert agent_server.key.encode() not in path.read_bytes(), path


def test_a_resumed_session_goes_back_to_its_server_without_keeping_the_key(
    agent_server: AgentServer, serve, tmp_path: Path
) -> None:
    from openhands_tui.sdk.facts.store import SessionStore

    remote, here = tmp_path / "srv", tmp_path / "here"
    remote.mkdir()
    here.mkdir()
    turns = [
        _call("file_editor", command="create", path="a.txt", file_text="a\n"),
        Turn.finish("first done"),
        _call("file_editor", command="create", path="b.txt", file_text="b\n"),
        Turn.finish("done again"),
    ]
    model = serve([Script(turns=turns)])  # each request takes the next turn, across both runs
    first = _run(agent_server, model, remote, here)
    assert first.returncode == 0, first.stderr
    state = Path(os.environ["XDG_STATE_HOME"]) / "openhands-tui"
    ((meta, _when),) = SessionStore(state).recent()
    assert meta.executor == f"agent-server:{agent_server.url}"
    again = run_tui(
        "--headless",
        "--task",
        "again",
        *model_args(model),
        "--resume",
        meta.id,
        cwd=here,
        env={"SESSION_API_KEY": agent_server.key},
        fresh=True,
    )
    assert again.returncode == 0, again.stderr
    assert sorted(os.listdir(remote)) == ["a.txt", "b.txt"] and os.listdir(here) == []


def test_the_rules_rate_a_remote_command_as_a_local_one(agent_server: AgentServer, serve, tmp_path: Path) -> None:
    remote, here = tmp_path / "srv", tmp_path / "here"
    (remote / "build").mkdir(parents=True)
    here.mkdir()
    model = serve([Script(turns=[_call("terminal", command="rm -rf build"), Turn.finish("stopped")])])
    finished = _run(agent_server, model, remote, here)
    assert finished.returncode == 0, finished.stderr
    assert (remote / "build").is_dir()  # HIGH, and no one to ask headless: refused
    assert "Rejected" in [m for m in model.requests[1].messages if m["role"] == "tool"][-1]["content"]


def test_a_wrong_key_or_a_relative_workspace_is_one_line_and_exit_2(
    agent_server: AgentServer, serve, tmp_path: Path
) -> None:
    model = serve([Script(turns=[Turn.finish()])])
    (tmp_path / "srv").mkdir()
    wrong = _run(agent_server, model, tmp_path / "srv", tmp_path, key="not-the-key")
    assert wrong.returncode == 2 and "refused the key" in wrong.stderr
    assert wrong.stderr.strip().count("\n") == 0 and "not-the-key" not in wrong.stderr
    relative = run_tui(
        "--headless", "--task", "x", *model_args(model),
        "--executor", f"agent-server:{agent_server.url}", "--workspace", "relative/dir",
        cwd=tmp_path, fresh=True,
    )  # fmt: skip
    assert relative.returncode == 2 and "absolute path on the agent-server" in relative.stderr
    assert model.requests == []


async def test_one_agent_remote_its_parent_local(
    agent_server: AgentServer, serve, workspace: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from openhands_tui.sdk import Agent, AgentContext
    from openhands_tui.sdk.tool import Tool
    from openhands_tui.tools.delegate import register_agent
    from tests.conftest import llm_for
    from tests.sdk.helpers import run

    monkeypatch.setenv("SESSION_API_KEY", agent_server.key)
    remote = tmp_path / "coder-on-the-server"
    remote.mkdir()

    def coder(llm):
        return Agent(
            llm=llm,
            name="coder",
            tools=[Tool(name="FileEditorTool"), Tool(name="TerminalTool")],
            agent_context=AgentContext(system_message_suffix="ROLE:coder"),
            executor=f"agent-server:{agent_server.url}?workspace={remote}",
        )

    register_agent("coder", coder, "writes code on the server")
    model = serve(
        [
            Script(
                name="root",
                match="ROLE:root",
                turns=[
                    _call("file_editor", command="create", path="review.md", file_text="local\n"),
                    Turn.call("delegate", agent="coder", task="write it"),
                    Turn.finish("done"),
                ],
            ),
            Script(
                name="coder",
                match="ROLE:coder",
                turns=[_call("file_editor", command="create", path="code.py", file_text="x = 1\n"), Turn.finish("ok")],
            ),
        ]
    )
    root = Agent(
        llm=llm_for(model),
        name="root",
        tools=[Tool(name="FileEditorTool"), Tool(name="DelegateTool")],
        agent_context=AgentContext(system_message_suffix="ROLE:root"),
    )
    result = await run(root, workspace, "review and code")
    assert result.outcome.status.value == "finished", result.outcome
    assert (workspace / "review.md").read_text() == "local\n" and not (workspace / "code.py").exists()
    said = [e.content for e in result.kinds("observation") if e.agent_id != "root"]
    assert (remote / "code.py").exists(), said
    assert (remote / "code.py").read_text() == "x = 1\n" and not (remote / "review.md").exists()


async def test_a_remote_agents_critic_judges_the_changes_on_its_server(
    agent_server: AgentServer, serve, workspace: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The session's workspace here is no repository; the agent's own, on the server, is: its
    critic is given that diff, read through the agent-server, not this machine's."""
    import subprocess

    from openhands_tui.executors import workspace_changes
    from openhands_tui.sdk import Agent
    from openhands_tui.sdk.critic.base import CriticBase
    from openhands_tui.sdk.critic.result import CriticResult
    from openhands_tui.sdk.tool import Tool
    from tests.conftest import llm_for
    from tests.sdk.helpers import run

    seen: list[str | None] = []

    class Records(CriticBase):
        def evaluate(self, events, git_patch=None):
            seen.append(git_patch)
            return CriticResult(score=1.0, message="seen")

    monkeypatch.setenv("SESSION_API_KEY", agent_server.key)
    remote = tmp_path / "repo-on-the-server"
    subprocess.run(["git", "init", "-q", str(remote)], check=True)
    model = serve(
        [Script(turns=[_call("file_editor", command="create", path="made.txt", file_text="m\n"), Turn.finish("ok")])]
    )
    agent = Agent(
        llm=llm_for(model),
        tools=[Tool(name="FileEditorTool")],
        critic=Records(),
        executor=f"agent-server:{agent_server.url}?workspace={remote}",
    )
    result = await run(agent, workspace, "make it", workspace_changes=workspace_changes)
    assert result.outcome.status.value == "finished", result.outcome
    assert (remote / "made.txt").exists() and not (workspace / "made.txt").exists()
    (patch,) = seen
    assert patch is not None and "+++ b/made.txt" in patch and "+m" in patch
