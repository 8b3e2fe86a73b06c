"""What the app shows of hooks and critics: the trust question for a project's hooks, which
hook decided what, the critic's score in the transcript and on the agent's tree node."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

from textual.widgets import Static

from openhands_tui.testing import Script, Turn
from openhands_tui.tui.screens.trust import TrustScreen
from openhands_tui.tui.widgets.entries import EntryWidget
from openhands_tui.tui.widgets.transcript import TranscriptView
from openhands_tui.tui.widgets.tree import AgentTree
from tests.tui.conftest import SIZE, Arming, live_app, wait_until

REPO = Path(__file__).resolve().parents[2]


def _drawn(widget: Static) -> str:
    shown = widget.render()
    shown = getattr(shown, "_renderable", shown)
    return getattr(shown, "plain", None) or str(shown)


def _transcript(app) -> str:
    return "\n".join(_drawn(w) for w in app.query_one(TranscriptView).query(EntryWidget))


def _tree(app) -> str:
    return "\n".join(str(node.label) for node in app.query_one(AgentTree)._agent_nodes.values())


async def test_a_projects_hooks_are_asked_about_then_their_decision_is_drawn(
    serve, workspace: Path, arming: Arming
) -> None:
    (workspace / ".claude").mkdir()
    guard = "if grep -q forbidden; then echo 'not in this repo' >&2; exit 2; fi"
    settings = {"hooks": {"PreToolUse": [{"matcher": "Bash", "hooks": [{"type": "command", "command": guard}]}]}}
    (workspace / ".claude" / "settings.json").write_text(json.dumps(settings))
    server = serve([Script(turns=[Turn.call("terminal", command="touch forbidden"), Turn.finish("tried")])])
    app = live_app(server, workspace)
    async with app.run_test(size=SIZE) as pilot:
        await wait_until(
            pilot, lambda: isinstance(app.screen, TrustScreen) and bool(app.screen.query("#confirm-body > *"))
        )
        header = _drawn(app.screen.query_one("#confirm-header", Static))
        assert "runs commands as you, outside the sandbox" in header and ".claude/settings.json" in header
        assert f"PreToolUse [Bash]: {guard}" in _drawn(app.screen.query_one("#confirm-body").children[0])
        arming.arm()
        await pilot.press("y")
        await wait_until(pilot, lambda: not isinstance(app.screen, TrustScreen))
        await pilot.press(*"make it", "enter")
        await wait_until(pilot, lambda: app.view.root_status == "finished")
        await pilot.pause(0.2)
        drawn = _transcript(app)
        assert "⚓ PreToolUse hook" in drawn and "→ denied: not in this repo" in drawn
    assert not (workspace / "forbidden").exists()


async def test_a_review_critic_sends_the_coder_back_and_its_score_is_drawn(serve, workspace: Path) -> None:
    subprocess.run(["git", "init", "-q", str(workspace)], check=True)
    server = serve(
        [
            Script(
                name="reviewer",
                match_user="reviewing another agent",
                turns=[
                    Turn.finish('```json\n{"decision": "not_pass", "summary": "no tests"}\n```'),
                    Turn.finish('```json\n{"decision": "pass", "summary": "good"}\n```'),
                ],
            ),
            Script(
                name="coder",
                turns=[
                    Turn.call("file_editor", command="create", path="a.py", file_text="x = 1\n"),
                    Turn.finish("wrote a.py"),
                    Turn.call("file_editor", command="create", path="test_a.py", file_text="import a\n"),
                    Turn.finish("added a test"),
                ],
            ),
        ]
    )
    app = live_app(server, workspace, strategy=str(REPO / "strategies" / "refine.py"), task="write a.py")
    async with app.run_test(size=SIZE) as pilot:
        await wait_until(pilot, lambda: app.view.root_status == "finished")
        await pilot.pause(0.3)
        drawn = _transcript(app)
        assert "☆☆☆☆☆ critic AgentReviewCritic 0%: no tests (sent back: round 1 of 2)" in drawn
        assert "↻ critic › " in drawn
        assert "★★★★★ critic AgentReviewCritic 100%: good" in drawn
        tree = _tree(app)
        assert "coder" in tree and "★★★★★ ↻1" in tree and tree.count("reviewer") == 2


async def test_ignoring_a_projects_hooks_is_said_once(serve, workspace: Path, arming: Arming) -> None:
    (workspace / ".openhands").mkdir()
    hooks = {"Stop": [{"hooks": [{"type": "command", "command": "echo hi"}]}]}
    (workspace / ".openhands" / "hooks.json").write_text(json.dumps(hooks))
    app = live_app(serve([Script(turns=[Turn.finish("ok")])]), workspace)
    async with app.run_test(size=SIZE) as pilot:
        await wait_until(pilot, lambda: isinstance(app.screen, TrustScreen))
        arming.arm()
        await pilot.press("n")
        await wait_until(pilot, lambda: not isinstance(app.screen, TrustScreen))
        await pilot.pause(0.1)
        said = [n.message for n in app._notifications]
        assert said == ["Ignored .openhands/hooks.json: its hooks do not run in this session."]
