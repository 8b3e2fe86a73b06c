"""Children delegated side by side, each in its own working copy (`isolation="worktree"`): what
each writes stays in its copy until it ends, then comes back by a three-way merge — a file both
changed is merged where the texts allow and otherwise reported as a conflict, the workspace's
version kept and the child's kept in a patch; nothing is lost, and no copy outlives its child."""

from __future__ import annotations

from pathlib import Path

from openhands_tui.sdk import Agent, AgentContext
from openhands_tui.sdk.facts.store import state_home
from openhands_tui.sdk.run.child_workspace import copies_folder, sweep_copies
from openhands_tui.sdk.tool import Tool
from openhands_tui.testing import Script, ScriptedToolCall, Turn
from openhands_tui.tools.delegate import register_agent
from tests.conftest import llm_for, model_args, run_tui
from tests.sdk.helpers import run


def _isolated(name: str, isolation: str = "worktree") -> None:
    def factory(llm):
        return Agent(
            llm=llm,
            name=name,
            tools=[Tool(name="FileEditorTool"), Tool(name="TerminalTool")],
            agent_context=AgentContext(system_message_suffix=f"ROLE:{name}"),
            isolation=isolation,
        )

    register_agent(name, factory, f"the {name}")


def _root(server) -> Agent:
    return Agent(
        llm=llm_for(server),
        name="root",
        tools=[Tool(name="DelegateTool")],
        agent_context=AgentContext(system_message_suffix="ROLE:root"),
    )


def _edit(path: str, old: str, new: str) -> ScriptedToolCall:
    return ScriptedToolCall(
        name="file_editor", arguments={"command": "str_replace", "path": path, "old_str": old, "new_str": new}
    )


def _create(path: str, text: str) -> ScriptedToolCall:
    return ScriptedToolCall(name="file_editor", arguments={"command": "create", "path": path, "file_text": text})


def _finish(message: str, delay: float = 0.0) -> Turn:
    return Turn(delay=delay, tool_calls=[ScriptedToolCall(name="finish", arguments={"message": message})])


def _parallel(*agents: str) -> Turn:
    return Turn.call("delegate_parallel", tasks=[{"agent": agent, "task": f"{agent}'s part"} for agent in agents])


async def test_two_children_writing_one_file_one_merged_one_a_conflict_nothing_lost(serve, workspace: Path) -> None:
    _isolated("alpha")
    _isolated("beta")
    server = serve(
        [
            Script(name="root", match="ROLE:root", turns=[_parallel("alpha", "beta"), Turn.finish("both back")]),
            Script(
                name="alpha",
                match="ROLE:alpha",
                turns=[Turn(tool_calls=[_create("shared.txt", "alpha\n")]), _finish("a")],
            ),
            Script(
                name="beta",
                match="ROLE:beta",
                turns=[Turn(tool_calls=[_create("shared.txt", "beta\n")]), _finish("b", delay=1.5)],
            ),
        ]
    )
    result = await run(_root(server), workspace, "split the work")

    assert result.outcome.status.value == "finished", result.outcome
    assert (workspace / "shared.txt").read_text() == "alpha\n"  # the first back is merged
    changes = {e.agent_name: e for e in result.kinds("child_changes")}
    assert changes["alpha"].merged == ["shared.txt"] and changes["alpha"].conflicts == []
    assert changes["beta"].merged == [] and changes["beta"].conflicts == ["shared.txt"]
    kept = Path(changes["beta"].patch).read_text()
    assert "+beta" in kept  # beta's version is kept, not lost
    report = next(o for o in result.kinds("observation") if o.tool_name == "delegate_parallel").content
    assert "CONFLICTS, not merged" in report and changes["beta"].patch in report and "+beta" in report
    assert list(copies_folder(state_home()).iterdir()) == []  # no copy outlives its child


async def test_changes_to_different_lines_of_one_file_both_merge(serve, workspace: Path) -> None:
    (workspace / "notes.txt").write_text("one\ntwo\nthree\nfour\nfive\n")
    _isolated("top")
    _isolated("bottom")
    server = serve(
        [
            Script(name="root", match="ROLE:root", turns=[_parallel("top", "bottom"), Turn.finish("done")]),
            Script(
                name="top",
                match="ROLE:top",
                turns=[Turn(tool_calls=[_edit("notes.txt", "one\n", "ONE\n")]), _finish("t")],
            ),
            Script(
                name="bottom",
                match="ROLE:bottom",
                turns=[Turn(tool_calls=[_edit("notes.txt", "five\n", "FIVE\n")]), _finish("b", delay=1.0)],
            ),
        ]
    )
    result = await run(_root(server), workspace, "edit both ends")

    assert (workspace / "notes.txt").read_text() == "ONE\ntwo\nthree\nfour\nFIVE\n"
    assert all(e.merged == ["notes.txt"] and not e.conflicts for e in result.kinds("child_changes"))


