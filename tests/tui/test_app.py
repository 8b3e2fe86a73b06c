"""Pilot tests: the app against a live engine and the scripted model."""

from __future__ import annotations

from pathlib import Path

import pytest

from openhands_tui.sdk.run.confirmation import ConfirmationMode
from openhands_tui.testing import Script, ScriptedToolCall, Turn
from openhands_tui.tui.screens.arming import ARMING_DELAY
from openhands_tui.tui.screens.confirm import ConfirmScreen
from openhands_tui.tui.screens.microagents import MicroagentsScreen, TaskInputsScreen
from openhands_tui.tui.widgets.entries import MicroagentEntry, ToolEntry
from openhands_tui.tui.widgets.transcript import TranscriptView
from openhands_tui.tui.widgets.tree import AgentTree
from tests.conftest import REPO
from tests.tui.conftest import SIZE, Arming, live_app, wait_until


def _call(command: str, risk: str | None = None, delay: float = 0.0) -> Turn:
    arguments = {"command": command, **({"security_risk": risk} if risk else {})}
    return Turn(tool_calls=[ScriptedToolCall(name="terminal", arguments=arguments)], delay=delay)


async def test_approve_a_high_risk_action(serve, workspace: Path, arming: Arming) -> None:
    (workspace / "build").mkdir()
    server = serve([Script(turns=[_call("rm -rf build"), Turn.finish("cleaned")])])
    app = live_app(server, workspace, task="clean up")
    async with app.run_test(size=SIZE) as pilot:
        await wait_until(pilot, lambda: bool(app.screen.query("#confirm-reasons")))
        screen = app.screen
        assert isinstance(screen, ConfirmScreen) and screen.request.risk == "HIGH"
        assert "rm -rf deletes" in str(screen.query_one("#confirm-reasons").render())
        await pilot.press("y")  # typed just as the dialog opened (meant for the prompt): not taken
        await pilot.pause(0.05)
        assert app.screen is screen and (workspace / "build").exists()
        assert any("just opened, so y was not taken" in n.message for n in app._notifications)
        arming.arm()
        await pilot.press("y")
        await wait_until(pilot, lambda: app.view.root_status == "finished")
        assert not (workspace / "build").exists()
        assert any(e.kind == "assistant" and e.text == "cleaned" for e in app.view.transcript("root"))
        await pilot.pause(0.1)
        entry = next(w for w in app.query_one(TranscriptView).children if isinstance(w, ToolEntry))
        assert "✓ exit 0 · approved by you" in entry.title().plain


async def test_reject_with_a_reason(serve, workspace: Path) -> None:
    (workspace / "build").mkdir()
    server = serve([Script(turns=[_call("rm -rf build"), Turn.finish("ok, kept it")])])
    app = live_app(server, workspace, task="clean up")
    async with app.run_test(size=SIZE) as pilot:
        await wait_until(pilot, lambda: isinstance(app.screen, ConfirmScreen))
        await pilot.press("n")
        await pilot.press(*"keep it")
        await pilot.press("enter")
        await wait_until(pilot, lambda: app.view.root_status == "finished")
        assert (workspace / "build").exists()
        assert server.requests[1].messages[-1]["content"].startswith("Rejected by the user: keep it.")
        tool = next(e for e in app.view.transcript("root") if e.kind == "tool")
        assert tool.data["decision"] == "rejected by you"


async def test_a_grandchilds_request_and_the_tree(serve, workspace: Path) -> None:
    fixture = REPO / "tests" / "fixtures" / "three_levels.py"
    server = serve(
        [
            Script(
                name="root",
                match="ROLE:root",
                turns=[Turn.call("delegate", agent="coder", task="code it"), Turn.finish("root done")],
            ),
            Script(
                name="coder",
                match="ROLE:coder",
                turns=[Turn.call("delegate", agent="tester", task="test it"), Turn.finish("coded")],
            ),
            Script(name="tester", match="ROLE:tester", turns=[_call("sudo true", delay=0.2), Turn.finish("tested")]),
        ]
    )
    app = live_app(server, workspace, strategy=str(fixture), task="go")
    async with app.run_test(size=SIZE) as pilot:
        tree = app.query_one(AgentTree)
        await wait_until(pilot, lambda: isinstance(app.screen, ConfirmScreen))
        assert app.screen.request.chain == ["root", "coder", "tester"]  # type: ignore[attr-defined]
        assert app.view.tree.nodes["tester-2"].status == "waiting_for_confirmation"
        await pilot.pause(0.1)
        assert "waiting for you" in str(tree._agent_nodes["tester-2"].label)
        await pilot.pause(ARMING_DELAY)
        await pilot.press("y")
        await wait_until(pilot, lambda: app.view.root_status == "finished")
        await pilot.pause(0.1)
        assert [app.view.tree.nodes[a].status for a in ("root", "coder-1", "tester-2")] == ["finished"] * 3
        assert tree._agent_nodes["tester-2"].parent is tree._agent_nodes["coder-1"]
        # selecting a node shows that agent's own transcript; ctrl+r returns to the root
        tree.select_node(tree._agent_nodes["tester-2"])
        await pilot.pause(0.1)
        transcript = app.query_one(TranscriptView)
        assert transcript.agent_id == "tester-2"
        assert any(isinstance(w, ToolEntry) and "sudo true" in w.entry.text for w in transcript.children)
        await pilot.press("ctrl+r")
        await pilot.pause(0.1)
        assert transcript.agent_id == "root"


