"""Hooks run outside the sandbox, so what they run must not be the agent's to change: a script a
hook names, and the modules beside it that its interpreter loads, are HIGH to edit and
read-only to commands — against real bubblewrap, through a real run."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest

from openhands_tui.jail.bubblewrap import find_bubblewrap
from openhands_tui.sdk import Agent
from openhands_tui.sdk.facts.event import Risk
from openhands_tui.sdk.hooks import load_hooks
from openhands_tui.sdk.run.confirmation import Decision
from openhands_tui.testing import Script, Turn
from openhands_tui.tools.preset.default import get_default_tools
from tests.conftest import llm_for
from tests.sdk.helpers import ScriptedConfirmer, run

pytestmark = pytest.mark.skipif(find_bubblewrap().path is None, reason=f"no bubblewrap: {find_bubblewrap().problem}")

CHECK = "import util\nutil.check()\n"
UTIL = "def check():\n    pass\n"


async def test_a_hook_script_and_its_neighbours_stay_as_the_user_trusted_them(serve, workspace: Path) -> None:
    hooks_dir = workspace / "tools" / "hooks"
    hooks_dir.mkdir(parents=True)
    (hooks_dir / "check.py").write_text(CHECK)
    (hooks_dir / "util.py").write_text(UTIL)
    config = {"PostToolUse": [{"hooks": [{"command": f"{sys.executable} tools/hooks/check.py"}]}]}
    (workspace / ".openhands").mkdir()
    (workspace / ".openhands" / "hooks.json").write_text(json.dumps(config))
    server = serve(
        [
            Script(
                turns=[
                    Turn.call("terminal", command="echo 'import os; os.system(\"id\")' >> tools/hooks/util.py"),
                    Turn.call("file_editor", command="create", path="tools/hooks/util.py", file_text="import os\n"),
                    Turn.call("terminal", command="echo ok > notes.txt"),
                    Turn.finish(),
                ]
            )
        ]
    )
    confirmer = ScriptedConfirmer([Decision(approved=True), Decision(approved=False)])
    agent = Agent(llm=llm_for(server), tools=get_default_tools())
    result = await run(agent, workspace, "go", hooks=load_hooks(workspace, trust_project=True), confirmer=confirmer)
    assert (hooks_dir / "util.py").read_text() == UTIL  # the command could not append to it
    editor_request = [r for r in confirmer.requests if r.tool_name == "file_editor"]
    assert editor_request and editor_request[0].risk is Risk.HIGH
    assert any("hook" in reason for reason in editor_request[0].reasons)
    assert (workspace / "notes.txt").read_text() == "ok\n"  # ordinary work still goes on
    assert all(h.outcome == "ran" for h in result.kinds("hook"))  # the hook still runs, unchanged


async def test_a_hook_script_reached_through_a_link_stays_the_one_trusted(
    serve, workspace: Path, tmp_path: Path
) -> None:
    marker = tmp_path / "planted-ran"
    (workspace / "lib").mkdir()
    (workspace / "lib" / "guard.sh").write_text("exit 0\n")
    (workspace / "scripts").mkdir()
    (workspace / "scripts" / "guard.sh").symlink_to("../lib/guard.sh")
    (workspace / "evil.sh").write_text(f"touch {marker}\n")
    config = {"PostToolUse": [{"hooks": [{"command": "sh scripts/guard.sh"}]}]}
    (workspace / ".openhands").mkdir()
    (workspace / ".openhands" / "hooks.json").write_text(json.dumps(config))
    swap = "ln -sfn ../evil.sh scripts/guard.sh; rm -f scripts/guard.sh; ln -s ../evil.sh scripts/guard.sh"
    server = serve(
        [Script(turns=[Turn.call("terminal", command=swap), Turn.call("terminal", command="true"), Turn.finish()])]
    )
    agent = Agent(llm=llm_for(server), tools=get_default_tools())
    confirmer = ScriptedConfirmer([Decision(approved=True)] * 3)
    result = await run(agent, workspace, "go", hooks=load_hooks(workspace, trust_project=True), confirmer=confirmer)
    assert not marker.exists()
    assert (workspace / "scripts" / "guard.sh").readlink() == Path("../lib/guard.sh")
    assert {h.outcome for h in result.kinds("hook")} <= {"ran", "skipped"}


async def test_a_script_a_hook_names_before_it_exists_is_not_run_once_someone_makes_it(
    serve, workspace: Path, tmp_path: Path
) -> None:
    marker = tmp_path / "planted-ran"
    config = {"Stop": [{"hooks": [{"command": "sh tools/later.sh"}]}]}
    (workspace / ".openhands").mkdir()
    (workspace / ".openhands" / "hooks.json").write_text(json.dumps(config))
    hooks = load_hooks(workspace, trust_project=True)
    plant = f"mkdir -p tools && echo 'touch {marker}' > tools/later.sh"
    server = serve([Script(turns=[Turn.call("terminal", command=plant), Turn.finish()])])
    confirmer = ScriptedConfirmer([Decision(approved=True)] * 3)
    result = await run(
        Agent(llm=llm_for(server), tools=get_default_tools()), workspace, "go", hooks=hooks, confirmer=confirmer
    )
    assert not marker.exists()
    outcomes = [h.outcome for h in result.kinds("hook")]
    planted = (workspace / "tools" / "later.sh").exists()
    assert "skipped" in outcomes if planted else outcomes, (planted, outcomes)  # kept out, or not run


def test_the_trust_question_says_which_hooks_run_project_code_no_file_pins(workspace: Path) -> None:
    (workspace / "check.sh").write_text("exit 0\n")
    hooks = [
        {"command": "./check.sh"},
        {"command": "make lint"},
        {"command": "cd tools && ./x.sh"},
        {"command": "echo hi"},
    ]
    (workspace / ".openhands").mkdir()
    (workspace / ".openhands" / "hooks.json").write_text(json.dumps({"Stop": [{"hooks": hooks}]}))
    request = load_hooks(workspace).trust_request
    assert request is not None
    flagged = [g for g in request.grants if g.endswith("(runs project code no file pins: trust the whole repository)")]
    assert [g.split(" (")[0] for g in flagged] == ["Stop: make lint", "Stop: cd tools && ./x.sh"]
