"""A typed `/name` that several tasks answer: the task named so runs (the workspace's own command
before a plugin's that also answers to it), and the clash is said once with the names that pick
each — for our plugins and Claude Code's installed ones alike."""

from __future__ import annotations

import json
from pathlib import Path

from openhands_tui.sdk.context.loader import load_microagents
from openhands_tui.sdk.context.tasks import find_task_command


def _plugin(root: Path, command: str, text: str) -> Path:
    (root / "commands").mkdir(parents=True)
    (root / "commands" / f"{command}.md").write_text(f"---\ndescription: {text}\n---\n{text}\n")
    return root


def test_the_workspaces_own_command_runs_before_a_plugins_and_the_clash_is_said(tmp_path: Path) -> None:
    workspace, home = tmp_path / "ws", tmp_path / "home"
    (workspace / ".claude" / "commands").mkdir(parents=True)
    (workspace / ".claude" / "commands" / "deploy.md").write_text("---\ndescription: ours\n---\nOurs.\n")
    plugin = _plugin(tmp_path / "ship", "deploy", "the plugin's")
    loaded = load_microagents(workspace, plugins=[(plugin, "ship")], home=home, include_builtin=False)

    chosen = find_task_command("/deploy now", loaded)
    assert chosen is not None and chosen.skill.name == "deploy"
    plugin_chosen = find_task_command("/ship:deploy", loaded)
    assert plugin_chosen is not None and plugin_chosen.skill.name == "ship:deploy"
    (said,) = [w for w in loaded.warnings if "/deploy is defined by" in w]
    assert said.index("deploy (") < said.index("ship:deploy (") and "others run as /ship:deploy" in said


def test_two_claude_code_plugins_with_one_command_are_said(tmp_path: Path) -> None:
    workspace, home = tmp_path / "ws", tmp_path / "home"
    workspace.mkdir()
    plugins = home / ".claude" / "plugins"
    installed = {}
    for name in ("alpha", "beta"):
        _plugin(plugins / "cache" / name, "review", f"{name} review")
        installed[f"{name}@market"] = [{"scope": "user", "installPath": str(plugins / "cache" / name)}]
    (plugins / "installed_plugins.json").write_text(json.dumps({"version": 2, "plugins": installed}))
    loaded = load_microagents(workspace, home=home, include_builtin=False)

    chosen = find_task_command("/review", loaded)
    assert chosen is not None and chosen.skill.name == "alpha:review"
    (said,) = [w for w in loaded.warnings if "/review is defined by" in w]
    assert "alpha:review" in said and "beta:review" in said
    assert "the others run as /alpha:review, /beta:review" in said


def test_a_command_only_one_task_answers_says_nothing(tmp_path: Path) -> None:
    workspace, home = tmp_path / "ws", tmp_path / "home"
    workspace.mkdir()
    loaded = load_microagents(
        workspace, plugins=[(_plugin(tmp_path / "ship", "deploy", "x"), "ship")], home=home, include_builtin=False
    )
    assert not [w for w in loaded.warnings if "is defined by" in w]
