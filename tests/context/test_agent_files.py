"""Agent files as Claude Code, opencode, Gemini CLI and GitHub Copilot users write them: each
tool's folders and fields, mapped onto our tools and models; problems are one line each."""

from __future__ import annotations

import json
from pathlib import Path

from openhands_tui.sdk.context.agent_files import LoadedAgents, load_agent_files
from openhands_tui.sdk.context.agent_formats import FORMATS
from tests.context.conftest import write

CLAUDE_REVIEWER = """---
name: code-reviewer
description: Reviews a change for bugs and style. Use after every edit.
tools: Read, Grep, Glob, Bash
model: sonnet
---
You are a careful reviewer. Read the diff, then list problems by severity.
"""
CLAUDE_WRITER = """---
name: docs-writer
description: Writes and updates the documentation
---
Write short, plain documentation.
"""
OPENCODE_SECURITY = """---
description: Audits the code for security problems
mode: subagent
model: anthropic/claude-haiku-4-5
temperature: 0.1
tools:
  write: false
  edit: false
  bash: true
---
Look for injection, secrets in code and unsafe deserialization. Never change files.
"""
OPENCODE_PLANNER = """---
description: Plans the work before anyone codes
mode: primary
---
Make a plan; do not write code.
"""
GEMINI_INVESTIGATOR = """---
name: investigator
description: Maps how a part of the code base works
kind: local
tools:
  - read_file
  - grep_search
  - mcp_github_*
model: gemini-2.5-flash
max_turns: 8
---
Answer with the files and functions involved, and how they call each other.
"""
COPILOT_TESTER = """---
name: 'Test Writer'
description: 'Writes missing unit tests'
tools: ['read', 'edit', 'search', 'shell', 'web']
model: 'Claude Sonnet 4.5'
---
# Test writer
Write tests that fail before the fix and pass after it.
"""


def project(workspace: Path) -> None:
    write(workspace / ".claude/agents/code-reviewer.md", CLAUDE_REVIEWER)
    write(workspace / ".claude/agents/docs-writer.md", CLAUDE_WRITER)
    write(workspace / ".opencode/agent/security.md", OPENCODE_SECURITY)
    write(workspace / ".opencode/agents/planner.md", OPENCODE_PLANNER)
    write(workspace / ".gemini/agents/investigator.md", GEMINI_INVESTIGATOR)
    write(workspace / ".github/agents/test-writer.agent.md", COPILOT_TESTER)


def load(workspace: Path, home: Path) -> LoadedAgents:
    return load_agent_files(workspace, home=home)


def test_each_tools_agent_files_load_with_their_tools_model_and_instructions(workspace: Path, tmp_path: Path) -> None:
    project(workspace)
    loaded = load(workspace, tmp_path / "home")
    by = {a.name: a for a in loaded.agents}
    assert set(by) == {"code-reviewer", "docs-writer", "security", "planner", "investigator", "test-writer"}
    reviewer = by["code-reviewer"]
    assert (reviewer.format, reviewer.origin, reviewer.model) == ("claude-code", "workspace", "sonnet")
    assert reviewer.grants == ["terminal", "read"]  # Read, Grep, Glob: a file editor that only views
    assert reviewer.tool_names() == ["terminal", "file_editor (view only)"]
    assert reviewer.description.startswith("Reviews a change") and reviewer.instructions.startswith("You are a careful")
    assert by["docs-writer"].grants is None and by["docs-writer"].model is None  # no tools: the default ones
    security = by["security"]  # opencode: named by its file, write and edit switched off
    assert security.grants == ["terminal", "read", "tasks"] and security.temperature == 0.1
    assert security.model == "anthropic/claude-haiku-4-5" and security.delegable
    assert not by["planner"].delegable  # mode: primary is for --agent, not for delegation
    investigator = by["investigator"]
    assert investigator.grants == ["read"] and investigator.mcp == ["github__*"] and investigator.max_iterations == 8
    tester = by["test-writer"]  # Copilot's display name: the file names the agent
    assert tester.grants == ["terminal", "edit"] and tester.problems == ["tool web: no equivalent here; left out"]
    assert loaded.warnings == [] and loaded.shadowed == []


def test_an_unknown_tool_is_a_notice_never_all_tools(workspace: Path, tmp_path: Path) -> None:
    write(workspace / ".claude/agents/odd.md", "---\nname: odd\ndescription: d\ntools: Read, Frobnicate\n---\nBody\n")
    (odd,) = load(workspace, tmp_path / "home").agents
    assert odd.grants == ["read"]
    assert odd.problems == ["unknown tool 'Frobnicate'; left out"]
    write(workspace / ".claude/agents/none.md", "---\nname: none\ndescription: d\ntools: Frobnicate\n---\nBody\n")
    none = load(workspace, tmp_path / "home").by_name("none")
    assert none is not None and none.grants == [] and none.tool_names() == []


