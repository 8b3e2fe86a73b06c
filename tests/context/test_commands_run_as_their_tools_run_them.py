"""Slash commands run as the tool that wrote them runs them: Claude Code's commands and skills,
Cursor's and opencode's commands, Copilot's prompt files, Windsurf's workflows, Qwen Code's and
Amp's commands, Gemini CLI's TOML commands, Codex's prompts, and the user's own after the
project's. Each fills its arguments as its tool does (Claude Code's 0-based `$0` and
`arguments:`, opencode's 1-based `$1` whose last takes the rest, Codex's prompts with `$1`-`$9`
and `KEY=value`), and the text that is no placeholder (`$100`, `$PATH`, `${HOME}`, `{{ env }}`)
is left as written. The fixtures are our own, written in those shapes.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from openhands_tui.sdk.context.agent_context import triggered_skills, workspace_block
from openhands_tui.sdk.context.tasks import TaskInputError, find_task_command
from openhands_tui.testing import Script, ScriptedToolCall, Turn
from tests.conftest import model_args, run_tui
from tests.context.conftest import load, sent, skill_md, write


def test_every_skill_runs_as_slash_name_unless_it_says_not(workspace: Path) -> None:
    skill_md(
        workspace,
        "pdf-tables",
        "name: pdf-tables\ndescription: Tables from PDFs\n",
        "Use camelot.\n",
        where=".claude/skills",
    )
    skill_md(
        workspace,
        "tagged",
        "name: tagged\ndescription: Tagged\ntriggers: [labels]\n",
        "Tag things.\n",
        where=".claude/skills",
    )
    skill_md(
        workspace,
        "style",
        "name: style\ndescription: House style\nuser-invocable: false\n",
        "Tabs.\n",
        where=".claude/skills",
    )
    skill_md(
        workspace,
        "off",
        "name: off\ndescription: Off\nuser-invocable: false\ndisable-model-invocation: true\n",
        where=".claude/skills",
    )
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


# -- arguments, filled as each tool fills them ---------------------------------------------------


def test_claude_code_fills_positional_and_named_arguments_from_0_with_shell_quoting(workspace: Path) -> None:
    write(
        workspace / ".claude/commands/migrate.md",
        "---\ndescription: Migrate\nargument-hint: [component] [from] [to]\narguments: [component, origin]\n---\n"
        "Migrate the $0 component from $1 to $2 ($ARGUMENTS[2]); $component came from $origin.\n"
        "Budget $100 at $1.50 each; keep `echo $PATH ${HOME} $target`. As typed: $ARGUMENTS\n",
    )
    loaded = load(workspace)
    assert sent(loaded, '/migrate "Search Bar" React Vue') == (
        "Migrate the Search Bar component from React to Vue (Vue); Search Bar came from React.\n"
        'Budget $100 at $1.50 each; keep `echo $PATH ${HOME} $target`. As typed: "Search Bar" React Vue'
    )
    # a word not given stays as written (as Claude Code leaves it); `$ARGUMENTS` is then empty
    assert sent(loaded, "/migrate Button").startswith("Migrate the Button component from $1 to $2 ($ARGUMENTS[2]);")
    # a value is never filled again: the first word `$1` stays `$1`, not the second word
    assert sent(loaded, "/migrate '$1' x y").startswith("Migrate the $1 component from x to y (y); $1 came from x.")


def test_a_claude_code_command_without_placeholders_gets_the_text_as_arguments(workspace: Path) -> None:
    write(workspace / ".claude/commands/standup.md", "Summarise yesterday's commits.\n")
    assert sent(load(workspace), "/standup only main") == "Summarise yesterday's commits.\n\nARGUMENTS: only main"


def test_opencode_counts_from_1_and_its_last_placeholder_takes_the_rest(workspace: Path) -> None:
    commands = workspace / ".opencode/commands"
    write(commands / "create-file.md", "Create a file named $1 in $2 holding: $3\n")
    write(commands / "explain.md", "Explain $1 in plain words; not $0, not $10.\n")
    write(commands / "plain.md", "Tidy the imports.\n")
    loaded = load(workspace)
    assert sent(loaded, '/create-file config.json src "{ "key" }" and more') == (
        "Create a file named config.json in src holding: { key } and more"
    )
    assert sent(loaded, "/explain the parser module") == "Explain the parser module in plain words; not $0, not $10."
    assert sent(loaded, "/plain src/") == "Tidy the imports.\n\nsrc/"


def test_codex_prompts_run_as_prompts_name_with_positional_or_key_value_arguments(
    workspace: Path, isolated_home: Path
) -> None:
    prompts = isolated_home / ".codex/prompts"
    write(prompts / "review.md", "---\ndescription: Review two files\n---\nReview $1 against $2 ($ARGUMENTS); $10.\n")
    write(prompts / "ticket.md", "Fix $TICKET in $FILE; print $$HOME and $PATH.\n")
    write(prompts / "drafts/old.md", "Codex reads no subfolder of its prompts.\n")
    loaded = load(workspace, isolated_home)
    assert sorted(c for s in loaded.skills for c in s.commands()) == ["/prompts:review", "/prompts:ticket"]
    assert loaded.by_name("prompts:review").description == "Review two files"
    assert sent(loaded, '/prompts:review "a b.py" c.py') == "Review a b.py against c.py (a b.py c.py); $10."
    assert sent(loaded, '/prompts:ticket TICKET=ABC-12 FILE="src/app main.py"') == (
        "Fix ABC-12 in src/app main.py; print $$HOME and $PATH."
    )
    assert sent(loaded, "/prompts:ticket the login bug") == (
        "Fix $TICKET in $FILE; print $$HOME and $PATH.\n\nthe login bug"
    )  # not `KEY=value`: nothing to fill, and the text still reaches the model


def test_qwen_code_markdown_commands_take_args_both_ways(workspace: Path) -> None:
    write(workspace / ".qwen/commands/search.md", "---\ndescription: Search\n---\nFind {{args}} ($0 first).\n")
    assert sent(load(workspace), "/search TODO later") == "Find TODO later (TODO first)."


def test_a_skill_run_by_slash_fills_its_positional_and_named_arguments(workspace: Path) -> None:
    write(
        workspace / ".claude/skills/component/SKILL.md",
        "---\nname: component\ndescription: Scaffold a component\narguments: name kind\n---\n"
        "Create `$name` of kind $kind (first word $0, all: $ARGUMENTS). Costs $5.\n",
    )
    loaded = load(workspace)
    [(fired, _)] = triggered_skills(loaded.skills, '/component "Search Bar" form', set())
    assert fired.content == (
        'Create `Search Bar` of kind form (first word Search Bar, all: "Search Bar" form). Costs $5.'
    )
    skill = loaded.by_name("component")
    assert skill is not None and "$name of kind" not in skill.content and "`$name`" in skill.content  # unfilled


def test_a_skill_run_by_slash_gets_its_arguments_and_its_folder_headless(
    workspace: Path, isolated_home: Path, serve
) -> None:
    body = "Fix issue $ARGUMENTS. Reproduce it with `python ${CLAUDE_SKILL_DIR}/scripts/repro.py`.\n"
    skill_md(workspace, "fix-issue", "name: fix-issue\ndescription: Fix a GitHub issue\n", body, where=".claude/skills")
    read = Turn(tool_calls=[ScriptedToolCall(name="skill", arguments={"name": "fix-issue"})])
    server = serve([Script(turns=[read, Turn.finish()])])
    result = run_tui("--headless", "--workspace", str(workspace), *model_args(server), "--task", "/fix-issue 123")
    assert result.returncode == 0, result.stderr
    first = server.requests[0].messages[1]["content"]
    assert "Fix issue 123. Reproduce it with `python .claude/skills/fix-issue/scripts/repro.py`." in first
    read_back = server.requests[1].messages[-1]["content"]  # the skill tool: no `/name` there, so no arguments
    assert f"python {workspace}/.claude/skills/fix-issue/scripts/repro.py" in read_back and "$ARGUMENTS" in read_back


def test_positional_arguments_reach_the_model_headless(workspace: Path, isolated_home: Path, serve) -> None:
    write(workspace / ".opencode/commands/port.md", "Port $1 to $2.\n")
    server = serve([Script(turns=[Turn.finish()])])
    task = '/port "the parser" Rust and tests'
    result = run_tui("--headless", "--workspace", str(workspace), *model_args(server), "--task", task)
    assert result.returncode == 0, result.stderr
    assert "Port the parser to Rust and tests." in server.requests[0].messages[-1]["content"]


def test_a_skill_md_task_still_asks_for_every_input_it_uses(workspace: Path) -> None:
    write(
        workspace / ".claude/skills/fix/SKILL.md",
        "---\nname: fix\ndescription: Fix\ninputs:\n  - name: issue\n---\nFix #${issue} on ${branch}.\n",
    )
    command = find_task_command("/fix", load(workspace))
    assert command is not None and command.variables == ["issue", "branch"]
    assert command.render({"issue": "7", "branch": "main"}) == "Fix #7 on main."


def test_a_placeholder_of_thousands_of_digits_is_text_not_a_crash(workspace: Path) -> None:
    digits = "9" * 5000  # Python refuses to read a number this long: the command must still run
    write(workspace / ".claude/commands/long.md", f"Pay ${digits} for $ARGUMENTS[{digits}]; first: $0.\n")
    write(workspace / ".opencode/commands/pay.md", f"Pay ${digits} to $1.\n")
    loaded = load(workspace)
    assert sent(loaded, "/long a b") == f"Pay ${digits} for a b[{digits}]; first: a."  # `$ARGUMENTS`, then text
    assert sent(loaded, "/pay a b") == f"Pay ${digits} to a b."
