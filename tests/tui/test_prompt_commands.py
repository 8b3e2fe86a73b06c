"""Pilot tests: `/` in the prompt offers what `/name` would run in this repository, as the
engine's loader found it, once the session has loaded it."""

from __future__ import annotations

from pathlib import Path

from openhands_tui.testing import Script, Turn
from tests.tui.conftest import SIZE, live_app, wait_until


def _offered(app) -> list[str]:  # type: ignore[no-untyped-def]
    options = app.query_one("#completions")
    if not options.display:
        return []
    return [str(options.get_option_at_index(i).prompt) for i in range(options.option_count)]


async def test_the_prompt_offers_the_repositorys_commands_and_skills(serve, workspace: Path) -> None:
    commands = workspace / ".claude" / "commands"
    commands.mkdir(parents=True)
    (commands / "review.md").write_text(
        "---\ndescription: Review a module\nargument-hint: [module] [depth]\n---\nReview $ARGUMENTS; `echo ${HOME}`.\n"
    )
    skills = workspace / ".claude" / "skills"
    for name, extra in (("pdf-tables", ""), ("background", "user-invocable: false\n")):
        (skills / name).mkdir(parents=True)
        header = f"name: {name}\ndescription: the {name} skill\n{extra}"
        (skills / name / "SKILL.md").write_text(f"---\n{header}---\nBody.\n")
    gemini = workspace / ".gemini" / "commands" / "git"
    gemini.mkdir(parents=True)
    (gemini / "commit.toml").write_text('description = "Commit staged work"\nprompt = "Commit: {{args}}"\n')
    server = serve([Script(turns=[Turn.finish("reviewed")])])
    app = live_app(server, workspace)
    async with app.run_test(size=SIZE) as pilot:
        await wait_until(pilot, lambda: app.view.microagents is not None)
        await pilot.press("/", "r")
        await pilot.pause(0.05)
        assert _offered(app) == [
            "/resume  reopen a stored session (id, or the list)",
            "/rewind  go back to before a turn (Esc Esc), or undo the last rewind",
            "/review  Review a module",
        ]
        await pilot.press("backspace", "P")
        await pilot.pause(0.05)
        plan = "/plan  on | off | show (no argument: switch plan mode; read-only, ends with a plan)"
        assert _offered(app) == [plan, "/pdf-tables  the pdf-tables skill"]  # in any case, as the engine matches
        await pilot.press("backspace", "g")
        await pilot.pause(0.05)
        assert _offered(app) == ["/git:commit  Commit staged work"]  # Gemini CLI's `git/commit.toml`
        await pilot.press("backspace", "b")
        await pilot.pause(0.05)
        assert _offered(app) == []  # `user-invocable: false`: not a command
        await pilot.press("backspace", "r", "e", "v", "tab", *"the auth module", "enter")
        await wait_until(pilot, lambda: app.view.root_status == "finished")
        sent = server.requests[0].messages[1]["content"]
        assert sent.startswith("Review the auth module; `echo ${HOME}`.")  # what /review runs