async def test_a_child_sees_the_workspaces_uncommitted_files_and_its_jail_writes_only_its_copy(
    serve, workspace: Path
) -> None:
    (workspace / "draft.txt").write_text("not committed anywhere\n")
    _isolated("reader")
    server = serve(
        [
            Script(
                name="root",
                match="ROLE:root",
                turns=[Turn.call("delegate", agent="reader", task="read"), Turn.finish()],
            ),
            Script(
                name="reader",
                match="ROLE:reader",
                turns=[
                    Turn(
                        tool_calls=[
                            ScriptedToolCall(
                                name="terminal",
                                arguments={
                                    "command": f"cat draft.txt; pwd; echo x > new.txt; echo y > {workspace}/direct.txt"
                                },
                            )
                        ]
                    ),
                    _finish("read it"),
                ],
            ),
        ]
    )
    result = await run(_root(server), workspace, "read the draft")

    ran = next(o for o in result.kinds("observation") if o.tool_name == "terminal")
    assert "not committed anywhere" in ran.content
    assert str(workspace) not in ran.content.splitlines()[1]  # it worked in its copy
    assert (workspace / "new.txt").read_text() == "x\n"  # and its new file came back
    assert not (workspace / "direct.txt").exists()  # its jail let it write its copy only


def test_copies_a_crashed_tui_left_are_swept_at_start(tmp_path: Path) -> None:
    copies = copies_folder(tmp_path)
    (copies / "s1-gone-1" / "files").mkdir(parents=True)
    (copies / "s1-gone-1" / "owner.pid").write_text("999999999")
    (copies / "s2-live-1").mkdir()
    (copies / "s2-live-1" / "owner.pid").write_text(str(__import__("os").getpid()))
    assert sweep_copies(tmp_path) == ["s1-gone-1"]
    assert [p.name for p in copies.iterdir()] == ["s2-live-1"]


def test_a_new_tui_removes_the_copies_a_killed_one_left(serve, workspace: Path) -> None:
    stale = copies_folder(state_home()) / "20261128-000000-dead-coder-1"
    (stale / "files").mkdir(parents=True)
    (stale / "files" / "half-done.txt").write_text("work of a child whose tui was killed\n")
    (stale / "owner.pid").write_text("999999999")
    model = serve([Script(turns=[Turn.finish("hello")])])
    finished = run_tui("--headless", "--task", "hi", *model_args(model), cwd=workspace)
    assert finished.returncode == 0, finished.stderr
    assert not stale.exists()


async def test_a_folder_turned_into_a_symlink_meanwhile_is_a_conflict_not_a_write_outside(
    serve, workspace: Path, tmp_path: Path
) -> None:
    (workspace / "src").mkdir()
    (workspace / "src" / "app.py").write_text("x = 1\n")
    outside = tmp_path / "outside"
    outside.mkdir()
    _isolated("slow")
    _isolated("swapper", isolation="shared")  # it works in the workspace itself
    swap = f"rm -rf src && ln -s {outside} src"
    server = serve(
        [
            Script(name="root", match="ROLE:root", turns=[_parallel("slow", "swapper"), Turn.finish("done")]),
            Script(
                name="slow",
                match="ROLE:slow",
                turns=[Turn(tool_calls=[_edit("src/app.py", "x = 1", "x = 2")]), _finish("edited", delay=1.5)],
            ),
            Script(
                name="swapper",
                match="ROLE:swapper",
                turns=[Turn(tool_calls=[ScriptedToolCall(name="terminal", arguments={"command": swap})]), _finish("s")],
            ),
        ]
    )
    result = await run(_root(server), workspace, "race")

    assert (workspace / "src").is_symlink()  # the swapper changed the workspace while slow worked
    assert list(outside.iterdir()) == []  # the slow child's edit was not written through it
    slow = next(e for e in result.kinds("child_changes") if e.agent_name == "slow")
    assert slow.conflicts == ["src/app.py"] and "x = 2" in Path(slow.patch).read_text()