async def test_microagent_fires_and_the_panel_lists_it(serve, workspace: Path) -> None:
    server = serve([Script(turns=[Turn.finish("a dockerfile")])])
    app = live_app(server, workspace, task="write a docker setup")
    async with app.run_test(size=SIZE) as pilot:
        await wait_until(pilot, lambda: app.view.root_status == "finished")
        await pilot.pause(0.1)
        entries = [w for w in app.query_one(TranscriptView).children if isinstance(w, MicroagentEntry)]
        assert [w.entry.data["event"].name for w in entries] == ["docker"]
        await pilot.press("ctrl+o")
        await pilot.pause(0.1)
        assert isinstance(app.screen, MicroagentsScreen)
        assert app.screen.fired[0].keyword == "docker"


async def test_escape_interrupts_and_the_session_stays_usable(serve, workspace: Path) -> None:
    server = serve([Script(turns=[_call("sleep 30"), Turn.finish("after")])])
    app = live_app(server, workspace, task="nap", confirm=ConfirmationMode.NEVER)
    async with app.run_test(size=SIZE) as pilot:
        await wait_until(pilot, lambda: any(e.kind == "tool" for e in app.view.transcript("root")))
        await pilot.pause(0.3)
        await pilot.press("escape")
        await wait_until(pilot, lambda: app.view.root_status == "paused")
        assert app.view.root_detail == "interrupted"
        tool = next(e for e in app.view.transcript("root") if e.kind == "tool")
        await wait_until(pilot, lambda: "observation" in tool.data)
        assert tool.data["observation"].outcome == "interrupted"
        await pilot.press(*"go on", "enter")
        await wait_until(pilot, lambda: app.view.root_status == "finished")


async def test_typing_while_running_queues_the_message(serve, workspace: Path) -> None:
    server = serve([Script(turns=[Turn(delay=3.0, text="first answer"), Turn(text="second answer")])])
    app = live_app(server, workspace, task="first")
    async with app.run_test(size=SIZE) as pilot:
        await wait_until(pilot, lambda: app.bridge is not None and app.bridge.running)
        await pilot.press(*"second", "enter")
        await pilot.pause(0.05)
        assert app.runs.queued == ["second"] and "queued: second" in str(app.query_one("#queued").render())
        await wait_until(pilot, lambda: len(server.requests) == 2)
        assert server.requests[1].messages[-1]["content"] == "second"
        await wait_until(pilot, lambda: not app.runs.queued and not app.runs.running)


async def test_slash_commands_switch_mode_and_theme(serve, workspace: Path) -> None:
    server = serve([Script(turns=[Turn.finish("ok")])])
    app = live_app(server, workspace)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press(*"/confirm never", "enter")
        await wait_until(pilot, lambda: app.view.policy is not None)
        assert app.view.policy.mode == "never"  # type: ignore[union-attr]
        assert "NEVER ASK" in str(app.query_one("#status").render())
        await pilot.press(*"/theme openhands-light", "enter")
        await pilot.pause(0.05)
        assert app.theme == "openhands-light"


async def test_slash_completion_lists_commands(serve, workspace: Path) -> None:
    server = serve([Script(turns=[Turn.finish("ok")])])
    app = live_app(server, workspace)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("/", *"conf")  # /compact and /context begin with c too
        await pilot.pause(0.05)
        completions = app.query_one("#completions")
        assert completions.display and completions.option_count == 1  # type: ignore[attr-defined]
        await pilot.press("tab")
        assert app.query_one("#prompt").text == "/confirm "  # type: ignore[attr-defined]


async def test_task_microagent_asks_for_missing_inputs(serve, workspace: Path) -> None:
    tasks = workspace / ".openhands" / "microagents"
    tasks.mkdir(parents=True)
    (tasks / "greet.md").write_text("---\nname: greet\ntype: task\n---\nSay hello to ${who}.\n")
    server = serve([Script(turns=[Turn.finish("hello")])])
    app = live_app(server, workspace)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press(*"/greet", "enter")
        await wait_until(pilot, lambda: isinstance(app.screen, TaskInputsScreen))
        await pilot.press(*"Ada", "enter")
        await wait_until(pilot, lambda: app.view.root_status == "finished")
        assert server.requests[0].messages[1]["content"].startswith("Say hello to Ada.")


@pytest.mark.parametrize("typed", ["/say-hi", "/Say-Hi"])
async def test_a_task_run_by_a_command_other_than_its_name_asks_for_its_inputs(
    serve, workspace: Path, typed: str
) -> None:
    """A task answers to its `/commands` as well as its name (the engine finds it either way):
    typed by its command, the app asks for the inputs it lacks instead of sending it without."""
    tasks = workspace / ".openhands" / "microagents"
    tasks.mkdir(parents=True)
    (tasks / "greeter.md").write_text(
        "---\nname: greeter\ntype: task\ntriggers: ['/say-hi']\n---\nSay hello to ${who}.\n"
    )
    server = serve([Script(turns=[Turn.finish("hello")])])
    app = live_app(server, workspace)
    async with app.run_test(size=SIZE) as pilot:
        await wait_until(pilot, lambda: app.view.microagents is not None)
        await pilot.press(*typed, "enter")
        await wait_until(pilot, lambda: isinstance(app.screen, TaskInputsScreen))
        await pilot.press(*"Ada", "enter")
        await wait_until(pilot, lambda: app.view.root_status == "finished")
        assert server.requests[0].messages[1]["content"].startswith("Say hello to Ada.")
