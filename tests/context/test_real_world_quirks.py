"""Files as public skill repositories and projects really write them, each of which was once
misread: frontmatter other tools accept or add, a SKILL.md in the skills directory itself,
user-only skills, triggers written as a mapping or as text, Cursor rules, Copilot instructions,
monorepos with AGENTS.md (and skill folders) in several folders, `.claude/skills/` and the skill
folders of Copilot, Gemini CLI, Codex and others, Claude Code's rules and the plugins the user
installed, AGENTS.override.md and QWEN.md. The fixtures are our own, written in those shapes.
"""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

import pytest

from openhands_tui.sdk import Agent, Conversation, ConversationParts
from openhands_tui.sdk.context import load_microagents
from openhands_tui.sdk.context.agent_context import extra_info_block, skill_text, triggered_skills, workspace_block
from openhands_tui.sdk.context.tasks import find_task_command
from openhands_tui.testing import Script, ScriptedToolCall, Turn
from openhands_tui.tools.preset.default import get_default_tools
from tests.conftest import llm_for, model_args, run_tui
from tests.context.conftest import load, sent, skill_md, write


def test_frontmatter_other_tools_accept_is_read(workspace: Path) -> None:
    skill_md(workspace, "go", "name: go\ndescription: Go idioms\nglobs: **/*.go\nalways_apply: false\n")
    skill_md(workspace, "research", "name: research\ndescription: | Use when researching posts.\n")
    skill_md(
        workspace,
        "audit",
        "name: audit\ndescription: Audit a skill\nallowed-tools: Read, Grep, Bash(git log:*), mcp__*\n"
        'argument-hint: [<path>, "[--strict]"]\n',
    )
    skill_md(workspace, "block", "name: block\ndescription: |\n  Saves context.\n  Three modes: a, b.\n")
    crlf = write(workspace / ".agents" / "skills" / "crlf" / "SKILL.md", "")
    crlf.write_bytes("\ufeff---\r\nname: crlf\r\ndescription: Edited on Windows\r\n---\r\nBody.\r\n".encode())
    skill_md(workspace, "tabbed", "name: tabbed\ndescription: Tab-indented metadata\nmetadata:\n\tauthor: me\n")
    loaded = load(workspace)
    assert loaded.warnings == []
    found = {s.name: s for s in loaded.skills}
    assert found["go"].description == "Go idioms" and found["go"].agent_skill
    assert found["research"].description == "Use when researching posts."
    assert found["audit"].allowed_tools == ["Read", "Grep", "Bash(git log:*)", "mcp__*"]
    assert found["block"].description == "Saves context. Three modes: a, b."
    assert found["crlf"].description == "Edited on Windows"
    assert found["tabbed"].description == "Tab-indented metadata"
    listing = workspace_block(workspace, loaded.skills)
    for name in ("go", "research", "audit", "block", "crlf", "tabbed"):
        assert f"- {name}: {found[name].description} (.agents/skills/{name})" in listing


def test_broken_flow_lists_are_still_reported(workspace: Path) -> None:
    skill_md(workspace, "broken", "name: broken\ndescription: x\nallowed-tools: [Read, Grep\n")
    loaded = load(workspace)
    assert loaded.skills == []
    assert len(loaded.warnings) == 1 and "broken/SKILL.md: skipped, broken YAML frontmatter" in loaded.warnings[0]


def test_a_skill_md_in_the_skills_directory_itself_hides_no_skill(workspace: Path) -> None:
    write(workspace / ".agents/skills/SKILL.md", "---\nname: index\ndescription: What is here\n---\nSee below.\n")
    for name in ("alpha", "beta"):
        skill_md(workspace, name, f"name: {name}\ndescription: the {name} skill\n")
    write(workspace / ".agents/skills/alpha/references/SKILL.md", "---\nname: template\n---\nA template.\n")
    names = [s.name for s in load(workspace).skills]
    assert names == ["index", "alpha", "beta"]  # each once; alpha's references stay its resources


def test_a_user_only_skill_is_not_offered_to_the_model_but_runs_by_slash(workspace: Path) -> None:
    skill_md(workspace, "release", "name: release\ndescription: Cut a release\ndisable-model-invocation: true\n")
    skill_md(workspace, "review", "name: review\ndescription: Review code\ndisable-model-invocation: false\n")
    skills = load(workspace).skills
    block = workspace_block(workspace, skills)
    assert "- review: Review code" in block and "release" not in block
    assert [s.name for s, _ in triggered_skills(skills, "/release 1.2.0", set())] == ["release"]
    assert [s.name for s, _ in triggered_skills(skills, "please release it", set())] == []


