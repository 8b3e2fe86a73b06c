"""`tui mcp serve` as another agent sees it: the MCP SDK's own client starts it over stdio,
lists its tools, hands it tasks (run against the scripted model), answers its approvals through
elicitation, and continues a session it started. What a client may choose stays bounded: a
strategy it names must be offered, a session must be of this workspace."""

from __future__ import annotations

import contextlib
import json
import os
import sys
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest
from mcp import ClientSession, types
from mcp.client.stdio import StdioServerParameters, stdio_client

from openhands_tui.testing import Script, Turn
from tests.conftest import model_args, run_tui
from tests.launcher import shared_launcher

pytestmark = pytest.mark.subprocess


@contextlib.asynccontextmanager
async def _client(
    model, workspace: Path, *extra: str, elicit: Any = None, fresh: bool = False
) -> AsyncIterator[ClientSession]:
    """A connected client of `tui mcp serve` in `workspace`, started on the pipes the client
    spawns it with: forked warm (tests/warm_spawn.py, as the ACP tests start `tui acp`), or
    `fresh`, a whole new interpreter, imports and all."""
    args = ["mcp", "serve", *model_args(model), "--workspace", str(workspace), *extra]
    if fresh:
        command, arguments = sys.executable, ["-m", "openhands_tui", *args]
    else:
        command, *arguments = shared_launcher().spawn_command(*args)
    params = StdioServerParameters(command=command, args=arguments, env=dict(os.environ), cwd=str(workspace))
    with open(os.devnull, "w") as errlog:
        async with (
            stdio_client(params, errlog=errlog) as (read, write),
            ClientSession(read, write, elicitation_callback=elicit) as session,
        ):
            await session.initialize()
            yield session


def _answer(result: types.CallToolResult) -> dict[str, Any]:
    assert not result.is_error, result.content
    assert result.structured_content is not None
    return result.structured_content


def _tool_result(model, request: int) -> str:
    return [m for m in model.requests[request].messages if m["role"] == "tool"][-1]["content"]


async def test_a_client_lists_the_tools_runs_a_task_and_sees_its_progress(serve, workspace: Path) -> None:
    turns = [Turn.call("terminal", command="echo made > made.txt"), Turn.finish("made the file")]
    model = serve([Script(turns=turns)])
    progress: list[str] = []

    async def seen(done: float, total: float | None, message: str | None) -> None:
        progress.append(message or "")

    async with _client(model, workspace, fresh=True) as client:  # a real start: its stdout is the protocol's
        tools = {tool.name: tool for tool in (await client.list_tools()).tools}
        assert set(tools) == {"run_task", "continue_session"}
        assert "waterfall" in (tools["run_task"].description or "")
        result = await client.call_tool("run_task", {"task": "make a file"}, progress_callback=seen)
    answer = _answer(result)
    assert answer["status"] == "finished" and answer["exit_code"] == 0
    assert answer["result"] == "made the file"
    assert (workspace / "made.txt").read_text() == "made\n"
    assert any("echo made > made.txt" in line for line in progress), progress
    assert json.loads(result.content[0].text)["session_id"] == answer["session_id"]


async def test_a_risky_action_is_put_to_the_clients_user_who_approves_it(serve, workspace: Path) -> None:
    (workspace / "build").mkdir()
    model = serve([Script(turns=[Turn.call("terminal", command="rm -rf build"), Turn.finish("removed")])])
    asked: list[str] = []

    async def approve(context: Any, params: types.ElicitRequestParams) -> types.ElicitResult:
        asked.append(params.message)
        return types.ElicitResult(action="accept", content={"approve": True, "reason": ""})

    async with _client(model, workspace, elicit=approve) as client:
        answer = _answer(await client.call_tool("run_task", {"task": "clean up"}))
    assert answer["status"] == "finished"
    assert len(asked) == 1 and "rm -rf build" in asked[0] and "HIGH" in asked[0]
    assert not (workspace / "build").exists()


