"""Where microagents come from, in what order, and how bad files are reported."""

from __future__ import annotations

import json
from pathlib import Path

from openhands_tui.sdk.context import Skill, load_microagents
from tests.conftest import run_tui


def test_every_format_lands_with_the_right_type_and_source(microagent_workspace: Path) -> None:
    result = run_tui("microagents", "--json", "--workspace", str(microagent_workspace))
    assert result.returncode == 0, result.stderr
    data = json.loads(result.stdout)
    found = {m["name"]: m for m in data["microagents"]}
    ws = microagent_workspace
    expected = {
        "repo": ("repo", ws / ".openhands/microagents/repo.md", "workspace"),
        "deploy": ("knowledge", ws / ".openhands/microagents/knowledge/deploy.md", "workspace"),
        "fix_issue": ("task", ws / ".openhands/microagents/tasks/fix_issue.md", "workspace"),
        "docker": ("knowledge", ws / ".openhands/microagents/docker.md", "workspace"),
        "lint": ("knowledge", ws / ".openhands/skills/lint.md", "workspace"),
        "pdf-tools": ("knowledge", ws / ".agents/skills/pdf-tools/SKILL.md", "workspace"),
        "agents": ("repo", ws / "AGENTS.md", "workspace"),
        "claude": ("repo", ws / "CLAUDE.md", "workspace"),
        "gemini": ("repo", ws / "GEMINI.md", "workspace"),
        "cursorrules": ("repo", ws / ".cursorrules", "workspace"),
        "personal": ("knowledge", ws.parent / "home/.openhands/microagents/personal.md", "user"),
        "notes": ("knowledge", ws.parent / "home/.agents/skills/notes/SKILL.md", "user"),
        "git": ("knowledge", None, "builtin"),
        "github": ("knowledge", None, "builtin"),
        "testing": ("knowledge", None, "builtin"),
        "python": ("knowledge", None, "builtin"),
        "npm": ("knowledge", None, "builtin"),
    }
    for name, (kind, source, origin) in expected.items():
        assert found[name]["type"] == kind, name
        assert found[name]["origin"] == origin, name
        if source is not None:
            assert Path(found[name]["source"]).resolve() == source.resolve(), name
    assert found["fix_issue"]["triggers"] == ["/fix_issue"]
    assert found["fix_issue"]["inputs"] == [{"name": "issue", "description": "issue number"}]
    assert found["pdf-tools"]["triggers"] == ["pdf-tools", "pdf tools"]
    assert found["long"]["truncated"] and found["long"]["tokens"] < 6500
    assert "README" not in found and "reference" not in found
    assert all(m["tokens"] > 0 for m in data["microagents"])
    # a shadowed name and every broken file are reported, not fatal
    assert any(s.startswith("docker from ") and "builtin" in s for s in data["shadowed"])
    problems = "\n".join(data["warnings"])
    assert "broken.md: skipped, broken YAML frontmatter" in problems
    assert "wrongtype.md: skipped, wrong type for 'triggers'" in problems
    assert "listy.md: skipped, the frontmatter must be a mapping" in problems
    assert "empty.md: skipped, it has no content" in problems
    assert "huge.md: skipped, 300,000 bytes is more than the" in problems


def test_strategy_skills_come_first(microagent_workspace: Path) -> None:
    mine = Skill(name="deploy", content="Strategy-specific deploy rules", triggers=["deploy"])
    loaded = load_microagents(microagent_workspace, strategy_skills=[mine])
    assert loaded.by_name("deploy") is mine
    assert any("deploy from" in s and "strategy" in s for s in loaded.shadowed)


def test_the_git_root_is_searched_too(workspace: Path) -> None:
    import subprocess

    subprocess.run(["git", "init", "-q", str(workspace)], check=True)
    sub = workspace / "packages" / "api"
    sub.mkdir(parents=True)
    (workspace / "AGENTS.md").write_text("Monorepo rules.\n")
    loaded = load_microagents(sub)
    assert loaded.by_name("agents") is not None


def test_whole_word_triggers() -> None:
    git = Skill(name="git", content="x", triggers=["git"])
    assert git.match("please git rebase onto main") == "git"
    assert git.match("open a GitHub issue") is None
    assert git.match("GIT status?") == "git"
    cpp = Skill(name="cpp", content="x", triggers=["c++"])
    assert cpp.match("write it in c++, please") == "c++" and cpp.match("objc++") is None


def test_human_listing(microagent_workspace: Path) -> None:
    result = run_tui("microagents", "--workspace", str(microagent_workspace))
    assert result.returncode == 0
    assert "fix_issue" in result.stdout and "always on" in result.stdout and "warning: " in result.stdout