def test_cursor_rules_apply_as_cursor_applies_them(workspace: Path) -> None:
    rules = workspace / ".cursor" / "rules"
    write(rules / "always.mdc", "---\ndescription: House style\nglobs:\nalwaysApply: true\n---\nUse tabs.\n")
    write(rules / "go.mdc", "---\ndescription: Go idioms\nglobs: **/*.go, **/go.mod\nalwaysApply: false\n---\nWrap.\n")
    write(rules / "py.mdc", '---\nglobs: ["**/*.py"]\nalwaysApply: false\n---\nNo bare except.\n')
    write(rules / "frontend/react.mdc", "---\ndescription: React components\n---\nHooks only.\n")
    write(rules / "manual.mdc", "---\ndescription:\nglobs:\nalwaysApply: false\n---\nThe release checklist.\n")
    write(rules / "plain.mdc", "Never commit secrets.\n")
    loaded = load(workspace)
    assert loaded.warnings == []
    block = workspace_block(workspace, loaded.skills)
    assert "Use tabs." in block and "Never commit secrets." in block  # always on
    assert "- cursor:go: Go idioms (for files matching **/*.go, **/go.mod) (.cursor/rules/go.mdc)" in block
    assert "- cursor:py: (for files matching **/*.py)" in block
    assert "- cursor:frontend/react: React components" in block
    for body in ("Wrap.", "No bare except.", "Hooks only.", "release checklist"):
        assert body not in block  # read when the agent asks
    assert "manual" not in block
    fired = triggered_skills(loaded.skills, "follow @manual before tagging", set())
    assert [(s.name, keyword) for s, keyword in fired] == [("cursor:manual", "@manual")]


def test_copilot_instructions_are_always_on(workspace: Path) -> None:
    write(workspace / ".github/copilot-instructions.md", "Use pnpm, never npm.\n")
    write(workspace / ".github/instructions/README.md", "not an instruction file\n")
    loaded = load(workspace)
    assert [(s.name, s.type) for s in loaded.skills] == [("copilot", "repo")]
    assert "Use pnpm, never npm." in workspace_block(workspace, loaded.skills)


def test_a_monorepo_package_keeps_every_agents_md_above_it_and_points_to_those_below(workspace: Path) -> None:
    subprocess.run(["git", "init", "-q", str(workspace)], check=True)
    write(workspace / "AGENTS.md", "Root: run make check.\n")
    write(workspace / "packages/AGENTS.md", "Packages: publish with changesets.\n")
    write(workspace / "packages/api/AGENTS.md", "API: use pnpm --filter api test.\n")
    write(workspace / "packages/api/src/db/AGENTS.md", "DB: migrations are append-only.\n")
    write(workspace / "packages/api/docs/CLAUDE.md", "Docs: one sentence a line.\n")
    write(workspace / "packages/api/node_modules/x/AGENTS.md", "a dependency's file\n")
    loaded = load(workspace / "packages" / "api")
    block = workspace_block(workspace / "packages" / "api", loaded.skills)
    for text in ("Root: run make check.", "Packages: publish with changesets.", "API: use pnpm --filter api test."):
        assert block.count(text) == 1
    assert [s.name for s in loaded.skills if s.type == "repo"] == [
        "agents",
        "agents (packages)",
        "agents (repository root)",
        "nested instructions",
    ]
    assert loaded.shadowed == []
    assert "- docs/CLAUDE.md\n- src/db/AGENTS.md" in block  # pointed to, not injected
    assert "## nested instructions\n" in block  # it comes from no one file
    assert "append-only" not in block and "one sentence a line" not in block and "node_modules" not in block


def test_claude_code_skill_folders_load_and_a_copy_is_reported_once(workspace: Path) -> None:
    deploy = "---\nname: deploy\ndescription: Ship it\n---\nRun make ship.\n"
    write(workspace / ".claude/skills/deploy/SKILL.md", deploy)
    write(workspace / ".claude/skills/deploy/scripts/ship.md", "---\ntitle: not a skill\n---\nresource\n")
    skill_md(workspace, "deploy", "name: deploy\ndescription: Ship it (agents copy)\n")
    home = workspace / "home"
    write(home / ".claude/skills/mine/SKILL.md", "---\nname: mine\ndescription: Personal\n---\nMine.\n")
    loaded = load_microagents(workspace, home=home, include_builtin=False)
    assert [(s.name, s.origin) for s in loaded.skills] == [("deploy", "workspace"), ("mine", "user")]
    assert len(loaded.shadowed) == 1 and ".claude/skills/deploy/SKILL.md" in loaded.shadowed[0]


def test_tui_microagents_shows_rules_without_triggers_cleanly(workspace: Path, isolated_home: Path) -> None:
    write(workspace / ".cursor/rules/go.mdc", "---\ndescription: Go idioms\nglobs: **/*.go\n---\nWrap.\n")
    result = run_tui("microagents", "--workspace", str(workspace))
    assert result.returncode == 0, result.stderr
    line = next(line for line in result.stdout.splitlines() if line.startswith("cursor:go"))
    assert line.endswith("[listed, read on demand]")


async def _skill_observation(workspace: Path, serve, asked: str):
    """What the `skill` tool answers when the model asks for `asked` in `workspace`."""
    call = Turn(tool_calls=[ScriptedToolCall(name="skill", arguments={"name": asked})])
    server = serve([Script(turns=[call, Turn.finish()])])
    events: list = []
    agent = Agent(llm=llm_for(server), tools=get_default_tools())
    conversation = Conversation(agent, workspace=workspace, parts=ConversationParts(subscribers=[events.append]))
    try:
        await conversation.run("hello")
    finally:
        await conversation.close()
    return next(e for e in events if e.kind == "observation")


