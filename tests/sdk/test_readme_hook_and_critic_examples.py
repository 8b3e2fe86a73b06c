"""The hook and critic examples of the topic pages (`tui help skills`, `tui help strategies`), taken
from the pages themselves, work as they say."""

from __future__ import annotations

import re
import subprocess
from pathlib import Path
from typing import Any

from openhands_tui.sdk import Agent, Status
from openhands_tui.sdk.hooks import load_hooks
from openhands_tui.testing import Script, Turn
from openhands_tui.tools.preset.default import get_default_tools
from tests.conftest import llm_for
from tests.sdk.helpers import run

HELP = Path(__file__).resolve().parents[2] / "openhands_tui" / "help"


def _blocks(page: str, heading: str) -> dict[str, list[str]]:
    """The fenced code blocks of one section of a topic page, by language."""
    text = (HELP / f"{page}.md").read_text()
    start = text.index(f"\n{heading}\n")
    end = text.find("\n## ", start + 1)
    section = text[start:end]
    blocks: dict[str, list[str]] = {}
    for language, body in re.findall(r"```(\w+)\n(.*?)```", section, re.DOTALL):
        blocks.setdefault(language, []).append(body)
    return blocks


def _run_example(code: str, llm: Any) -> dict[str, Any]:
    namespace: dict[str, Any] = {"llm": llm}  # the model the example's text calls `llm`
    exec(compile(code, "<topic page example>", "exec"), namespace)
    return namespace


async def test_the_readmes_guard_hook_blocks_a_push_from_a_claude_code_settings_file(serve, workspace: Path) -> None:
    blocks = _blocks("skills", "## Hooks")
    (workspace / ".claude" / "hooks").mkdir(parents=True)
    guard = workspace / ".claude" / "hooks" / "guard.sh"
    guard.write_text(blocks["sh"][0])
    guard.chmod(0o755)
    (workspace / ".claude" / "settings.json").write_text(blocks["json"][0])
    server = serve([Script(turns=[Turn.call("terminal", command="git push origin main"), Turn.finish()])])
    result = await run(
        Agent(llm=llm_for(server), tools=get_default_tools()),
        workspace,
        "ship it",
        hooks=load_hooks(workspace, trust_project=True),
    )
    (hook,) = result.kinds("hook")
    assert hook.outcome == "denied" and hook.said == "push from your own terminal, not from the agent"


async def test_the_readmes_callback_hook_refuses_a_force_push(serve, workspace: Path) -> None:
    server = serve([Script(turns=[Turn.call("terminal", command="git push --force"), Turn.finish()])])
    agent = _run_example(_blocks("skills", "## Hooks")["python"][0], llm_for(server))["agent"]
    result = await run(agent, workspace, "ship it")
    (observation,) = [o for o in result.kinds("observation") if o.tool_name == "terminal"]
    assert observation.outcome == "rejected" and "no force pushes" in observation.content


async def test_the_readmes_sdk_style_critic_sends_the_agent_back_for_a_changelog(serve, workspace: Path) -> None:
    subprocess.run(["git", "init", "-q", str(workspace)], check=True)
    server = serve(
        [
            Script(
                turns=[
                    Turn.finish("fixed"),
                    Turn.call("file_editor", command="create", path="CHANGELOG.md", file_text="- fixed\n"),
                    Turn.finish("fixed, with a changelog entry"),
                ]
            )
        ]
    )
    agent = _run_example(_blocks("strategies", "### Critics and iterative refinement")["python"][0], llm_for(server))[
        "agent"
    ]
    result = await run(agent, workspace, "fix it")
    assert result.outcome.status is Status.FINISHED and result.outcome.result == "fixed, with a changelog entry"
    assert [(c.score, c.message, c.refine) for c in result.kinds("critic")] == [
        (0.0, "add an entry to CHANGELOG.md", True),
        (1.0, "CHANGELOG.md updated", False),
    ]
