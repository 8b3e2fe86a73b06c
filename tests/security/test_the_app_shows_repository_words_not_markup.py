"""The app shows a repository's words as words: skill names, command descriptions and input
descriptions are not Textual markup. `[/bold]` in one used to raise MarkupError as the list or
form rendered; `[@click=app.quit]` made a clickable action."""

from __future__ import annotations

import io
from pathlib import Path

from rich.console import Console
from textual.widgets import Label

from openhands_tui.testing import Script, Turn
from openhands_tui.tui.screens.microagents import MicroagentsScreen, TaskInputsScreen, loaded_table
from tests.tui.conftest import SIZE, live_app, wait_until

MARKUP = "[/bold] [@click=app.quit]x[/] [link=https://evil.example]y[/link]"


def _repository(workspace: Path) -> None:
    microagents = workspace / ".openhands" / "microagents"
    microagents.mkdir(parents=True)
    name = "shipper[/b]"
    (microagents / "ship.md").write_text(f"---\nname: '{name}'\ntriggers: [ship]\n---\nShip with care.\n")
    (microagents / "greet.md").write_text(
        "---\nname: greet\ntype: task\ninputs:\n"
        f"  - name: who\n    description: '{MARKUP}'\n---\nSay hello to ${{who}}.\n"
    )
    commands = workspace / ".claude" / "commands"
    commands.mkdir(parents=True)
    (commands / "deploy.md").write_text(f"---\ndescription: '{MARKUP}'\n---\nDeploy $ARGUMENTS\n")


async def test_skill_names_and_descriptions_render_as_the_words_they_are(serve, workspace: Path) -> None:
    _repository(workspace)
    server = serve([Script(turns=[Turn.finish("shipped"), Turn.finish("hello")])])
    app = live_app(server, workspace, task="ship it")
    async with app.run_test(size=SIZE) as pilot:
        await wait_until(pilot, lambda: app.view.root_status == "finished")
        await pilot.press("ctrl+o")
        await wait_until(pilot, lambda: isinstance(app.screen, MicroagentsScreen))
        await pilot.pause(0.1)
        screen = app.screen
        assert isinstance(screen, MicroagentsScreen) and screen.loaded is not None
        console = Console(width=200, file=io.StringIO(), record=True)
        console.print(loaded_table(screen.loaded.microagents))
        assert "shipper[/b]" in console.export_text()
        await pilot.press("escape")
        await wait_until(pilot, lambda: not isinstance(app.screen, MicroagentsScreen))

        await pilot.press(*"/greet", "enter")
        await wait_until(pilot, lambda: isinstance(app.screen, TaskInputsScreen))
        await pilot.pause(0.1)
        labels = [str(label.render()) for label in app.screen.query(Label)]
        assert any("[link=https://evil.example]y[/link]" in text for text in labels), labels
        assert app.is_running