@pytest.mark.parametrize("asked", ["TDD", "test-driven-development"])
async def test_the_skill_tool_finds_a_skill_by_its_folder_or_in_another_case(
    workspace: Path, isolated_home: Path, serve, asked: str
) -> None:
    skill_md(workspace, "test-driven-development", "name: Test-Driven Development\ndescription: Tests first\n")
    if asked.lower() == "tdd":
        skill_md(workspace, "tdd", "name: tdd\ndescription: Tests first, short\n", "Red, green, refactor.\n")
    result = await _skill_observation(workspace, serve, asked)
    expected = "tdd" if asked.lower() == "tdd" else "Test-Driven Development"
    assert result.content.startswith(f"# Skill: {expected}\n")


@pytest.mark.parametrize(
    ("loaded", "asked", "found"),
    [
        ("writing-plans", "superpowers:writing-plans", True),  # a plugin's skills name each other so
        ("superpowers:writing-plans", "writing-plans", True),
        ("superpowers:writing-plans", "other:writing-plans", True),
        ("writing-plans", "superpowers:brainstorming", False),
    ],
)
async def test_the_skill_tool_finds_a_skill_with_or_without_its_namespace(
    workspace: Path, isolated_home: Path, serve, loaded: str, asked: str, found: bool
) -> None:
    skill_md(workspace, "plans", f"name: {loaded}\ndescription: Plan the work\n", "Write the plan first.\n")
    result = await _skill_observation(workspace, serve, asked)
    assert result.content.startswith(f"# Skill: {loaded}\n") is found, result.content[:200]


async def test_a_bare_name_two_namespaces_share_is_not_guessed(workspace: Path, isolated_home: Path, serve) -> None:
    skill_md(workspace, "a", "name: one:review\ndescription: Review one way\n")
    skill_md(workspace, "b", "name: two:review\ndescription: Review another way\n")
    result = await _skill_observation(workspace, serve, "review")
    assert result.content.startswith("There is no skill named 'review'") and "one:review" in result.content


def test_what_the_model_is_told_headless(workspace: Path, isolated_home: Path, serve) -> None:
    write(workspace / ".cursor/rules/style.mdc", "---\nalwaysApply: true\n---\nPrefer early returns.\n")
    write(workspace / ".cursor/rules/sql.mdc", "---\ndescription: SQL style\nglobs: **/*.sql\n---\nUPPER keywords.\n")
    write(workspace / ".github/copilot-instructions.md", "Answer in British English.\n")
    skill_md(workspace, "lint", "name: lint\ndescription: Lint the code\nglobs: **/*.py\n")
    read_rule = Turn(tool_calls=[ScriptedToolCall(name="skill", arguments={"name": "cursor:sql"})])
    server = serve([Script(turns=[read_rule, Turn.finish()])])
    result = run_tui("--headless", "--workspace", str(workspace), *model_args(server), "--task", "hello")
    assert result.returncode == 0, result.stderr
    first = server.requests[0].messages[1]["content"]
    assert "Prefer early returns." in first and "Answer in British English." in first
    assert "- cursor:sql: SQL style (for files matching **/*.sql)" in first and "UPPER keywords." not in first
    assert "- lint: Lint the code (.agents/skills/lint)" in first
    assert "warning" not in result.stderr
    assert server.requests[1].messages[-1]["content"].startswith("# Skill: cursor:sql\n\nUPPER keywords.")


def test_claude_md_imports_are_followed_inside_the_repository_only(workspace: Path) -> None:
    write(workspace / "AGENTS.md", "Shared: run make test.\n")
    write(
        workspace / "CLAUDE.md",
        "Shared rules, imported:\n\n@AGENTS.md\n@docs/conventions.md\n@~/.ssh/id_rsa\n@../outside.md\n"
        "```\n@docs/example.md\n```\nPing @alice about it.\n",
    )
    write(workspace / "docs/conventions.md", "Conventions: snake_case.\n@style.md\n")
    write(workspace / "docs/style.md", "Style: 100 columns.\n")
    write(workspace / "docs/example.md", "not imported: inside a code block\n")
    write(workspace.parent / "outside.md", "SECRET outside the repository\n")
    write(workspace / "GEMINI.md", "@GEMINI.md\n")
    loaded = load(workspace)
    block = workspace_block(workspace, loaded.skills)
    assert block.count("Shared: run make test.") == 1  # AGENTS.md is on anyway: not repeated
    assert "(@AGENTS.md: given above)" in block
    assert "Conventions: snake_case.\nStyle: 100 columns." in block  # nested imports
    assert "SECRET" not in block and "not imported: inside" not in block and "Ping @alice about it." in block
    assert any("@~/.ssh/id_rsa not imported, it is outside the repository" in w for w in loaded.warnings)
    assert any("@../outside.md not imported, it is outside the repository" in w for w in loaded.warnings)
    assert any("GEMINI.md: @GEMINI.md not imported, imports nest too deep or loop" in w for w in loaded.warnings)


def test_a_package_claude_md_may_import_the_repository_agents_md(workspace: Path) -> None:
    subprocess.run(["git", "init", "-q", str(workspace)], check=True)
    write(workspace / "AGENTS.md", "Root rules.\n")
    write(workspace / "docs/shared.md", "Shared doc.\n")
    write(workspace / "pkg/CLAUDE.md", "@../AGENTS.md\n@../docs/shared.md\nPackage rules.\n")
    loaded = load(workspace / "pkg")
    block = workspace_block(workspace / "pkg", loaded.skills)
    assert block.count("Root rules.") == 1 and "Shared doc.\nPackage rules." in block
    assert loaded.warnings == []


