"""In the app, children that worked in their own copies say what came back: the parent's
transcript has a line for each (merged, or a conflict with where the child's version is kept),
and each child's node in the tree shows its merged and conflicting files."""

from __future__ import annotations

from pathlib import Path

from openhands_tui.sdk.run.confirmation import ConfirmationMode
from openhands_tui.testing import Script, ScriptedToolCall, Turn
from tests.tui.conftest import SIZE, live_app, wait_until
from tests.tui.drawn import drawn

STRATEGY = Path(__file__).parent.parent / "fixtures" / "isolated_pair.py"


def _writes(text: str, delay: float = 0.0) -> list[Turn]:
    create = ScriptedToolCall(
        name="file_editor", arguments={"command": "create", "path": "same.txt", "file_text": text}
    )
    return [
        Turn(tool_calls=[create]),
        Turn(delay=delay, tool_calls=[ScriptedToolCall(name="finish", arguments={"message": "ok"})]),
    ]


async def test_the_app_shows_what_each_childs_copy_brought_back(serve, workspace: Path) -> None:
    both = [{"agent": "alpha", "task": "write it"}, {"agent": "beta", "task": "write it too"}]
    server = serve(
        [
            Script(
                name="root",
                match="ROLE:root",
                turns=[Turn.call("delegate_parallel", tasks=both), Turn.finish("both back")],
            ),
            Script(name="alpha", match="ROLE:alpha", turns=_writes("alpha\n")),
            Script(name="beta", match="ROLE:beta", turns=_writes("beta\n", delay=1.5)),
        ]
    )
    app = live_app(server, workspace, strategy=str(STRATEGY), task="split it", confirm=ConfirmationMode.NEVER)
    async with app.run_test(size=SIZE) as pilot:
        await wait_until(pilot, lambda: app.view.root_status == "finished" and not app.runs.running)
        await wait_until(pilot, lambda: "conflicts (yours kept): same.txt" in " ".join(drawn(app).split()))
        screen = " ".join(drawn(app).split())
        assert "⑂ alpha-1's changes: merged same.txt" in screen
        assert "⑂1" in screen and "✗1" in screen  # the tree: alpha merged one, beta conflicted on one
    assert (workspace / "same.txt").read_text() == "alpha\n"
