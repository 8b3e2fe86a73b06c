"""After the file editor changes a Python file, the project's language server (basedpyright from
PyPI, in the development install, run inside the jail) reports the file's problems in the same
step: a type error the edit introduced is in the edit's result, and gone once fixed. A missing
server is one notice and the edit stands; diagnostics can be turned off; no server outlives its
session."""

from __future__ import annotations

from pathlib import Path

import pytest

from openhands_tui.lsp.servers import find_program
from openhands_tui.sdk import Agent
from openhands_tui.sdk.tool import Tool
from openhands_tui.testing import Script, Turn
from tests.conftest import language_servers, llm_for
from tests.sdk.helpers import run

needs_pyright = pytest.mark.skipif(
    find_program("basedpyright-langserver") is None, reason="basedpyright is not installed (pip install -e '.[dev]')"
)


def _agent(server) -> Agent:
    return Agent(llm=llm_for(server), tools=[Tool(name="FileEditorTool")])


def _results(server) -> list[str]:
    return [r.messages[-1]["content"] for r in server.requests[1:]]


@needs_pyright
async def test_a_type_error_an_edit_introduces_comes_back_with_the_edit_and_goes_once_fixed(
    serve, workspace: Path
) -> None:
    path = workspace / "prices.py"
    first = "def total(x: int) -> int:\n    return x\n"
    turns = [
        Turn.call("file_editor", command="create", path=str(path), file_text=first),
        Turn.call("file_editor", command="str_replace", path=str(path), old_str="return x", new_str='return x + "1"'),
        Turn.call("file_editor", command="str_replace", path=str(path), old_str='x + "1"', new_str="x + 1"),
        Turn.finish("done"),
    ]
    server = serve([Script(turns=turns)])
    result = await run(_agent(server), workspace, "write prices.py")
    assert result.outcome.status == "finished", result.outcome.detail
    created, broken, fixed = _results(server)
    assert "basedpyright-langserver reports" not in created
    assert "basedpyright-langserver reports 1 error(s)" in broken and "2:" in broken
    assert 'Operator "+" not supported' in broken
    assert "reports" not in fixed
    assert not language_servers(workspace)  # ended with the session


async def test_a_missing_server_is_one_notice_and_the_edit_stands(serve, workspace: Path, isolated_home: Path) -> None:
    config = isolated_home / "config" / "openhands-tui" / "config.toml"
    config.parent.mkdir(parents=True, exist_ok=True)
    config.write_text('[lsp.python]\ncommand = ["no-such-language-server", "--stdio"]\n')
    turns = [
        Turn.call("file_editor", command="create", path=str(workspace / "a.py"), file_text="x: int = 'a'\n"),
        Turn.call("file_editor", command="create", path=str(workspace / "b.py"), file_text="y = 1\n"),
        Turn.finish("done"),
    ]
    server = serve([Script(turns=turns)])
    result = await run(_agent(server), workspace, "go")
    assert (workspace / "a.py").exists() and (workspace / "b.py").exists()
    notices = [e.error for e in result.kinds("agent_error") if "diagnostics" in e.error]
    assert notices == [
        "no diagnostics for python files: no-such-language-server is not installed "
        "(see `tui help configuration`, [lsp.python])"
    ]


@needs_pyright
async def test_diagnostics_can_be_turned_off(serve, workspace: Path, isolated_home: Path) -> None:
    config = isolated_home / "config" / "openhands-tui" / "config.toml"
    config.parent.mkdir(parents=True, exist_ok=True)
    config.write_text("[lsp]\nenabled = false\n")
    turns = [Turn.call("file_editor", command="create", path=str(workspace / "a.py"), file_text="x: int = 'a'\n")]
    server = serve([Script(turns=[*turns, Turn.finish("done")])])
    await run(_agent(server), workspace, "go")
    assert "reports" not in _results(server)[0]