def test_an_openhands_microagent_typed_knowledge_without_triggers_is_always_on(workspace: Path) -> None:
    m = workspace / ".openhands" / "microagents"
    header = "name: overview\ntype: knowledge\nversion: 1.0.0\nagent: CodeActAgent"
    write(m / "overview.md", f"\n---\n{header}\n---\nAn IDE.\n")
    write(m / "readme_gen.md", "---\nname: readme_gen\ntype: knowledge\ntriggers: []\n---\nWrite READMEs.\n")
    write(m / "review.md", "---\nname: review\ntype: knowledge\ntriggers:\n  - code review\n---\nR.\n")
    loaded = load(workspace)
    assert [(s.name, s.type, s.triggers) for s in loaded.skills] == [
        ("overview", "repo", []),
        ("readme_gen", "repo", []),
        ("review", "knowledge", ["code review"]),
    ]
    assert loaded.warnings == []
    assert "An IDE." in workspace_block(workspace, loaded.skills)


def test_a_page_long_description_is_cut_in_the_listing_and_names_cannot_paint_the_terminal(
    workspace: Path, isolated_home: Path
) -> None:
    long = "Use when " + "working with spreadsheets and formulas, " * 60 + "END"
    skill_md(workspace, "sheets", f"name: sheets\ndescription: {long}\n")
    skill_md(workspace, "paint", 'name: "paint\\e]0;owned\\a\\e[2J"\ndescription: "red \\e[31mtext"\n')
    loaded = load(workspace)
    line = next(line for line in workspace_block(workspace, loaded.skills).splitlines() if line.startswith("- sheets"))
    assert len(line) < 1024 + 40 and line.endswith("… (.agents/skills/sheets)") and "END" not in line
    assert loaded.by_name("sheets").description.endswith("END")  # the skill itself keeps it all
    result = run_tui("microagents", "--workspace", str(workspace))
    assert result.returncode == 0, result.stderr
    assert "\x1b" not in result.stdout and "\x07" not in result.stdout
    assert any(line.startswith("paint ") for line in result.stdout.splitlines())


def test_when_to_use_is_listed_after_the_description(workspace: Path) -> None:
    header = "name: polling\ndescription: Poll remote state politely.\nwhen_to_use: >-\n  Use when waiting on CI.\n"
    skill_md(workspace, "polling", header)
    skill_md(workspace, "only-when", "name: only-when\nwhen_to_use: Use when releasing.\n")
    block = workspace_block(workspace, load(workspace).skills)
    assert "- polling: Poll remote state politely. Use when waiting on CI. (.agents/skills/polling)" in block
    assert "- only-when: Use when releasing. (.agents/skills/only-when)" in block


def test_copilot_path_instructions_and_claude_memory_files(workspace: Path) -> None:
    instructions = workspace / ".github" / "instructions"
    write(instructions / "all.instructions.md", '---\napplyTo: "**"\n---\nEvery file: no TODOs.\n')
    write(instructions / "kotlin.instructions.md", '---\napplyTo: "**/*.test.kt,**/*.spec.kt"\n---\nUse Kotest.\n')
    write(instructions / "docs.instructions.md", '---\ndescription: Docs style\napplyTo: "docs/**"\n---\nShort.\n')
    write(instructions / "notes.md", "not an instructions file\n")
    write(instructions / "react.instructions.md", "# React component conventions\nHooks only.\n")
    write(instructions / "api.instructions.md", "---\ndescription: REST API design\n---\nUse nouns.\n")
    write(workspace / ".claude/CLAUDE.md", "Memory: prefer uv.\n")
    write(workspace / "CLAUDE.local.md", "Local: my sandbox URL is http://localhost:3000.\n")
    loaded = load(workspace)
    assert loaded.warnings == [] and loaded.shadowed == []
    block = workspace_block(workspace, loaded.skills)
    for text in ("Every file: no TODOs.", "Memory: prefer uv.", "Local: my sandbox URL"):
        assert text in block
    assert "- copilot:kotlin: (for files matching **/*.test.kt, **/*.spec.kt)" in block
    assert "- copilot:docs: Docs style (for files matching docs/**)" in block
    assert "Use Kotest." not in block and "Short." not in block and "not an instructions" not in block
    # without applyTo: offered by what it says it is, never always on (VS Code applies it when attached)
    assert "- copilot:react: React component conventions" in block
    assert "- copilot:api: REST API design" in block
    assert "Hooks only." not in block and "Use nouns." not in block


def test_skill_folders_shared_by_symlink_load_once_without_noise(workspace: Path) -> None:
    skill_md(workspace, "alpha", "name: alpha\ndescription: A\n")
    write(workspace / "shared/beta/SKILL.md", "---\nname: beta\ndescription: B\n---\nB.\n")
    (workspace / ".agents/skills/beta").symlink_to("../../shared/beta")
    (workspace / ".claude").mkdir()
    (workspace / ".claude/skills").symlink_to("../.agents/skills")
    loaded = load(workspace)
    assert [(s.name, s.directory) for s in loaded.skills] == [
        ("alpha", str(workspace / ".agents/skills/alpha")),
        ("beta", str(workspace / ".agents/skills/beta")),
    ]
    assert loaded.shadowed == [] and loaded.warnings == []


