"""Round five of files as public repositories write them, each once misread here: Claude Code's
`argument-hint: [issue] [branch]`, skills run as `/name` (and `user-invocable: false`), commands
whose shell lines hold `${HOME}`, and the skill folders of Copilot, Gemini CLI and Codex. The
fixtures are our own, written in those shapes.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from openhands_tui.sdk.context import load_microagents
from openhands_tui.sdk.context.agent_context import triggered_skills, workspace_block
from openhands_tui.sdk.context.loader import LoadedMicroagents
from openhands_tui.sdk.context.tasks import TaskInputError, find_task_command
from openhands_tui.testing import Script, ScriptedToolCall, Turn
from tests.conftest import model_args, run_tui
from tests.context.conftest import write


def load(workspace: Path, home: Path | None = None) -> LoadedMicroagents:
    return load_microagents(workspace, home=home or workspace / "no-home", include_builtin=False)


def skill_md(root: Path, folder: str, header: str, body: str = "Body.\n", where: str = ".claude/skills") -> Path:
    return write(root / where / folder / "SKILL.md", f"---\n{header}---\n{body}")


def test_an_argument_hint_of_several_bracket_groups_is_text(workspace: Path) -> None:
    skill_md(workspace, "fix", "name: fix\ndescription: Fix an issue\nargument-hint: [issue-number] [branch]\n")
    skill_md(workspace, "profile", "name: profile\ndescription: Profiles\nargument-hint: [list|save|load] [name]\n")
    write(
        workspace / ".claude/commands/review-pr.md",
        "---\nargument-hint: [pr-number] [priority]\ndescription: Review a pull request\n---\nReview $ARGUMENTS.\n",
    )
    skill_md(workspace, "broken", "name: broken\ndescription: x\nallowed-tools: [Read, Grep\n")  # never closed
    loaded = load(workspace)
    found = {s.name: s for s in loaded.skills}
    assert found["fix"].description == "Fix an issue" and found["profile"].description == "Profiles"
    assert found["review-pr"].description == "Review a pull request"
    assert "broken" not in found
    assert len(loaded.warnings) == 1 and "broken/SKILL.md: skipped, broken YAML frontmatter" in loaded.warnings[0]


def test_every_skill_runs_as_slash_name_unless_it_says_not(workspace: Path) -> None:
    skill_md(workspace, "pdf-tables", "name: pdf-tables\ndescription: Tables from PDFs\n", "Use camelot.\n")
    skill_md(workspace, "tagged", "name: tagged\ndescription: Tagged\ntriggers: [labels]\n", "Tag things.\n")
    skill_md(workspace, "style", "name: style\ndescription: House style\nuser-invocable: false\n", "Tabs.\n")
    skill_md(workspace, "off", "name: off\ndescription: Off\nuser-invocable: false\ndisable-model-invocation: true\n")
    loaded = load(workspace)
    commands = {s.name: s.commands() for s in loaded.skills}
    assert commands == {"pdf-tables": ["/pdf-tables"], "tagged": ["/tagged"], "style": []}
    assert any("off/SKILL.md: skipped, neither the model nor `/name` may use it" in w for w in loaded.warnings)
    assert "- style: House style" in workspace_block(workspace, loaded.skills)  # still offered to the model
    for message, fired in (("/pdf-tables from report.pdf", "pdf-tables"), ("/tagged the issues", "tagged")):
        assert find_task_command(message, loaded) is None  # an ordinary message, not "no task by that name"
        assert [s.name for s, _ in triggered_skills(loaded.skills, message, set())] == [fired]
    with pytest.raises(TaskInputError, match=r"available: /pdf-tables, /tagged\)"):
        find_task_command("/style the code", loaded)


def test_a_commands_shell_variables_and_templates_are_not_inputs(workspace: Path) -> None:
    write(
        workspace / ".claude/commands/deploy.md",
        "---\ndescription: Deploy\n---\nRun `ssh ${DEPLOY_HOST} ./ship {{ env }}` for $ARGUMENTS.\n",
    )
    command = find_task_command("/deploy staging", load(workspace))
    assert command is not None and command.variables == [] and command.missing({}) == []
    sent = "Run `ssh ${DEPLOY_HOST} ./ship {{ env }}` for staging."
    assert command.render({}) == sent
    assert command.render({"DEPLOY_HOST": "x", "env": "y"}) == sent  # not a template of ours to fill


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


def test_gemini_cli_commands_run_as_tasks_with_their_arguments(workspace: Path) -> None:
    commands = workspace / ".gemini" / "commands"
    write(
        commands / "git" / "commit.toml",
        'description = """\nWrite a commit\nmessage.\n"""\n'
        'prompt = """\nDescribe !{git diff --staged}.\nFocus: {{args}}\n"""\n',
    )
    write(commands / "plain.toml", 'prompt = "Explain ${PATH} and {{ topic }}."\n')
    write(commands / "empty.toml", "description = 'no prompt'\n")
    write(commands / "broken.toml", 'prompt = "never closed\n')
    loaded = load(workspace)
    commit = find_task_command("/git:commit the parser", loaded)
    assert commit is not None and commit.skill.description == "Write a commit message." and commit.variables == []
    assert commit.render({}) == "Describe !{git diff --staged}.\nFocus: the parser"  # `!{...}` is never run
    plain = find_task_command("/plain briefly", loaded)
    assert plain is not None and plain.render({}) == "Explain ${PATH} and {{ topic }}.\n\nbriefly"
    assert sorted(w.split(": skipped, ")[1].split(" (")[0] for w in loaded.warnings) == [
        "a Gemini CLI command needs a `prompt` string",
        "not valid TOML",
    ]


def test_skill_frontmatter_as_other_tools_write_it(workspace: Path) -> None:
    skill_md(workspace, "ai-advisor", "name: AI Advisor Workflow\ndescription: 提案書を自動生成する\ntags: [a, b]\n")
    skill_md(
        workspace, "setup-refresh", "name: setup-refresh\ndescription: Refresh\ntype: skill\nuser-invocable: 'no'\n"
    )
    skill_md(workspace, "deploy", "name: deploy\ndescription: Ship it\ndisable-model-invocation: 'on'\n")
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


def test_cursor_opencode_and_copilot_commands_run_as_their_tools_run_them(workspace: Path) -> None:
    write(workspace / ".cursor/commands/tidy.md", "Tidy the imports of the open files.\n")
    write(
        workspace / ".opencode/commands/test.md", "---\ndescription: Run tests\nagent: build\n---\nTest $ARGUMENTS.\n"
    )
    write(
        workspace / ".github/prompts/perf.prompt.md",
        "---\nname: perf-review\ndescription: Find slow code\nmode: ask\n---\n"
        "Analyse ${input:target:The class to analyse} in ${file}; then ${input:target} again.\n",
    )
    write(workspace / ".github/prompts/notes.md", "not a prompt file\n")
    write(workspace / ".windsurf/workflows/deploy-staging.md", "---\ndescription: Deploy\n---\n1. Build.\n2. Ship.\n")
    write(workspace / ".qwen/commands/team/review-change.md", "---\ndescription: Review\n---\nReview $ARGUMENTS.\n")
    write(workspace / ".qwen/commands/lint.toml", 'prompt = "Lint {{args}}."\n')  # Qwen Code's older form
    write(workspace / ".agents/commands/handoff.md", "Write a handoff note.\n")  # Amp's
    loaded = load(workspace)
    commands = sorted(c for s in loaded.skills for c in s.commands())
    assert commands == ["/deploy-staging", "/handoff", "/lint", "/perf-review", "/team:review-change", "/test", "/tidy"]
    review = find_task_command("/team:review-change src/", loaded)
    assert review is not None and review.render({}) == "Review src/."
    tidy = find_task_command("/tidy src/app.py", loaded)
    assert tidy is not None and tidy.render({}) == "Tidy the imports of the open files.\n\nsrc/app.py"
    test = find_task_command("/test the parser", loaded)
    assert test is not None and test.skill.description == "Run tests" and test.render({}) == "Test the parser."
    perf = find_task_command("/perf-review", loaded)
    assert perf is not None and perf.skill.description == "Find slow code"
    assert perf.missing({}) == ["target"] and perf.skill.inputs[0].description == "The class to analyse"
    assert perf.render({"target": "OrderService"}) == "Analyse OrderService in ${file}; then OrderService again."


def test_qwen_md_is_an_instruction_file(workspace: Path) -> None:
    write(workspace / "QWEN.md", "Answer in English.\n")
    loaded = load(workspace)
    assert [(s.name, s.type) for s in loaded.skills] == [("qwen", "repo")]
    assert "Answer in English." in workspace_block(workspace, loaded.skills)


def test_a_skill_run_by_slash_gets_its_arguments_and_its_folder_headless(
    workspace: Path, isolated_home: Path, serve
) -> None:
    body = "Fix issue $ARGUMENTS. Reproduce it with `python ${CLAUDE_SKILL_DIR}/scripts/repro.py`.\n"
    skill_md(workspace, "fix-issue", "name: fix-issue\ndescription: Fix a GitHub issue\n", body)
    read = Turn(tool_calls=[ScriptedToolCall(name="skill", arguments={"name": "fix-issue"})])
    server = serve([Script(turns=[read, Turn.finish()])])
    result = run_tui("--headless", "--workspace", str(workspace), *model_args(server), "--task", "/fix-issue 123")
    assert result.returncode == 0, result.stderr
    first = server.requests[0].messages[1]["content"]
    assert "Fix issue 123. Reproduce it with `python .claude/skills/fix-issue/scripts/repro.py`." in first
    read_back = server.requests[1].messages[-1]["content"]  # the skill tool: no `/name` there, so no arguments
    assert f"python {workspace}/.claude/skills/fix-issue/scripts/repro.py" in read_back and "$ARGUMENTS" in read_back


def test_a_command_that_is_another_commands_file_runs_that_file(workspace: Path) -> None:
    write(
        workspace / ".claude/commands/create-skill.md",
        "---\ndescription: New skill\n---\nCreate a skill named $ARGUMENTS.\n",
    )
    write(workspace / ".cursor/commands/new-skill.md", "# Create Skill\n\n@.claude/commands/create-skill.md\n")
    write(workspace / ".cursor/commands/leak.md", "@.env\n@../outside.md\n")
    write(workspace / ".env", "TOKEN=secret\n")
    write(workspace.parent / "outside.md", "outside words\n")
    loaded = load(workspace)
    cursor = loaded.by_name("new-skill")
    assert cursor is not None and "@.claude" not in cursor.content
    assert "Create a skill named $ARGUMENTS." in cursor.content
    leak = loaded.by_name("leak")
    assert leak is not None and leak.content == "@.env\n@../outside.md"  # neither read
    assert sum("not imported" in w for w in loaded.warnings) == 2


def test_the_users_own_commands_run_everywhere_after_the_projects(workspace: Path, isolated_home: Path) -> None:
    write(isolated_home / ".claude/commands/standup.md", "---\ndescription: Daily notes\n---\nSummarise $ARGUMENTS.\n")
    write(isolated_home / ".gemini/commands/explain.toml", 'prompt = "Explain {{args}} simply."\n')
    write(isolated_home / "elsewhere/review.md", "My own review steps.\n")
    (isolated_home / ".cursor/commands").mkdir(parents=True)
    (isolated_home / ".cursor/commands/review.md").symlink_to(isolated_home / "elsewhere/review.md")
    write(workspace / ".claude/commands/explain.md", "The project's explain.\n")
    loaded = load(workspace, isolated_home)
    found = {s.name: s for s in loaded.skills}
    assert found["standup"].origin == "user" and found["standup"].description == "Daily notes"
    assert found["review"].content == "My own review steps." and loaded.warnings == []  # the user's link
    assert found["explain"].origin == "workspace"  # the project's wins, the user's is reported
    assert any("explain from" in line and "shadowed" in line for line in loaded.shadowed)
    standup = find_task_command("/standup yesterday", loaded)
    assert standup is not None and standup.render({}) == "Summarise yesterday."
