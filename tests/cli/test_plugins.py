"""Plugins end to end: a strategy plugin folder as `--strategy`, a Claude Code plugin and a
marketplace installed with `tui plugin add` (from a folder and from a real git repository), and
what installing shows and refuses. The real `tui` in a child process, the scripted model."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

from openhands_tui.testing import Script, Turn
from tests.conftest import model_args, run_tui

STRATEGY = """
from openhands_tui.sdk import Agent, AgentContext
from openhands_tui.sdk.strategy import Strategy
from openhands_tui.tools.preset.default import get_default_tools


class Careful(Strategy):
    name = "careful"

    def build_agent(self, llm, params=None):
        context = AgentContext(system_message_suffix="ROLE:careful")
        return Agent(llm=llm, tools=get_default_tools(), agent_context=context)
"""

GUARD = """#!/bin/sh
# a plugin's guard: told where the plugin is, refuses anything that touches "forbidden"
test -f "$CLAUDE_PLUGIN_ROOT/hooks/guard.sh" || exit 0
if grep -q forbidden; then echo "the plugin forbids it" >&2; exit 2; fi
"""


def _plugin(root: Path, name: str, *, strategy: bool = False, claude: bool = False) -> Path:
    (root / "commands").mkdir(parents=True)
    (root / "commands" / "hello.md").write_text("---\ndescription: Say hello\n---\nSay hello to $ARGUMENTS politely.\n")
    (root / "skills" / "tidy").mkdir(parents=True)
    (root / "skills" / "tidy" / "SKILL.md").write_text("---\nname: tidy\ndescription: Tidy a folder\n---\nTidy it.\n")
    (root / "hooks").mkdir()
    (root / "hooks" / "guard.sh").write_text(GUARD)
    (root / "hooks" / "guard.sh").chmod(0o755)
    hooks = {
        "PreToolUse": [
            {"matcher": "Bash", "hooks": [{"type": "command", "command": "${CLAUDE_PLUGIN_ROOT}/hooks/guard.sh"}]}
        ]
    }
    (root / "hooks" / "hooks.json").write_text(json.dumps({"hooks": hooks}))
    if strategy:
        (root / "strategy.py").write_text(STRATEGY)
    if claude:
        (root / ".claude-plugin").mkdir()
        (root / ".claude-plugin" / "plugin.json").write_text(
            json.dumps({"name": name, "version": "1.2.0", "description": "Demo"})
        )
    return root


def _run(serve, workspace: Path, *extra: str, task: str = "go", turns=None):
    turns = turns or [Turn.call("terminal", command="touch forbidden"), Turn.finish("tried")]
    server = serve([Script(turns=turns)])
    return run_tui("--headless", "-t", task, "--workspace", str(workspace), *extra, *model_args(server)), server


def test_a_strategy_plugin_folder_brings_its_strategy_commands_skills_and_hooks(
    serve, workspace: Path, tmp_path: Path
) -> None:
    plugin = _plugin(tmp_path / "careful-kit", "careful-kit", strategy=True)
    described = run_tui("--strategy", str(plugin), "--describe")
    assert described.returncode == 0, described.stderr
    assert "careful:" in described.stdout and "plugin: careful-kit" in described.stdout
    assert "command: /careful-kit:hello" in described.stdout and "hook PreToolUse: runs" in described.stdout

    result, server = _run(serve, workspace, "--strategy", str(plugin))
    assert result.returncode == 0, result.stderr
    assert "ROLE:careful" in server.requests[0].messages[0]["content"]  # its strategy built the agent
    assert "→ denied: the plugin forbids it" in result.stdout  # its hook ran, told where the plugin is
    assert not (workspace / "forbidden").exists()

    result, server = _run(
        serve, workspace, "--strategy", str(plugin), task="/careful-kit:hello world", turns=[Turn.finish()]
    )
    assert result.returncode == 0, result.stderr
    assert "Say hello to world politely." in server.requests[0].messages[-1]["content"]


def test_installing_shows_what_a_plugin_holds_and_asks_first(tmp_path: Path, workspace: Path) -> None:
    plugin = _plugin(tmp_path / "src", "kit", claude=True)
    refused = run_tui("plugin", "add", str(plugin))
    assert refused.returncode == 2
    assert "Plugin kit 1.2.0 from" in refused.stdout and "• hook PreToolUse: runs" in refused.stdout
    assert (
        refused.stderr.strip()
        == "tui plugin: kit: not installed; review what it holds above, then run again with --yes"
    )
    assert "no plugins installed" in run_tui("plugin", "list").stdout

    added = run_tui("plugin", "add", str(plugin), "--yes")
    assert added.returncode == 0, added.stderr
    assert "Installed plugin kit" in added.stdout
    listed = run_tui("plugin", "list").stdout
    assert listed.splitlines()[0].startswith("kit  ") and "    command: /kit:hello" in listed


def test_an_installed_plugin_is_a_copy_every_session_uses(serve, tmp_path: Path, workspace: Path) -> None:
    plugin = _plugin(tmp_path / "src", "kit", claude=True)
    secret = tmp_path / "secret.txt"
    secret.write_text("TOP SECRET\n")
    (plugin / "skills" / "tidy" / "leak.md").symlink_to(secret)
    assert run_tui("plugin", "add", str(plugin), "--yes").returncode == 0
    (plugin / "hooks" / "guard.sh").write_text("#!/bin/sh\nexit 0\n")  # changing the source changes nothing installed
    installed = json.loads(run_tui("plugin", "list", "--json").stdout)["plugins"][0]
    result, _ = _run(serve, workspace)
    assert "→ denied: the plugin forbids it" in result.stdout
    copies = list(Path(tmp_path / "home").rglob("leak.md"))
    assert copies == [] and installed["name"] == "kit"  # a link is not part of what is installed

    assert run_tui("plugin", "remove", "kit").returncode == 0
    result, _ = _run(serve, workspace, turns=[Turn.call("terminal", command="touch forbidden"), Turn.finish()])
    assert "⚓" not in result.stdout and (workspace / "forbidden").exists()


def test_a_plugin_from_git_is_installed_at_a_commit_and_update_moves_it_on(tmp_path: Path) -> None:
    repo = _plugin(tmp_path / "repo", "gitkit", claude=True)
    git = ["git", "-C", str(repo), "-c", "user.name=t", "-c", "user.email=t@t"]
    subprocess.run([*git[:3], "init", "-q"], check=True)
    subprocess.run([*git, "add", "-A"], check=True)
    subprocess.run([*git, "commit", "-qm", "one"], check=True)
    first = subprocess.run([*git, "rev-parse", "HEAD"], capture_output=True, text=True, check=True).stdout.strip()
    url = f"file://{repo}"
    added = run_tui("plugin", "add", url, "--yes")
    assert added.returncode == 0, added.stderr
    assert f"Installed plugin gitkit at {first[:12]}" in added.stdout
    (repo / "commands" / "bye.md").write_text("Say bye.\n")
    subprocess.run([*git, "add", "-A"], check=True)
    subprocess.run([*git, "commit", "-qm", "two"], check=True)
    assert run_tui("plugin", "update", "gitkit", "--yes").returncode == 0
    (entry,) = json.loads(run_tui("plugin", "list", "--json").stdout)["plugins"]
    assert entry["commit"] != first and "command: /gitkit:bye" in entry["holds"]
    assert not any(p.name == ".git" for p in (tmp_path / "home").rglob(".git"))  # files, not a repository


def test_a_marketplace_installs_the_plugins_named_and_refuses_unknown_ones_in_one_line(tmp_path: Path) -> None:
    market = tmp_path / "market"
    _plugin(market / "plugins" / "alpha", "alpha")
    _plugin(market / "plugins" / "beta", "beta")
    (market / ".claude-plugin").mkdir()
    listing = {
        "name": "m",
        "plugins": [{"name": "alpha", "source": "./plugins/alpha"}, {"name": "beta", "source": "./plugins/beta"}],
    }
    (market / ".claude-plugin" / "marketplace.json").write_text(json.dumps(listing))
    unnamed = run_tui("plugin", "add", str(market), "--yes")
    assert unnamed.returncode == 2
    assert unnamed.stderr.strip().endswith("a marketplace of 2 plugins; name the ones to install: alpha, beta")
    wrong = run_tui("plugin", "add", str(market), "gamma", "--yes")
    assert wrong.returncode == 2 and "no plugin 'gamma' in this marketplace (it has: alpha, beta)" in wrong.stderr
    assert run_tui("plugin", "add", str(market), "alpha", "beta", "--yes").returncode == 0
    names = [p["name"] for p in json.loads(run_tui("plugin", "list", "--json").stdout)["plugins"]]
    assert names == ["alpha", "beta"]


def test_two_plugins_with_one_command_name_are_said_not_silently_resolved(
    serve, tmp_path: Path, workspace: Path
) -> None:
    for name in ("alpha", "beta"):
        assert run_tui("plugin", "add", str(_plugin(tmp_path / name, name)), "--yes").returncode == 0
    result, _ = _run(serve, workspace, turns=[Turn.finish()])
    said = " ".join(result.stderr.split())
    assert "/hello is defined by alpha:hello (" in said and "beta:hello (" in said
    assert "it runs the first; the others run as /alpha:hello, /beta:hello" in said


def test_shipped_strategies_are_found_by_name_from_any_folder(workspace: Path) -> None:
    described = run_tui("--strategy", "waterfall", "--describe", cwd=workspace)
    assert described.returncode == 0, described.stderr
    assert described.stdout.startswith("waterfall: Design → Code → Test pipeline")
    unknown = run_tui("--strategy", "watrfall", "--describe", cwd=workspace)
    assert (
        unknown.returncode == 2
        and "no such strategy (shipped: fanout, plan_execute, refine, review, solo, waterfall" in unknown.stderr
    )


def test_a_claude_code_plugin_the_user_installed_brings_its_hooks_too(
    serve, workspace: Path, isolated_home: Path
) -> None:
    root = _plugin(isolated_home / ".claude" / "plugins" / "cache" / "mkt" / "kit" / "1.0.0", "kit", claude=True)
    installed = {"kit@mkt": [{"scope": "user", "installPath": str(root), "version": "1.0.0"}]}
    (isolated_home / ".claude" / "plugins" / "installed_plugins.json").write_text(
        json.dumps({"version": 2, "plugins": installed})
    )
    result, _ = _run(serve, workspace)
    assert "⚓ PreToolUse hook" in result.stdout and "(plugin kit) → denied: the plugin forbids it" in result.stdout
    (isolated_home / ".claude" / "settings.json").write_text(json.dumps({"enabledPlugins": {"kit@mkt": False}}))
    result, _ = _run(serve, workspace)
    assert "⚓" not in result.stdout  # switched off in Claude Code: off here too


def test_a_marketplace_cannot_pass_options_to_git(tmp_path: Path) -> None:
    market, marker = tmp_path / "market", tmp_path / "ran"
    (market / ".claude-plugin").mkdir(parents=True)
    entry = {"name": "evil", "source": {"source": "url", "url": f"--upload-pack=touch {marker};.git"}}
    (market / ".claude-plugin" / "marketplace.json").write_text(json.dumps({"name": "m", "plugins": [entry]}))
    refused = run_tui("plugin", "add", str(market), "evil", "--yes")
    assert refused.returncode == 2 and "is not a remote git URL" in refused.stderr
    assert not marker.exists()


def test_a_marketplace_cannot_install_a_folder_from_elsewhere_on_this_machine(tmp_path: Path) -> None:
    elsewhere = _plugin(tmp_path / "elsewhere", "kit")
    market = tmp_path / "market"
    (market / ".claude-plugin").mkdir(parents=True)
    for url in (str(elsewhere), f"file://{elsewhere}", f"{elsewhere}.git"):
        entry = {"name": "kit", "source": {"source": "url", "url": url}}
        (market / ".claude-plugin" / "marketplace.json").write_text(json.dumps({"name": "m", "plugins": [entry]}))
        refused = run_tui("plugin", "add", str(market), "kit", "--yes")
        assert refused.returncode == 2 and "is not a remote git URL" in refused.stderr, url


def test_a_folder_in_the_workspace_never_stands_in_for_a_shipped_strategy(workspace: Path, tmp_path: Path) -> None:
    marker = tmp_path / "ran"
    (workspace / "waterfall").mkdir()
    (workspace / "waterfall" / "strategy.py").write_text(f"open({str(marker)!r}, 'w').write('ran')\n")
    described = run_tui("--strategy", "waterfall", "--describe", cwd=workspace)
    assert described.returncode == 0 and described.stdout.startswith("waterfall: Design → Code → Test pipeline")
    assert not marker.exists()


def test_a_project_cannot_switch_on_a_plugin_the_user_switched_off(serve, workspace: Path, isolated_home: Path) -> None:
    root = _plugin(isolated_home / ".claude" / "plugins" / "cache" / "mkt" / "kit" / "1.0.0", "kit", claude=True)
    installed = {"kit@mkt": [{"scope": "user", "installPath": str(root), "version": "1.0.0"}]}
    (isolated_home / ".claude" / "plugins" / "installed_plugins.json").write_text(
        json.dumps({"version": 2, "plugins": installed})
    )
    (isolated_home / ".claude" / "settings.json").write_text(json.dumps({"enabledPlugins": {"kit@mkt": False}}))
    (workspace / ".claude").mkdir()
    (workspace / ".claude" / "settings.json").write_text(json.dumps({"enabledPlugins": {"kit@mkt": True}}))
    result, _ = _run(serve, workspace)
    assert "⚓" not in result.stdout and (workspace / "forbidden").exists()
    assert "switches on plugin kit@mkt, which you switched off; it stays off" in result.stderr