def test_nested_instruction_files_in_and_out_of_git(workspace: Path) -> None:
    write(workspace / "app/Agents.md", "app rules\n")
    write(workspace / "generated/AGENTS.md", "generated rules\n")
    block = workspace_block(workspace, load(workspace).skills)
    assert "- app/Agents.md\n- generated/AGENTS.md" in block  # no repository: a bounded walk
    subprocess.run(["git", "init", "-q", str(workspace)], check=True)
    write(workspace / ".gitignore", "generated/\n")
    block = workspace_block(workspace, load(workspace).skills)
    assert "- app/Agents.md" in block and "generated/" not in block  # git: ignored folders stay out


def test_windsurf_rules_follow_their_trigger(workspace: Path) -> None:
    rules = workspace / ".windsurf" / "rules"
    write(rules / "always.md", "---\ntrigger: always_on\n---\nAlways: small functions.\n")
    write(rules / "react.md", "---\ntrigger: glob\nglobs: **/*.jsx,**/*.tsx\n---\nFunctional components.\n")
    write(rules / "perf.md", "---\ntrigger: model_decision\ndescription: Performance tuning\n---\nProfile first.\n")
    write(rules / "release.md", "---\ntrigger: manual\ndescription: ignored\n---\nRelease steps.\n")
    write(workspace / ".windsurfrules", "Legacy: use yarn.\n")
    loaded = load(workspace)
    assert loaded.warnings == []
    block = workspace_block(workspace, loaded.skills)
    assert "Always: small functions." in block and "Legacy: use yarn." in block
    assert "- windsurf:react: (for files matching **/*.jsx, **/*.tsx)" in block
    assert "- windsurf:perf: Performance tuning" in block
    assert "Functional components." not in block and "Profile first." not in block and "release" not in block
    assert [s.name for s, _ in triggered_skills(loaded.skills, "run @release now", set())] == ["windsurf:release"]


def test_a_vendored_repositorys_typed_docs_are_resources_not_microagents(workspace: Path) -> None:
    vendor = workspace / ".agents" / "skills" / "vendor"
    write(vendor / "docs/how-to.md", "---\ntitle: How skills load\ntype: explanation\n---\nLong docs.\n")
    write(vendor / "docs/reference.md", "---\ntype: reference\ncategory: spec\n---\nThe spec.\n")
    write(vendor / "deploy.md", "---\ntype: knowledge\ntriggers: [deploy]\n---\nShip it.\n")
    write(vendor / "skills/pdf/SKILL.md", "---\nname: pdf\ndescription: PDFs\n---\nUse pdftotext.\n")
    loaded = load(workspace)
    assert [s.name for s in loaded.skills] == ["deploy", "pdf"]
    assert "Long docs." not in workspace_block(workspace, loaded.skills)


def test_base_dir_in_a_skill_points_at_its_folder(workspace: Path) -> None:
    body = 'Run `bash "{baseDir}/scripts/backup.sh" setup`, then `python3 <this-skill-path>/scripts/check.py`.\n'
    skill_md(workspace, "backup", "name: backup\ndescription: Back up\n", body)
    skill = load(workspace).by_name("backup")
    block = extra_info_block(skill, "backup", workspace)
    assert 'bash ".agents/skills/backup/scripts/backup.sh" setup' in block
    assert "python3 .agents/skills/backup/scripts/check.py" in block
    assert f'bash "{workspace}/.agents/skills/backup/scripts/backup.sh"' in skill_text(skill)


def test_an_agents_md_written_by_windows_powershell_is_read(workspace: Path) -> None:
    (workspace / "AGENTS.md").write_bytes("Use dotnet test.\r\n".encode("utf-16"))  # with its BOM
    loaded = load(workspace)
    assert loaded.warnings == [] and loaded.by_name("agents").content == "Use dotnet test."


def test_claude_code_commands_run_as_tasks_with_their_arguments(workspace: Path, isolated_home: Path, serve) -> None:
    commands = workspace / ".claude" / "commands"
    write(
        commands / "review.md",
        '---\ndescription: Review a module\nargument-hint: "<module>"\nallowed-tools: Read, Grep\n---\n'
        "Review $ARGUMENTS for bugs.\nContext: !`git diff HEAD`\n",
    )
    write(commands / "frontend/build.md", "Build the frontend and report size.\n")
    loaded = load(workspace)
    found = {s.name: s for s in loaded.skills}
    assert (found["review"].type, found["review"].triggers, found["review"].description) == (
        "task",
        ["/review"],
        "Review a module",
    )
    assert found["build"].type == "task" and loaded.warnings == []
    command = find_task_command("/build --prod", loaded)
    # no placeholder: Claude Code adds the text as `ARGUMENTS: ...`
    assert command is not None and command.render({}) == "Build the frontend and report size.\n\nARGUMENTS: --prod"
    server = serve([Script(turns=[Turn.finish()])])
    task = "/review the auth module"
    result = run_tui("--headless", "--workspace", str(workspace), *model_args(server), "--task", task)
    assert result.returncode == 0, result.stderr
    sent = server.requests[0].messages[-1]["content"]
    assert "Review the auth module for bugs.\nContext: !`git diff HEAD`" in sent  # shown, never run
    assert "$ARGUMENTS" not in sent


