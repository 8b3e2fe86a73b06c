"""`tui --headless --plan`: the plan is printed with how to carry it out, and exit 0; the
printed resume command carries it out in the same session; `--plan --task NOTE` on it asks
for a revised plan, still read-only."""

from __future__ import annotations

from pathlib import Path

from openhands_tui.sdk.facts.store import SessionStore
from openhands_tui.testing import Script, Turn
from tests.conftest import model_args, run_tui

KEY = "sk-plan-test"


def _session_id(home: Path) -> str:
    return SessionStore(home / "state" / "openhands-tui").open("last").meta.id


def _carry_out_line(stderr: str) -> list[str]:
    line = next(line for line in stderr.splitlines() if "carry it out:" in line)
    return line.split("carry it out:", 1)[1].split("(", 1)[0].split()


def test_headless_plan_prints_the_plan_and_the_command_that_carries_it_out(
    serve, workspace: Path, isolated_home: Path
) -> None:
    server = serve(
        [
            Script(
                turns=[
                    Turn.call("file_editor", command="create", path="todo.py", file_text="x = 1\n"),
                    Turn.call("terminal", command="echo sneaky > todo.py"),
                    Turn.finish("PLAN\n1. create todo.py"),
                    Turn.call("file_editor", command="create", path="todo.py", file_text="x = 1\n"),
                    Turn.finish("created todo.py"),
                ]
            )
        ]
    )
    flags = [*model_args(server, KEY), "--workspace", str(workspace), "--headless"]
    planned = run_tui(*flags, "--plan", "--task", "add a todo module")
    assert planned.returncode == 0, planned.stderr
    assert "PLAN\n1. create todo.py" in planned.stdout and list(workspace.iterdir()) == []
    assert "plan mode (read-only)" in planned.stderr and "plan ready" in planned.stderr
    command = _carry_out_line(planned.stderr)
    session = _session_id(isolated_home)
    assert command == ["tui", "--resume", session, "--headless", "--approve-plan"]

    done = run_tui(*command[1:], *model_args(server, KEY), "--confirm", "never")
    assert done.returncode == 0, done.stderr
    assert (workspace / "todo.py").read_text() == "x = 1\n" and "created todo.py" in done.stdout
    approval = str(server.requests[3].messages[-1]["content"])
    assert "approved your plan" in approval and "1. create todo.py" in approval
    assert "plan mode" not in done.stderr.splitlines()[0]


def test_headless_plan_note_asks_for_a_revision_and_approve_needs_a_plan(serve, workspace: Path) -> None:
    turns = [Turn.finish("hi"), Turn.finish("PLAN A"), Turn.call("terminal", command="touch x"), Turn.finish("PLAN B")]
    server = serve([Script(turns=turns)])
    flags = [*model_args(server, KEY), "--workspace", str(workspace), "--headless"]
    assert run_tui(*flags, "--task", "say hi").returncode == 0
    nothing = run_tui(*flags, "--resume", "last", "--approve-plan")
    assert nothing.returncode == 2 and "has presented no plan" in nothing.stderr
    first = run_tui(*flags, "--plan", "--task", "plan it")
    assert first.returncode == 0 and "PLAN A" in first.stdout
    revised = run_tui(*flags, "--resume", "last", "--plan", "--task", "use a class")
    assert revised.returncode == 0 and "PLAN B" in revised.stdout and "plan ready" in revised.stderr
    note = str(server.requests[2].messages[-1]["content"])
    assert "did not approve" in note and "use a class" in note
    assert list(workspace.iterdir()) == []  # `touch x` ran in the read-only sandbox
    misuse = run_tui(*flags, "--approve-plan", "--task", "go")
    assert misuse.returncode == 2 and "--resume ID --headless" in misuse.stderr
