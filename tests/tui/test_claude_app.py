"""The app on a Claude model: thinking as a folded entry above what it led to, and the share of
input read from the prompt cache in the status bar and the agent tree."""

from __future__ import annotations

from pathlib import Path

from openhands_tui.testing import Script, ScriptedToolCall, Turn
from openhands_tui.tui.widgets.entries import ThinkingEntry
from openhands_tui.tui.widgets.status import StatusBar
from openhands_tui.tui.widgets.transcript import TranscriptView
from openhands_tui.tui.widgets.tree import AgentTree
from tests.tui.conftest import SIZE, live_app, wait_until

THOUGHT = "The user wants the files listed; ls is the obvious first step."


async def test_thinking_is_folded_and_the_cache_share_is_shown(serve, workspace: Path) -> None:
    turns = [
        Turn(
            thinking=THOUGHT,
            text="I'll list the files.",
            tool_calls=[ScriptedToolCall(name="terminal", arguments={"command": "ls"})],
        ),
        Turn(thinking="Listed.", tool_calls=[ScriptedToolCall(name="terminal", arguments={"command": "pwd"})]),
        Turn.finish("listed"),
    ]
    server = serve([Script(turns=turns)], api="anthropic")
    app = live_app(server, workspace, task="list the files", reasoning_effort="high")
    async with app.run_test(size=SIZE) as pilot:
        await wait_until(pilot, lambda: app.view.root_status == "finished")
        await pilot.pause(0.2)
        kinds = [e.kind for e in app.view.transcript("root")]
        first = kinds.index("thinking")
        assert kinds[first + 1] == "assistant"  # above the text it led to, though that streamed first
        entry = app.view.transcript("root")[first]
        assert entry.text == THOUGHT and not entry.streaming
        shown = [type(w).__name__ for w in app.query_one(TranscriptView).children]
        assert shown.index("ThinkingEntry") < shown.index("AssistantEntry")
        widgets = list(app.query(ThinkingEntry))
        assert len(widgets) == 3 and not widgets[0].expanded
        assert "✻ thinking" in str(widgets[0].render_entry()) and THOUGHT[:30] in str(widgets[0].render_entry())
        widgets[0].action_fold()
        assert THOUGHT in str(widgets[0].render_entry().renderables[1].renderable)  # type: ignore[attr-defined]

        usage = app.view.usage
        assert usage.cache_read_tokens > 0 and usage.cache_hit is not None
        app._update_status()
        status = str(app.query_one(StatusBar).render())
        assert f"cache {100 * usage.cache_hit:.0f}%" in status
        tree = app.query_one(AgentTree)
        assert "% cached" in str(tree._agent_nodes["root"].label)
        notice = app.view.transcript("root")[-1]
        assert (
            notice.kind == "notice" and f"({100 * usage.cache_hit:.0f}% of input from the prompt cache)" in notice.text
        )
    assert server.refusals == []


async def test_thinking_that_arrives_after_its_text_is_shown_above_it() -> None:
    """A provider that streams the answer but sends its thinking only at the end: the entry goes
    above the text already on screen."""
    from openhands_tui.sdk.facts.event import MessageEvent, SystemPromptEvent, TextDeltaEvent
    from openhands_tui.tui.app import OpenHandsApp
    from openhands_tui.tui.config import AppConfig

    start = [
        SystemPromptEvent(agent_id="root", agent_name="solo", model="anthropic/claude-sonnet-4-5", content="s"),
        MessageEvent(agent_id="root", role="user", content="go"),
    ]
    app = OpenHandsApp(AppConfig(history=start, preload_litellm=False, remember_theme=False, clock=lambda: 1000.0))
    async with app.run_test(size=SIZE) as pilot:
        app.feed([TextDeltaEvent(agent_id="root", delta="The answer.", response_id="r1")])
        await pilot.pause(0.2)
        block = {"type": "thinking", "thinking": THOUGHT, "signature": "sig"}
        app.feed(
            [MessageEvent(agent_id="root", role="assistant", content="The answer.", response_id="r1", thinking=[block])]
        )
        await pilot.pause(0.2)
        shown = [type(w).__name__ for w in app.query_one(TranscriptView).children]
        assert shown[-2:] == ["ThinkingEntry", "AssistantEntry"]
        assert [e.kind for e in app.view.transcript("root")][-2:] == ["thinking", "assistant"]