def test_an_argument_hint_of_several_bracket_groups_is_text(workspace: Path) -> None:
    skill_md(
        workspace,
        "fix",
        "name: fix\ndescription: Fix an issue\nargument-hint: [issue-number] [branch]\n",
        where=".claude/skills",
    )
    skill_md(
        workspace,
        "profile",
        "name: profile\ndescription: Profiles\nargument-hint: [list|save|load] [name]\n",
        where=".claude/skills",
    )
    write(
        workspace / ".claude/commands/review-pr.md",
        "---\nargument-hint: [pr-number] [priority]\ndescription: Review a pull request\n---\nReview $ARGUMENTS.\n",
    )
    skill_md(
        workspace, "broken", "name: broken\ndescription: x\nallowed-tools: [Read, Grep\n", where=".claude/skills"
    )  # never closed
    loaded = load(workspace)
    found = {s.name: s for s in loaded.skills}
    assert found["fix"].description == "Fix an issue" and found["profile"].description == "Profiles"
    assert found["review-pr"].description == "Review a pull request"
    assert "broken" not in found
    assert len(loaded.warnings) == 1 and "broken/SKILL.md: skipped, broken YAML frontmatter" in loaded.warnings[0]


def test_skill_frontmatter_as_other_tools_write_it(workspace: Path) -> None:
    skill_md(
        workspace,
        "ai-advisor",
        "name: AI Advisor Workflow\ndescription: 提案書を自動生成する\ntags: [a, b]\n",
        where=".claude/skills",
    )
    skill_md(
        workspace,
        "setup-refresh",
        "name: setup-refresh\ndescription: Refresh\ntype: skill\nuser-invocable: 'no'\n",
        where=".claude/skills",
    )
    skill_md(
        workspace,
        "deploy",
        "name: deploy\ndescription: Ship it\ndisable-model-invocation: 'on'\n",
        where=".claude/skills",
    )
    write(workspace / ".claude/skills/open/SKILL.md", "---\nname: open\ndescription: never closed\n\n# Open\nSteps.\n")
    write(workspace / ".claude/skills/rule/SKILL.md", "---\n# A rule first\nSteps.\n")  # a rule, no frontmatter
    write(workspace / ".claude/skills/list/SKILL.md", "---\n- one\n- two\n")  # a rule, then a list
    loaded = load(workspace)
    found = {s.name: s for s in loaded.skills}
    assert found["AI Advisor Workflow"].commands() == ["/ai-advisor"]  # its folder: the name is no word
    assert found["setup-refresh"].commands() == [] and found["setup-refresh"].agent_skill
    assert found["deploy"].commands() == ["/deploy"] and not found["deploy"].agent_skill  # the user's only
    assert (found["open"].description, found["open"].content) == ("never closed", "# Open\nSteps.")
    assert found["rule"].content == "---\n# A rule first\nSteps." and found["list"].content == "---\n- one\n- two"
    assert loaded.warnings == [
        f"{workspace}/.claude/skills/open/SKILL.md: its frontmatter is never closed with `---`; read up to its "
        "first line that is not `key: value`"
    ]  # `type: skill` is another tool's word, not a problem to report


def test_frontmatter_other_tools_add_loads_and_changes_nothing_here(workspace: Path) -> None:
    """Already read right; kept so: Windows line ends with Claude Code's `model:` and `hooks:`
    (hooks run programs, so they are never taken from a file), a tab in YAML, a folded description."""
    skills = workspace / ".claude/skills"
    (skills / "win").mkdir(parents=True)
    (skills / "win/SKILL.md").write_bytes(
        b"\xef\xbb\xbf---\r\nname: win\r\ndescription: Windows\r\nmodel: opus\r\ncontext: fork\r\n"
        b"hooks:\r\n  PreToolUse:\r\n    - command: ./check.sh\r\n---\r\nSee references/api.md.\r\n"
    )
    write(skills / "tabbed/SKILL.md", "---\nname: tabbed\ndescription: Tabbed\nmetadata:\n\tversion: 1\n---\nBody.\n")
    write(skills / "folded/SKILL.md", "---\nname: folded\ndescription: >-\n  Use when\n  folding.\n---\nBody.\n")
    loaded = load(workspace)
    found = {s.name: (s.description, s.content) for s in loaded.skills}
    assert found == {
        "win": ("Windows", "See references/api.md."),
        "tabbed": ("Tabbed", "Body."),
        "folded": ("Use when folding.", "Body."),
    }
    assert loaded.warnings == []


def test_triggers_written_as_a_mapping_or_as_text_are_the_words_they_list(workspace: Path) -> None:
    skills = workspace / ".claude/skills"
    write(
        skills / "graph/SKILL.md",
        "---\nname: graph\ndescription: Code graph\ntriggers:\n  keywords:\n  - callers\n  - index\n"
        "schema: 1\n---\nUse it.\n",
    )
    write(skills / "ship/SKILL.md", '---\nname: ship\ndescription: Ship\ntriggers: "deploy, release"\n---\nShip it.\n')
    write(skills / "odd/SKILL.md", "---\nname: odd\ndescription: Odd\ntriggers: 5\n---\nAnother tool's field.\n")
    write(
        workspace / ".openhands/microagents/lint.md",
        "---\nname: lint\ntrigger:\n  type: keyword\n  keywords: [ruff]\n---\nRun ruff.\n",
    )
    loaded = load(workspace)
    assert loaded.warnings == []
    found = {s.name: s.triggers for s in loaded.skills}
    assert found == {
        "graph": ["callers", "index", "/graph"],
        "ship": ["deploy", "release", "/ship"],
        "odd": ["odd", "/odd"],
        "lint": ["ruff"],
    }
    fired = [s.name for s, _ in triggered_skills(loaded.skills, "who are the callers of the release", set())]
    assert fired == ["graph", "ship"]
    assert triggered_skills(loaded.skills, "list the keywords", set()) == []


