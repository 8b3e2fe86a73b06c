"""Headless runs with a project's hooks: nothing runs until the project is trusted, and then
what each hook decided is in the transcript and in `--json`. The real `tui` entry point, in a
child process, against the scripted server."""

from __future__ import annotations

import json
from pathlib import Path

from openhands_tui.testing import Script, Turn
from tests.conftest import model_args, run_tui

GUARD = """#!/bin/sh
# a project's guard, as OpenHands' example writes it
if grep -q "forbidden"; then
  echo "forbidden files are blocked by this project" >&2
  exit 2
fi
"""


def _project_with_a_guard(workspace: Path) -> None:
    hooks = workspace / ".openhands"
    hooks.mkdir()
    (hooks / "guard.sh").write_text(GUARD)
    (hooks / "guard.sh").chmod(0o755)
    config = {"PreToolUse": [{"matcher": "Bash", "hooks": [{"type": "command", "command": ".openhands/guard.sh"}]}]}
    (hooks / "hooks.json").write_text(json.dumps(config))


def test_a_projects_hooks_wait_for_trust_and_then_block_in_the_transcript(serve, workspace: Path) -> None:
    _project_with_a_guard(workspace)
    turns = [Turn.call("terminal", command="touch forbidden.txt"), Turn.finish("cleaned")]

    untrusted = run_tui(
        "--headless", "-t", "clean", "--workspace", str(workspace), *model_args(serve([Script(turns=turns)]))
    )
    assert untrusted.returncode == 0, untrusted.stderr
    assert (
        "warning: ignoring .openhands/hooks.json (1 entry): this project's hooks, "
        "which would run outside the sandbox, are not trusted" in untrusted.stderr
    )
    assert "⚓" not in untrusted.stdout and (workspace / "forbidden.txt").exists()

    (workspace / "forbidden.txt").unlink()
    trusted = run_tui(
        "--headless",
        "-t",
        "clean",
        "--trust-project",
        "--workspace",
        str(workspace),
        *model_args(serve([Script(turns=turns)])),
    )
    assert trusted.returncode == 0, trusted.stderr
    assert (
        "⚓ PreToolUse hook .openhands/guard.sh (.openhands/hooks.json) → "
        "denied: forbidden files are blocked by this project" in trusted.stdout
    )
    assert not (workspace / "forbidden.txt").exists()


def test_json_output_carries_each_hooks_decision_and_each_critic_score(serve, workspace: Path, tmp_path: Path) -> None:
    _project_with_a_guard(workspace)
    strategy = tmp_path / "judged.py"
    strategy.write_text(
        "from openhands_tui.sdk import Agent\n"
        "from openhands_tui.sdk.critic import EmptyPatchCritic, IterativeRefinementConfig\n"
        "from openhands_tui.sdk.strategy import Strategy\n"
        "from openhands_tui.tools.preset.default import get_default_tools\n\n"
        "class Judged(Strategy):\n"
        "    def build_agent(self, llm, params=None):\n"
        "        refine = IterativeRefinementConfig(max_iterations=1)\n"
        "        critic = EmptyPatchCritic(iterative_refinement=refine)\n"
        "        return Agent(llm=llm, tools=get_default_tools(), critic=critic)\n"
    )
    turns = [Turn.call("terminal", command="touch forbidden.txt"), Turn.finish("first"), Turn.finish("second")]
    result = run_tui(
        "--headless",
        "--json",
        "-t",
        "clean",
        "--trust-project",
        "--strategy",
        str(strategy),
        "--workspace",
        str(workspace),
        *model_args(serve([Script(turns=turns)])),
    )
    assert result.returncode == 0, result.stderr
    events = [json.loads(line) for line in result.stdout.splitlines() if line.startswith("{")]
    (hook,) = [e for e in events if e["kind"] == "hook"]
    assert (hook["event"], hook["outcome"], hook["said"]) == (
        "PreToolUse",
        "denied",
        "forbidden files are blocked by this project",
    )
    critics = [(e["critic"], e["score"], e["refine"]) for e in events if e["kind"] == "critic"]
    assert critics == [("EmptyPatchCritic", 0.0, True), ("EmptyPatchCritic", 0.0, False)]
    assert [e["source"] for e in events if e["kind"] == "message" and e["role"] == "user"] == ["", "critic"]


def test_tui_hooks_lists_each_hook_with_its_file_and_whether_it_runs(workspace: Path, isolated_home: Path) -> None:
    _project_with_a_guard(workspace)
    (isolated_home / ".claude").mkdir()
    user = {"hooks": {"Stop": [{"hooks": [{"type": "command", "command": "notify-send done"}]}], "Bogus": []}}
    (isolated_home / ".claude" / "settings.json").write_text(json.dumps(user))
    listed = run_tui("hooks", "--workspace", str(workspace))
    assert listed.returncode == 0, listed.stderr
    assert listed.stdout.splitlines() == [
        "Stop: notify-send done",
        "    ~/.claude/settings.json (user, runs, timeout 60 s)",
        "PreToolUse [Bash]: .openhands/guard.sh",
        "    .openhands/hooks.json (project, not trusted, timeout 60 s)",
        "the project's hooks run once you trust them: in the app, or with --trust-project",
        f"warning: {isolated_home}/.claude/settings.json: unknown hook event 'Bogus'; ignored",
    ]
    as_json = json.loads(run_tui("hooks", "--json", "--workspace", str(workspace)).stdout)
    assert [(h["event"], h["state"]) for h in as_json["hooks"]] == [("Stop", "runs"), ("PreToolUse", "not trusted")]
