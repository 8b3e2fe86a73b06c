"""`/model`, `/compact` and `/context` in the app, against the live engine and the scripted model:
what each draws on the screen (the status bar, the transcript, a notice)."""

from __future__ import annotations

import re
from pathlib import Path

from textual.widgets._toast import Toast

from openhands_tui.interactive import build_app
from openhands_tui.launch_options import LaunchOptions
from openhands_tui.sdk.run.confirmation import ConfirmationMode
from openhands_tui.testing import Script, ScriptedToolCall, Turn
from openhands_tui.tui.app import OpenHandsApp
from openhands_tui.tui.widgets.transcript import TranscriptView
from tests.tui.conftest import SIZE, THREE_LEVELS, live_app, wait_until

SUMMARIZER = Script(name="summarizer", match="You condense the middle", turns=[Turn(text="Echoed 0-5.", repeat=5)])


def status(app: OpenHandsApp) -> str:
    """The status bar as drawn."""
    return str(app.query_one("#status").render())


def transcript(app: OpenHandsApp) -> str:
    """The shown transcript's entries as drawn, one after another."""
    return "\n".join(str(entry.render()) for entry in app.query_one(TranscriptView).children)


def notices(app: OpenHandsApp) -> str:
    """The notices on screen as drawn (each on one line, however the toast wrapped it)."""
    return "\n".join(" ".join(str(toast.render()).split()) for toast in app.screen.query(Toast))


async def _opened(pilot, app: OpenHandsApp) -> None:
    """Wait for the session to open and the status bar to have drawn its model."""
    await wait_until(pilot, lambda: "root" in app.view.models and status(app).startswith("openai/scripted "))


async def test_model_with_a_name_switches_the_root_and_the_status_bar_says_so(serve, workspace: Path) -> None:
    server = serve([Script(turns=[Turn.finish("on b")])])
    app = live_app(server, workspace)
    async with app.run_test(size=SIZE, notifications=True) as pilot:
        await _opened(pilot, app)
        await pilot.press(*"/model openai/scripted-b", "enter")
        await wait_until(pilot, lambda: status(app).startswith("openai/scripted-b "))
        await wait_until(pilot, lambda: "solo: openai/scripted → openai/scripted-b" in notices(app))
        assert "⇄ model: openai/scripted-b (was openai/scripted)" in transcript(app)
        await pilot.press(*"go", "enter")
        await wait_until(pilot, lambda: app.view.root_status == "finished")
    assert server.requests[-1].body["model"] == "scripted-b"


async def test_model_alone_says_the_model_and_how_to_switch(serve, workspace: Path) -> None:
    server = serve([Script(turns=[Turn.finish("ok")])])
    app = live_app(server, workspace)
    async with app.run_test(size=SIZE, notifications=True) as pilot:
        await _opened(pilot, app)
        await pilot.press(*"/model", "enter")
        await wait_until(pilot, lambda: "/model NAME switches it" in notices(app))
        assert "solo's model: openai/scripted." in notices(app)


async def test_an_unknown_model_is_refused_in_one_line_and_nothing_changes(serve, workspace: Path) -> None:
    server = serve([Script(turns=[Turn.finish("ok")])])
    app = live_app(server, workspace)
    async with app.run_test(size=SIZE, notifications=True) as pilot:
        await _opened(pilot, app)
        await pilot.press(*"/model [b]nonsense", "enter")
        await wait_until(pilot, lambda: "prefix the provider" in notices(app))
        assert "model [b]nonsense: litellm cannot tell" in notices(app)  # as typed: not taken for markup
        assert status(app).startswith("openai/scripted ")
        assert "⇄ model" not in transcript(app)


async def test_context_draws_its_table_in_the_transcript(serve, workspace: Path) -> None:
    (workspace / "big.txt").write_text("".join(f"line {n} of a long log\n" for n in range(800)))
    server = serve([Script(turns=[Turn.call("terminal", command="cat big.txt"), Turn.finish("read it")])])
    app = live_app(server, workspace, task="read big.txt")
    async with app.run_test(size=SIZE, notifications=True) as pilot:
        await wait_until(pilot, lambda: app.view.root_status == "finished")
        await pilot.press(*"/context", "enter")
        await wait_until(pilot, lambda: "Context of root (openai/scripted):" in transcript(app))
        screen = transcript(app)
        rows = {
            name: int(number.replace(",", ""))
            for name, number in re.findall(r"(system prompt|tool schemas|tool outputs|total) +([\d,]+)", screen)
        }
        assert set(rows) == {"system prompt", "tool schemas", "tool outputs", "total"}
        assert rows["tool outputs"] > rows["system prompt"] and rows["total"] > rows["tool outputs"]
        assert "microagents & skills" in screen and "conversation" in screen