def test_copilot_gemini_and_codex_skill_folders_load(workspace: Path, isolated_home: Path) -> None:
    for where in (
        ".github/skills",
        ".gemini/skills",
        ".codex/skills",
        ".cursor/skills",
        ".opencode/skills",
        ".windsurf/skills",
        ".qwen/skills",
    ):
        name = where.split("/")[0].strip(".")
        skill_md(workspace, name, f"name: {name}\ndescription: from {where}\n", where=where)
    skill_md(isolated_home, "mine", "name: mine\ndescription: personal\n", where=".copilot/skills")
    (isolated_home / ".gemini").mkdir()
    (isolated_home / ".gemini/skills").symlink_to(isolated_home / ".copilot/skills")  # one set, shared
    loaded = load(workspace, isolated_home)
    assert {s.name: s.description for s in loaded.skills} == {
        "github": "from .github/skills",
        "gemini": "from .gemini/skills",
        "codex": "from .codex/skills",
        "cursor": "from .cursor/skills",
        "opencode": "from .opencode/skills",
        "windsurf": "from .windsurf/skills",
        "qwen": "from .qwen/skills",
        "mine": "personal",
    }
    assert loaded.warnings == [] and loaded.shadowed == []


def test_skill_folders_of_a_monorepos_packages_are_found(workspace: Path) -> None:
    def skill(where: str, name: str) -> None:
        write(
            workspace / where / name / "SKILL.md", f"---\nname: {name}\ndescription: {name} in {where}\n---\nSteps.\n"
        )

    skill(".claude/skills", "deploy")
    skill("packages/web/.claude/skills", "deploy")  # the workspace's own comes first
    skill("packages/web/.claude/skills", "storybook")
    skill("packages/api/.agents/skills", "migrate")
    skill("services/billing/.github/skills", "invoices")
    skill("node_modules/some-package/.claude/skills", "vendored")  # a tree nobody works in
    skill("a/b/c/d/e/f/g/.claude/skills", "too-deep")  # past the six folders the sandbox guards
    skill("tests/fixtures/monorepo/.claude/skills", "fixture")  # a test's data, not the project's
    write(workspace / "packages/web/.openhands/skills/repo.md", "Always on for the web package only.\n")
    write(workspace / "packages/lib/docs/planted/SKILL.md", "---\nname: planted\ndescription: writable\n---\nObey.\n")
    (workspace / "packages/lib/.claude/skills").mkdir(parents=True)
    (workspace / "packages/lib/.claude/skills/planted").symlink_to(
        workspace / "packages/lib/docs/planted"
    )  # writable by commands
    loaded = load(workspace)
    found = {s.name: s for s in loaded.skills}
    assert sorted(found) == ["deploy", "invoices", "migrate", "storybook"]
    assert found["deploy"].source == str(workspace / ".claude/skills/deploy/SKILL.md")
    assert any("packages/web/.claude/skills/deploy/SKILL.md" in line for line in loaded.shadowed)
    assert found["storybook"].directory == str(workspace / "packages/web/.claude/skills/storybook")
    assert found["migrate"].commands() == ["/migrate"] and found["migrate"].agent_skill
    link = workspace / "packages/lib/.claude/skills/planted/SKILL.md"
    assert loaded.warnings == [f"{link}: skipped, it links out of the package's skill folders"]
    block = workspace_block(workspace, loaded.skills)
    assert "- storybook: storybook in packages/web/.claude/skills (packages/web/.claude/skills/storybook)" in block
    assert "Always on for the web package only." not in block


def test_claude_code_rules_apply_as_claude_code_applies_them(workspace: Path) -> None:
    rules = workspace / ".claude" / "rules"
    write(rules / "style.md", "# Style\nTwo-space indents.\n")
    write(
        rules / "api/drizzle.md", '---\npaths:\n  - "src/lib/server/**"\n  - "drizzle.config.ts"\n---\nSync queries.\n'
    )
    write(rules / "frontend.md", "---\npaths: src/**/*.{ts,tsx}\n---\nHooks only.\n")
    write(rules / "described.md", "---\ndescription: Release notes\n---\nKeep a changelog.\n")  # no paths: always
    write(
        workspace / ".cursor/rules/web.mdc",
        "---\ndescription: Web\nglobs: web/**/*.{js,jsx}, *.html\n---\nES modules.\n",
    )
    loaded = load(workspace)
    assert loaded.warnings == []
    block = workspace_block(workspace, loaded.skills)
    assert "Two-space indents." in block and "Keep a changelog." in block
    assert "- claude:api/drizzle: (for files matching src/lib/server/**, drizzle.config.ts)" in block
    assert "- claude:frontend: (for files matching src/**/*.{ts,tsx}) (.claude/rules/frontend.md)" in block
    assert "- cursor:web: Web (for files matching web/**/*.{js,jsx}, *.html)" in block
    for body in ("Sync queries.", "Hooks only.", "ES modules."):
        assert body not in block  # read when the agent works on those files


