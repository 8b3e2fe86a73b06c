"""Keys as a user presses them: focus never traps typing, Enter selects in the tree while Space
folds, one key never turns confirmations off, Esc interrupts from a dialog and never drops a
queued message, and a read-only view offers nothing to interrupt."""

from __future__ import annotations

from pathlib import Path

from textual.widgets import Static
from textual.widgets._footer import FooterKey

from openhands_tui.testing import Script, Turn
from openhands_tui.tui.app import OpenHandsApp
from openhands_tui.tui.config import AppConfig
from openhands_tui.tui.screens.arming import ARMING_DELAY
from openhands_tui.tui.screens.confirm import ConfirmScreen
from openhands_tui.tui.screens.help import HelpScreen
from openhands_tui.tui.widgets.prompt import Prompt
from openhands_tui.tui.widgets.transcript import TranscriptTitle, TranscriptView
from openhands_tui.tui.widgets.tree import AgentTree
from tests.tui import canned
from tests.tui.conftest import SIZE, THREE_LEVELS, live_app, root_and_coder, wait_until


def _canned(events, *, read_only: bool = False) -> OpenHandsApp:
    config = AppConfig(history=events, read_only=read_only, preload_litellm=False, remember_theme=False)
    return OpenHandsApp(config)


def _footer_keys(app: OpenHandsApp) -> set[str]:
    return {key.key for key in app.screen.query(FooterKey)}


async def test_typing_outside_the_prompt_goes_to_the_prompt() -> None:
    app = _canned(canned.nested())
    async with app.run_test(size=SIZE) as pilot:
        prompt = app.query_one(Prompt)
        app.query_one(AgentTree).focus()
        await pilot.press("h", "i")
        assert app.focused is prompt and prompt.text == "hi"
        app.query_one(TranscriptView).focus()
        await pilot.press("space", "x")
        assert app.focused is prompt and prompt.text == "hi x"
        prompt.clear()
        await pilot.press(*"/help", "enter")
        await wait_until(pilot, lambda: isinstance(app.screen, HelpScreen))
        await pilot.press("z")  # a dialog keeps its keys
        assert isinstance(app.screen, HelpScreen) and prompt.text == ""


async def test_enter_on_a_tree_node_selects_it_and_space_folds() -> None:
    app = _canned(canned.nested())
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause(0.1)
        tree = app.query_one(AgentTree)
        tree.focus()
        tree.select_agent("coder-2")
        await pilot.pause(0.05)
        node = tree.cursor_node
        assert node is not None and node.data == "coder-2" and node.is_expanded
        await pilot.press("enter")
        assert app.shown_agent == "coder-2" and node.is_expanded  # selected, not folded
        await pilot.press("space")
        assert not node.is_expanded and app.shown_agent == "coder-2"
        assert "Fold" in {key.description for key in app.screen.query(FooterKey)}


async def test_tree_labels_end_in_an_ellipsis_and_hover_shows_the_whole_task() -> None:
    app = _canned(canned.nested())
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause(0.1)
        tree = app.query_one(AgentTree)
        coder = next(n for n in tree.root.children[0].children if n.data == "coder-2")
        assert str(coder.label).endswith("…")
        task = app.view.tree.nodes["coder-2"].task
        line = coder.line
        await pilot.hover(AgentTree, offset=(6, line))
        await pilot.pause(0.05)
        assert tree.tooltip == task
        app.show_agent("coder-2")  # selected: the title above the transcript carries the task too
        assert app.query_one(TranscriptTitle).tooltip == task


async def test_f2_switches_between_risky_and_always_never_to_never(serve, workspace: Path) -> None:
    server = serve([Script(turns=[Turn.finish("ok")])])
    app = live_app(server, workspace)
    async with app.run_test(size=SIZE) as pilot:
        await wait_until(pilot, lambda: app.view.policy is not None)
        seen = []
        for _ in range(3):
            before = app.view.policy
            await pilot.press("f2")
            await wait_until(pilot, lambda before=before: app.view.policy is not before)
            seen.append(app.view.policy.mode)  # type: ignore[union-attr]
        assert seen == ["always", "risky", "always"]
        status = app.query_one("#status").render()
        assert "ASK ALWAYS" in str(status)
        await pilot.press(*"/confirm never", "enter")  # off only when asked for by name
        await wait_until(pilot, lambda: app.view.policy is not None and app.view.policy.mode == "never")
        await pilot.pause(0.1)
        text = app.query_one("#status").content  # type: ignore[attr-defined]
        badge = next(span for span in text.spans if text.plain[span.start : span.end] == " NEVER ASK ")
        assert "red" in str(badge.style)  # and it stays in a warning colour


async def test_escape_at_a_confirmation_interrupts_the_run(serve, workspace: Path) -> None:
    (workspace / "build").mkdir()
    (workspace / "dist").mkdir()
    command = "rm -rf build && rm -rf dist"  # two commands: no single rule to offer
    server = serve([Script(turns=[Turn.call("terminal", command=command), Turn.finish("cleaned")])])
    app = live_app(server, workspace, task="clean up")
    async with app.run_test(size=SIZE) as pilot:
        await wait_until(pilot, lambda: isinstance(app.screen, ConfirmScreen) and bool(_footer_keys(app)))
        assert {"y", "n", "d", "escape"} <= _footer_keys(app)  # the dialog's keys, on screen
        assert "a" not in _footer_keys(app)  # no rule to offer: no "Always allow" button, nor key
        await pilot.pause(ARMING_DELAY)
        await pilot.press("a")
        await pilot.pause(0.1)
        assert isinstance(app.screen, ConfirmScreen)
        await pilot.press("escape")
        await wait_until(pilot, lambda: app.view.root_status == "paused")
        assert not isinstance(app.screen, ConfirmScreen) and app.runs.waiting == 0
        assert (workspace / "build").exists() and (workspace / "dist").exists()
        assert len(server.requests) == 1  # the run stopped: the model was not called again