async def test_compact_draws_the_condensation_and_its_result(serve, workspace: Path) -> None:
    echoes = [
        Turn(tool_calls=[ScriptedToolCall(name="terminal", arguments={"command": f"echo {n}"})]) for n in range(6)
    ]
    server = serve([SUMMARIZER, Script(name="agent", turns=[*echoes, Turn.finish("echoed")])])
    app = live_app(server, workspace, task="echo the numbers", confirm=ConfirmationMode.NEVER)
    async with app.run_test(size=SIZE, notifications=True) as pilot:
        await wait_until(pilot, lambda: app.view.root_status == "finished" and not app.runs.running)
        await pilot.press(*"/compact the numbers", "enter")
        await wait_until(pilot, lambda: "Compacted solo:" in notices(app))
        said = r"Compacted solo: \d+ messages into a summary, about [\d,]+ → [\d,]+ tokens"
        assert re.search(said, notices(app))
        await wait_until(pilot, lambda: "⇊ condensed" in transcript(app))
        condensed = r"▶ ⇊ condensed \d+ messages \(you asked: keep the numbers\) · [\d,]+ → [\d,]+ tokens"
        assert re.search(condensed, transcript(app))
    assert server.requests_for("summarizer")[-1].messages[0]["content"].endswith("keep especially: the numbers")


async def test_compact_with_too_little_to_condense_says_so(serve, workspace: Path) -> None:
    server = serve([SUMMARIZER, Script(name="agent", turns=[Turn.finish("hi")])])
    app = live_app(server, workspace, task="hello")
    async with app.run_test(size=SIZE, notifications=True) as pilot:
        await wait_until(pilot, lambda: app.view.root_status == "finished" and not app.runs.running)
        await pilot.press(*"/compact", "enter")
        await wait_until(pilot, lambda: "nothing to condense yet" in notices(app))
    assert not server.requests_for("summarizer")


async def test_a_resumed_session_goes_on_with_the_model_switched_to(serve, workspace: Path) -> None:
    server = serve([Script(turns=[Turn.finish("one"), Turn.finish("two")])])
    first = live_app(server, workspace, task="first")
    async with first.run_test(size=SIZE, notifications=True) as pilot:
        await wait_until(pilot, lambda: first.view.root_status == "finished" and not first.runs.running)
        await pilot.press(*"/model openai/scripted-b", "enter")
        await wait_until(pilot, lambda: status(first).startswith("openai/scripted-b "))
        assert first.session is not None
        session_id = first.session.session_id

    # `tui --resume ID`: the model (and endpoint) come from the session, as the switch left it
    options = LaunchOptions(api_key="sk-tui-test", workspace=workspace, resume=session_id)
    again = build_app(options, preload_litellm=False, remember_theme=False)
    async with again.run_test(size=SIZE, notifications=True) as pilot:
        await wait_until(pilot, lambda: status(again).startswith("openai/scripted-b "))
        await pilot.press(*"second", "enter")
        await wait_until(pilot, lambda: len(server.requests) == 2 and not again.runs.running)
    assert server.requests[-1].body["model"] == "scripted-b"


async def test_model_switches_the_sub_agent_shown_in_the_transcript(serve, workspace: Path) -> None:
    # the switch must land while the coder waits for its first answer: a window of 10 s (3 s was
    # missed once at load 4-5, two suites on two cores, when the app took that long to take Enter)
    coder = [Turn(delay=10.0, tool_calls=Turn.call("think", thought="hm").tool_calls), Turn.finish("coded")]
    server = serve(
        [
            Script(
                name="root",
                match="ROLE:root",
                turns=[Turn.call("delegate", agent="coder", task="code it"), Turn.finish("root done")],
            ),
            Script(name="coder", match="ROLE:coder", turns=coder),
        ]
    )
    app = live_app(server, workspace, strategy=str(THREE_LEVELS), task="go")
    async with app.run_test(size=SIZE, notifications=True) as pilot:
        await pilot.press(*"/model openai/scripted-b")  # typed ahead: only Enter waits for the coder
        await wait_until(pilot, lambda: bool(server.requests_for("coder")))  # its first answer takes 10 s
        app.show_agent("coder-1")  # picked in the tree
        await pilot.press("enter")
        await wait_until(pilot, lambda: status(app).startswith("openai/scripted-b "))
        await wait_until(pilot, lambda: "coder: openai/scripted → openai/scripted-b" in notices(app))
        await wait_until(pilot, lambda: app.view.root_status == "finished")
        app.show_agent("root")
        await pilot.pause(0.1)
        assert status(app).startswith("openai/scripted ")  # the root kept its model
    assert [r.body["model"] for r in server.requests_for("coder")] == ["scripted", "scripted-b"]
    assert {r.body["model"] for r in server.requests_for("root")} == {"scripted"}
