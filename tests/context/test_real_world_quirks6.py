"""Round six of files as public repositories write them: positional and named arguments as each
tool fills them (Claude Code's 0-based `$0` and `arguments:`, opencode's 1-based `$1` whose last
takes the rest, Codex's prompts with `$1`-`$9` and `KEY=value`), with the text that is no
placeholder (`$100`, `$PATH`) left as written. The fixtures are our own, written in those shapes.
"""

from __future__ import annotations

import json
from pathlib import Path

from openhands_tui.sdk.context import load_microagents
from openhands_tui.sdk.context.agent_context import triggered_skills, workspace_block
from openhands_tui.sdk.context.loader import LoadedMicroagents
from openhands_tui.sdk.context.tasks import find_task_command
from openhands_tui.testing import Script, Turn
from tests.conftest import model_args, run_tui
from tests.context.conftest import write


def load(workspace: Path, home: Path | None = None) -> LoadedMicroagents:
    return load_microagents(workspace, home=home or workspace / "no-home", include_builtin=False)


def sent(loaded: LoadedMicroagents, message: str) -> str:
    command = find_task_command(message, loaded)
    assert command is not None, message
    return command.render({})


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


def test_positional_arguments_reach_the_model_headless(workspace: Path, isolated_home: Path, serve) -> None:
    write(workspace / ".opencode/commands/port.md", "Port $1 to $2.\n")
    server = serve([Script(turns=[Turn.finish()])])
    task = '/port "the parser" Rust and tests'
    result = run_tui("--headless", "--workspace", str(workspace), *model_args(server), "--task", task)
    assert result.returncode == 0, result.stderr
    assert "Port the parser to Rust and tests." in server.requests[0].messages[-1]["content"]


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