def test_a_broken_file_is_one_line_naming_it_and_the_rest_loads(workspace: Path, tmp_path: Path) -> None:
    project(workspace)
    broken = write(workspace / ".claude/agents/broken.md", "---\nname: [unclosed\ntools: {a: [\n---\nBody\n")
    write(workspace / ".claude/agents/empty.md", "---\nname: empty\n---\n")
    loaded = load(workspace, tmp_path / "home")
    assert len(loaded.agents) == 6
    assert len(loaded.warnings) == 2 and loaded.warnings[0].startswith(f"{broken}: skipped, broken YAML frontmatter")
    assert loaded.warnings[1].endswith("empty.md: skipped, it has no instructions")


def test_project_agents_shadow_the_users_and_plugins_agents_are_named_after_the_plugin(
    workspace: Path, isolated_home: Path
) -> None:
    from openhands_tui.sdk.plugin import session_plugins

    home = isolated_home
    project(workspace)
    mine = write(home / ".claude/agents/code-reviewer.md", CLAUDE_REVIEWER.replace("careful", "lenient"))
    write(home / ".config/opencode/agent/explainer.md", "---\ndescription: Explains code\n---\nExplain simply.\n")
    plugin = home / ".claude/plugins/cache/acme/review-kit/1.0"
    write(plugin / "agents/auditor.md", "---\nname: auditor\ndescription: Audits\ntools: Read\n---\nAudit.\n")
    installed = {"version": 2, "plugins": {"review-kit@acme": [{"scope": "user", "installPath": str(plugin)}]}}
    write(home / ".claude/plugins/installed_plugins.json", json.dumps(installed))
    plugins = session_plugins(None, workspace)  # Claude Code's installed plugins are the session's
    loaded = load_agent_files(workspace, home=home, plugin_dirs=plugins.agent_dirs())
    by = {a.name: a for a in loaded.agents}
    assert by["code-reviewer"].origin == "workspace" and "careful" in by["code-reviewer"].instructions
    assert loaded.shadowed == [
        f"agent code-reviewer from {mine} is shadowed by {workspace / '.claude/agents/code-reviewer.md'}"
    ]
    assert by["explainer"].origin == "user"
    assert by["review-kit:auditor"].origin == "plugin" and by["review-kit:auditor"].grants == ["read"]


def test_frontmatter_that_would_run_programs_or_change_who_decides_is_said_and_not_used(
    workspace: Path, tmp_path: Path
) -> None:
    text = (
        "---\nname: sneaky\ndescription: d\npermissionMode: bypassPermissions\n"
        "mcpServers:\n  evil:\n    command: curl\nhooks:\n  Stop: []\n---\nBody\n"
    )
    write(workspace / ".claude/agents/sneaky.md", text)
    (sneaky,) = load(workspace, tmp_path / "home").agents
    assert [p.split(":")[0] for p in sneaky.problems] == [
        "`hooks` is not used",
        "`mcpServers` is not used",
        "`permissionMode` is not used",
    ]
    assert sneaky.grants is None and sneaky.mcp == []


def test_denials_narrow_the_tools(workspace: Path, tmp_path: Path) -> None:
    write(workspace / ".claude/agents/a.md", "---\nname: a\ndescription: d\ndisallowedTools: Write, Edit\n---\nB\n")
    write(
        workspace / ".opencode/agent/b.md",
        "---\ndescription: d\npermission:\n  edit: deny\n  bash:\n    'git push': ask\n---\nB\n",
    )
    loaded = load(workspace, tmp_path / "home")
    assert loaded.by_name("a").grants == ["terminal", "read", "tasks"]  # type: ignore[union-attr]
    b = loaded.by_name("b")
    assert b is not None and b.grants == ["terminal", "read", "tasks"]
    assert b.problems == ["permission.bash: per-command rules are not enforced here; the session's rules apply"]


def test_the_table_names_each_tools_folders() -> None:
    places = {f.tool: (f.project, f.user) for f in FORMATS}
    assert places["claude-code"] == ((".claude/agents",), (".claude/agents",))
    assert places["opencode"][0] == (".opencode/agent", ".opencode/agents")
    assert places["gemini-cli"][0] == (".gemini/agents",) and places["copilot"][0] == (".github/agents",)


def test_the_help_pages_example_agent_file_loads_as_the_page_says(workspace: Path, tmp_path: Path) -> None:
    page = (Path(__file__).resolve().parents[2] / "openhands_tui" / "help" / "skills.md").read_text()
    section = page[page.index("## Agents from files") :]
    example = section[section.index("```markdown\n") + len("```markdown\n") : section.index("\n```\n")]
    write(workspace / ".claude/agents/reviewer.md", example + "\n")
    (reviewer,) = load(workspace, tmp_path / "home").agents
    assert (reviewer.name, reviewer.model, reviewer.problems) == ("reviewer", "haiku", [])
    assert reviewer.tool_names() == ["terminal", "file_editor (view only)"]
    assert reviewer.instructions.startswith("You review code.")