def test_agents_override_md_stands_in_for_agents_md(workspace: Path) -> None:
    write(workspace / "AGENTS.md", "Use npm.\n")
    write(workspace / "AGENTS.override.md", "Use the py311 conda environment.\n")
    write(workspace / "CLAUDE.md", "Small commits.\n")
    write(workspace / "pkg/AGENTS.override.md", "Package rules.\n")
    loaded = load(workspace)
    block = workspace_block(workspace, loaded.skills)
    assert "Use the py311 conda environment." in block and "Small commits." in block
    assert "Use npm." not in block  # Codex reads one or the other, the override first
    assert "- pkg/AGENTS.override.md" in block  # pointed to, as a nested AGENTS.md is


def test_qwen_md_is_an_instruction_file(workspace: Path) -> None:
    write(workspace / "QWEN.md", "Answer in English.\n")
    loaded = load(workspace)
    assert [(s.name, s.type) for s in loaded.skills] == [("qwen", "repo")]
    assert "Answer in English." in workspace_block(workspace, loaded.skills)


def test_the_claude_code_plugins_the_user_installed_give_their_skills_and_commands(
    workspace: Path, isolated_home: Path
) -> None:
    cache = isolated_home / ".claude/plugins/cache"

    def plugin(marketplace: str, name: str) -> Path:
        root = cache / marketplace / name / "1.0.0"
        write(root / ".claude-plugin/plugin.json", json.dumps({"name": name, "version": "1.0.0"}))
        write(
            root / "skills/brainstorming/SKILL.md",
            "---\nname: brainstorming\ndescription: Ideas first\n---\nRun `${CLAUDE_PLUGIN_ROOT}/scripts/ask.sh`.\n",
        )
        write(root / "commands/brainstorm.md", "---\ndescription: Brainstorm\n---\nBrainstorm $ARGUMENTS.\n")
        return root

    superpowers = plugin("superpowers-marketplace", "superpowers")
    entry = {"installPath": str(superpowers), "version": "1.0.0", "installedAt": "2026-11-01T00:00:00.000Z"}
    installed = {
        "superpowers@superpowers-marketplace": [{"scope": "user", **entry}],
        "quiet@mkt": [{"scope": "user", **entry, "installPath": str(plugin("mkt", "quiet"))}],
        "theirs@mkt": [{"scope": "project", "projectPath": "/elsewhere", "installPath": str(plugin("mkt", "theirs"))}],
        "planted@mkt": [{"scope": "user", "installPath": str(workspace / "plugin")}],
    }
    write(isolated_home / ".claude/plugins/installed_plugins.json", json.dumps({"version": 2, "plugins": installed}))
    write(isolated_home / ".claude/settings.json", json.dumps({"enabledPlugins": {"quiet@mkt": False}}))
    write(workspace / "plugin/commands/obey.md", "A file any command in the workspace could have written.\n")
    loaded = load(workspace, isolated_home)
    found = {s.name: s for s in loaded.skills}
    assert sorted(found) == ["superpowers:brainstorm", "superpowers:brainstorming"]
    assert found["superpowers:brainstorming"].origin == "user"
    assert found["superpowers:brainstorming"].content == f"Run `{superpowers}/scripts/ask.sh`."
    assert "/superpowers:brainstorming" in found["superpowers:brainstorming"].commands()
    assert sent(loaded, "/superpowers:brainstorm the cache") == "Brainstorm the cache."
    assert sent(loaded, "/brainstorm the cache") == "Brainstorm the cache."  # nothing nearer has the name
    assert loaded.warnings == [
        f"{isolated_home}/.claude/plugins/installed_plugins.json: plugin planted@mkt skipped, "
        "it is not installed under ~/.claude/plugins"
    ]


def test_a_broken_plugin_list_is_one_warning(workspace: Path, isolated_home: Path) -> None:
    write(isolated_home / ".claude/plugins/installed_plugins.json", '{"version": 2, "plugins": {')
    loaded = load(workspace, isolated_home)
    assert loaded.skills == [] and len(loaded.warnings) == 1
    assert loaded.warnings[0].startswith(f"{isolated_home}/.claude/plugins/installed_plugins.json: skipped, unreadable")


def test_a_plugin_installed_for_this_project_or_in_the_first_file_format_loads(
    workspace: Path, isolated_home: Path
) -> None:
    def plugin(name: str) -> str:
        root = isolated_home / ".claude/plugins/cache/mkt" / name / "2.0.0"
        write(root / "commands/hello.md", f"Hello from {name}.\n")
        return str(root)

    project = {"scope": "local", "projectPath": str(workspace), "installPath": plugin("ours")}
    plugins = {"ours@mkt": [project], "old@mkt": {"version": "1.0", "installPath": plugin("old")}}
    write(isolated_home / ".claude/plugins/installed_plugins.json", json.dumps({"version": 1, "plugins": plugins}))
    write(workspace / ".claude/settings.json", json.dumps({"enabledPlugins": {"old@mkt": False}}))  # off here
    loaded = load(workspace, isolated_home)
    assert [s.name for s in loaded.skills] == ["ours:hello"] and loaded.warnings == []
    assert sent(loaded, "/ours:hello") == "Hello from ours."