async def test_a_refusal_by_the_clients_user_reaches_the_agent_with_the_reason(serve, workspace: Path) -> None:
    (workspace / "build").mkdir()
    model = serve([Script(turns=[Turn.call("terminal", command="rm -rf build"), Turn.finish("left it")])])

    async def refuse(context: Any, params: types.ElicitRequestParams) -> types.ElicitResult:
        return types.ElicitResult(action="accept", content={"approve": False, "reason": "keep the build"})

    async with _client(model, workspace, elicit=refuse) as client:
        _answer(await client.call_tool("run_task", {"task": "clean up"}))
    assert (workspace / "build").is_dir()
    assert "keep the build" in _tool_result(model, 1)


async def test_without_elicitation_nothing_risky_runs_unasked(serve, workspace: Path) -> None:
    (workspace / "build").mkdir()
    model = serve([Script(turns=[Turn.call("terminal", command="rm -rf build"), Turn.finish("could not")])])
    async with _client(model, workspace) as client:
        _answer(await client.call_tool("run_task", {"task": "clean up"}))
    assert (workspace / "build").is_dir()
    assert "cannot ask its user" in _tool_result(model, 1)


async def test_the_first_strategy_named_at_start_is_the_default(serve, workspace: Path) -> None:
    model = serve([Script(turns=[Turn.finish("done")])])
    async with _client(model, workspace, "--strategy", "careful=solo") as client:
        tools = {tool.name: tool for tool in (await client.list_tools()).tools}
        assert "careful" in (tools["run_task"].description or "") and "(default careful)" in (
            tools["run_task"].description or ""
        )
        answer = _answer(await client.call_tool("run_task", {"task": "hello"}))
    assert answer["strategy"] == "careful" and answer["status"] == "finished"


async def test_a_client_picks_only_an_offered_strategy_never_a_file(serve, workspace: Path) -> None:
    (workspace / "evil.py").write_text("raise SystemExit('ran')\n")
    model = serve([Script(turns=[Turn.finish("done")])])
    async with _client(model, workspace) as client:
        as_path = await client.call_tool("run_task", {"task": "x", "strategy": str(workspace / "evil.py")})
        unknown = await client.call_tool("run_task", {"task": "x", "strategy": "nope"})
        empty = await client.call_tool("run_task", {"task": "  "})
    for refused in (as_path, unknown):
        assert refused.is_error and "is not offered here" in refused.content[0].text
    assert empty.is_error and "task: empty" in empty.content[0].text
    assert model.requests == []


async def test_a_session_is_continued_with_its_history_and_only_in_its_workspace(
    serve, workspace: Path, tmp_path: Path
) -> None:
    model = serve([Script(turns=[Turn.finish("first"), Turn.finish("second")])])
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    async with _client(model, workspace) as client:
        first = _answer(await client.call_tool("run_task", {"task": "remember the word teal"}))
        second = _answer(
            await client.call_tool("continue_session", {"session_id": first["session_id"], "task": "which word?"})
        )
    assert second["result"] == "second" and second["session_id"] == first["session_id"]
    sent = [m.get("content") for m in model.requests[1].messages if m["role"] == "user"]
    assert any("remember the word teal" in str(content) for content in sent)
    async with _client(model, elsewhere) as client:
        foreign = await client.call_tool("continue_session", {"session_id": first["session_id"], "task": "x"})
    assert foreign.is_error and "is not a session of" in foreign.content[0].text


@pytest.mark.parametrize(
    ("flags", "said"),
    [
        (["--workspace", "/no/such/folder"], "--workspace /no/such/folder: not a directory"),
        (["--strategy", "./no_such_strategy.py"], "no such strategy file"),
        (["--strategy", "two words=solo"], "expected NAME=SPEC or a strategy file"),
    ],
)
def test_bad_flags_are_one_line_and_exit_2(flags: list[str], said: str, workspace: Path) -> None:
    finished = run_tui("mcp", "serve", *flags, cwd=workspace)
    assert finished.returncode == 2
    assert finished.stderr.strip().count("\n") == 0 and said in finished.stderr
    assert finished.stdout == ""