async def test_escape_puts_a_queued_message_back_in_the_prompt(serve, workspace: Path) -> None:
    server = serve([Script(turns=[Turn(delay=30.0, text="slow"), Turn(text="second answer")])])
    app = live_app(server, workspace, task="first")
    async with app.run_test(size=SIZE) as pilot:
        await wait_until(pilot, lambda: app.bridge is not None and app.bridge.running)
        await pilot.press(*"second", "enter")
        await pilot.pause(0.05)
        assert app.runs.queued == ["second"]
        await pilot.press("escape")
        await wait_until(pilot, lambda: not app.runs.running)
        await pilot.pause(0.2)
        assert app.query_one(Prompt).text == "second" and app.runs.queued == []
        assert not app.query_one("#queued").display
        assert any("back in the prompt" in n.message for n in app._notifications)
        assert len(server.requests) == 1  # not sent behind the user's back


async def test_new_clears_the_previous_runs_tree(serve, workspace: Path) -> None:
    fixture = THREE_LEVELS
    server = serve(root_and_coder())
    app = live_app(server, workspace, strategy=str(fixture), task="go")
    async with app.run_test(size=SIZE) as pilot:
        await wait_until(pilot, lambda: app.view.root_status == "finished")
        await pilot.pause(0.1)
        tree = app.query_one(AgentTree)
        assert any(n.data and n.data.startswith("coder") for n in tree.root.children[0].children)
        first = app.session.session_id  # type: ignore[union-attr]
        await pilot.press(*"/new", "enter")
        await wait_until(pilot, lambda: app.session is not None and app.session.session_id != first)
        await pilot.pause(0.2)
        shown = list(_node_data(tree.root))  # the new session may not have drawn its root yet
        assert not any(data and data.startswith("coder") for data in shown), shown


def _node_data(node):
    """Every node's data in a tree, depth first."""
    yield node.data
    for child in node.children:
        yield from _node_data(child)


async def test_help_explains_the_tree_entries_and_quitting() -> None:
    app = _canned(canned.idle())
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press(*"/help", "enter")
        await wait_until(pilot, lambda: isinstance(app.screen, HelpScreen))
        text = app.screen.text  # type: ignore[attr-defined]
        for needle in ("Enter shows", "Space folds", "Ctrl+E", "Ctrl+Q", "Esc interrupt the run", "F2"):
            assert needle in text, needle


async def test_a_read_only_view_offers_no_interrupt_or_mode_switch() -> None:
    app = _canned(canned.nested(), read_only=True)
    async with app.run_test(size=SIZE) as pilot:
        await wait_until(pilot, lambda: bool(_footer_keys(app)))
        keys = _footer_keys(app)
        assert "escape" not in keys and "f2" not in keys and "ctrl+b" in keys
        await pilot.press("f2")
        await pilot.pause(0.05)
        assert not app._notifications  # nothing happened, nothing claimed
        offered = [command.title for command in app.get_system_commands(app.screen)]
        assert "Toggle the agent tree" in offered
        assert not any(title.startswith(("Interrupt", "Confirm:")) for title in offered)


async def test_the_dialog_shows_what_a_command_hides() -> None:
    """A command that redraws its own line or reverses its text is shown as it is: the carriage
    return and the bidi override are named, not obeyed (as in the headless prompt)."""
    from openhands_tui.sdk.facts.event import ConfirmationRequestEvent, Risk
    from openhands_tui.sdk.facts.subject import ShellCommand

    hidden = "rm -rf ~/projects\r\x1b[2Kecho hello \u202etxt."
    request = ConfirmationRequestEvent(
        agent_id="root",
        action_id="a1",
        tool_call_id="c1",
        tool_name="terminal",
        summary=f"$ {hidden}",
        subject=ShellCommand(command=hidden, cwd="/w"),
        risk=Risk.HIGH,
        reasons=["rm -rf\x1b]0;title\x07 deletes"],
        chain=["root"],
    )
    app = OpenHandsApp(AppConfig(preload_litellm=False, remember_theme=False))
    async with app.run_test(size=SIZE) as pilot:
        app.push_screen(ConfirmScreen(request))
        await pilot.pause(0.2)
        command = _shown_text(app.screen.query_one("#confirm-command", Static))
        reasons = _shown_text(app.screen.query_one("#confirm-reasons", Static))
    assert "rm -rf ~/projects␍echo hello <U+202E>txt." in command
    assert "\x1b" not in command + reasons and "\r" not in command and "\u202e" not in command


def _shown_text(widget: Static) -> str:
    """The text a Static draws (its highlighted code, or its plain text)."""
    shown = widget.render()
    shown = getattr(shown, "_renderable", shown)  # Textual wraps Rich renderables
    return getattr(shown, "code", None) or getattr(shown, "plain", None) or str(shown)


async def test_ctrl_q_at_a_confirmation_quits_and_runs_nothing(serve, workspace: Path) -> None:
    (workspace / "build").mkdir()
    server = serve([Script(turns=[Turn.call("terminal", command="rm -rf build"), Turn.finish("cleaned")])])
    app = live_app(server, workspace, task="clean up")
    async with app.run_test(size=SIZE) as pilot:
        await wait_until(pilot, lambda: isinstance(app.screen, ConfirmScreen) and bool(_footer_keys(app)))
        await pilot.press("ctrl+q")
        await pilot.pause(0.5)
        assert not app.is_running
    assert (workspace / "build").exists()  # quitting is not an approval
    assert len(server.requests) == 1
