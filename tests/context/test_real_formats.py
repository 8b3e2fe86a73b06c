"""Microagents and skills laid out the way real repositories ship them.

`tests/fixtures/skill_repos/workspace` holds OpenHands microagents (repo, knowledge, tasks with
`{{ NAME }}` placeholders, a slash-triggered reviewer, an MCP-only one), flat OpenHands-style
skills in `.agents/skills/`, a whole Agent Skills repository vendored under
`.agents/skills/vendor-skills/` (README, CONTRIBUTING, a spec, a template, skills with
references/, scripts/, themes/, commands/, a shared/ folder), and instruction files. The checks
are the properties a user relies on, computed from the files themselves: no resource file is
ever a microagent, every SKILL.md is listed with its description, every slash trigger fires,
every task file runs with its placeholders filled.
"""

from __future__ import annotations

import json
import re
import shutil
from pathlib import Path

import pytest

from openhands_tui.sdk import Agent, Conversation, ConversationParts
from openhands_tui.sdk.context import load_microagents
from openhands_tui.sdk.context.files import parse_header, split_frontmatter
from openhands_tui.testing import Script, Turn
from openhands_tui.testing.script import ScriptedToolCall
from openhands_tui.tools.preset.default import get_default_tools
from tests.conftest import llm_for, model_args, run_tui

FIXTURE = Path(__file__).resolve().parent.parent / "fixtures" / "skill_repos" / "workspace"
PLACEHOLDER = re.compile(r"\$\{([A-Za-z_]\w*)\}|\{\{\s*([A-Za-z_]\w*)\s*\}\}")


@pytest.fixture
def repo(tmp_path: Path, isolated_home: Path) -> Path:
    workspace = tmp_path / "lantern"
    shutil.copytree(FIXTURE, workspace, symlinks=True)
    (workspace / "CLAUDE.md").symlink_to("AGENTS.md")  # the usual way to share one file
    personal = isolated_home / ".openhands" / "skills" / "terse-answers" / "SKILL.md"
    personal.parent.mkdir(parents=True)
    personal.write_text("---\nname: terse-answers\ndescription: Keep answers short.\n---\nAnswer in one paragraph.\n")
    return workspace


def read_skill(**arguments: str) -> Turn:
    return Turn(tool_calls=[ScriptedToolCall(name="skill", arguments=arguments)])


def skill_files(root: Path) -> list[Path]:
    return sorted(p for p in root.rglob("*") if p.name.lower() == "skill.md")


def agent(server) -> Agent:
    return Agent(llm=llm_for(server), tools=get_default_tools())


async def converse(server, workspace: Path, task: str, inputs: dict[str, str] | None = None, **parts) -> list:
    events: list = []
    parts = ConversationParts(subscribers=[events.append], **parts)
    conversation = Conversation(agent(server), workspace=workspace, parts=parts)
    try:
        await conversation.run(task, inputs=inputs)
    finally:
        await conversation.close()
    return events


def test_no_resource_file_is_ever_a_microagent(repo: Path) -> None:
    loaded = load_microagents(repo)
    mine = [s for s in loaded.skills if s.origin == "workspace"]
    sources = {Path(s.source).relative_to(repo).as_posix() for s in mine}
    for source in sources:
        parts = source.split("/")
        if parts[0] in (".agents", ".openhands") and parts[1] == "skills":
            # in a skills directory: a SKILL.md, or a flat file with frontmatter right in it
            assert parts[-1] == "SKILL.md" or len(parts) == 3, source
        # nothing inside a skill's folder except its SKILL.md
        for skill_md in skill_files(repo):
            folder = skill_md.parent.relative_to(repo).as_posix() + "/"
            assert not source.startswith(folder) or source == folder + "SKILL.md", source
    names = {s.name for s in mine}
    assert names == {
        "review-guide", "perf-notes", "babysit-ci", "pdf", "security", "theme-kit", "web-audit",
        "template-skill", "deploy-site", "changelog", "repo", "kubernetes", "review", "release_notes",
        "bump_dependency", "fetch_web", "agents", "cursorrules", "gemini",
    }  # fmt: skip
    # `security` is the real skill, not web-audit's references/security.md
    assert loaded.by_name("security").source.endswith("skills/security/SKILL.md")
    assert "forms" not in names and "style-guide" not in names and "NOTES" not in names


def test_every_skill_md_is_listed_with_its_description_and_nothing_is_injected(repo: Path, serve) -> None:
    server = serve([Script(turns=[Turn.finish()])])
    result = run_tui("--headless", "--workspace", str(repo), *model_args(server), "--task", "hello")
    assert result.returncode == 0, result.stderr
    first = server.requests[0].messages[1]["content"]
    listing = first.split("## Skills", 1)[1].split("</WORKSPACE_CONTEXT>", 1)[0]
    for path in skill_files(repo) + skill_files(repo.parent / "home"):
        header, body = split_frontmatter(path.read_text())
        meta, _ = parse_header(header or "")
        name = meta.get("name") or path.parent.name
        description = " ".join(str(meta.get("description", "")).split())
        assert f"- {name}: {description}" in listing, name
        assert body.strip().splitlines()[-1] not in first, f"{name}'s body was injected"
    assert "(.agents/skills/vendor-skills/skills/pdf)" in listing  # its folder, relative to the workspace
    for resource in ("Text fields take strings", "Primary #123456", "sentence-case headings", "Open a pull request"):
        assert resource not in first
    assert len(first) < 12_000
    # the always-on ones are in: repo.md, AGENTS.md (once, though CLAUDE.md links to it), .cursorrules, gemini.md
    assert first.count("Never edit files under `vendor/`.") == 1
    assert "Use named exports." in first and "British English" in first and "make test" in first
    assert "globs" not in first  # Cursor's frontmatter is Cursor's, the rules are the text
    # the engine offers the `skill` tool because there are skills; the system prompt has no skills in it
    tools = [t["function"]["name"] for t in server.requests[0].body["tools"]]
    assert "skill" in tools
    assert "pdf" not in server.requests[0].messages[0]["content"]


async def test_the_system_prompt_is_the_same_with_or_without_skills(repo: Path, workspace: Path, serve) -> None:
    server = serve([Script(turns=[Turn.finish(), Turn.finish()])])
    await converse(server, repo, "hello")
    nothing = load_microagents(workspace, home=workspace / "no-home")
    await converse(server, workspace, "hello", microagents=nothing)
    assert server.requests[0].messages[0] == server.requests[1].messages[0]
    assert "skill" not in [t["function"]["name"] for t in server.requests[1].body.get("tools", [])]


async def test_every_slash_trigger_fires(repo: Path, serve) -> None:
    loaded = load_microagents(repo)
    slash = sorted({c for s in loaded.skills if s.type == "knowledge" for c in s.commands()})
    skills = {f"/{s.name}" for s in loaded.skills if s.source.endswith("SKILL.md")}  # Claude Code's `/name`
    assert set(slash) == {"/babysit-ci", "/codereview"} | skills and len(skills) > 3
    server = serve([Script(turns=[Turn.finish()] * len(slash))])
    for number, trigger in enumerate(slash):
        events = await converse(server, repo, f"{trigger} the branch feature/x")
        fired = {e.name for e in events if e.kind == "microagent_triggered" and e.type == "knowledge"}
        expected = [s for s in loaded.skills if s.type == "knowledge" and trigger in s.triggers]
        assert fired >= {s.name for s in expected}, trigger
        sent = server.requests[number].messages[1]["content"]
        for skill in expected:
            assert skill.content.strip().splitlines()[0] in sent
    # both repository reviewers answer /codereview
    assert {"review", "review-guide"} <= {s.name for s in loaded.skills if "/codereview" in s.triggers}


async def test_every_task_file_runs_with_its_placeholders_filled(repo: Path, serve) -> None:
    loaded = load_microagents(repo)
    tasks = [s for s in loaded.skills if s.type == "task"]
    assert {t.name for t in tasks} == {"release_notes", "bump_dependency"}
    server = serve([Script(turns=[Turn.finish()] * len(tasks))])
    for number, task in enumerate(tasks):
        text = Path(task.source).read_text()
        wanted = {m.group(1) or m.group(2) for m in PLACEHOLDER.finditer(text)}
        inputs = {name: f"<{name.lower()}-value>" for name in wanted}
        await converse(server, repo, f"/{task.name}", inputs=inputs)
        sent = server.requests[number].messages[1]["content"]
        assert not PLACEHOLDER.search(sent), sent
        for value in inputs.values():
            assert value in sent


def test_task_inputs_from_the_command_line_are_used(repo: Path, serve) -> None:
    server = serve([Script(turns=[Turn.finish()])])
    common = ["--headless", "--workspace", str(repo), *model_args(server)]
    missing = run_tui(*common, "--task", "/release_notes", "--input", "VERSION=2.4.0")
    assert missing.returncode == 2
    assert missing.stderr.strip() == "tui: /release_notes needs input SINCE_TAG (give --input SINCE_TAG=...)"
    ok = run_tui(*common, "--task", "/release_notes", "--input", "VERSION=2.4.0", "--input", "SINCE_TAG=v2.3.1")
    assert ok.returncode == 0, ok.stderr
    assert (
        "Write release notes for 2.4.0 covering every merged change since v2.3.1."
        in (server.requests[0].messages[1]["content"])
    )


def test_tui_microagents_reports_formats_duplicates_and_mcp_only(repo: Path) -> None:
    result = run_tui("microagents", "--json", "--workspace", str(repo))
    assert result.returncode == 0, result.stderr
    data = json.loads(result.stdout)
    found = {m["name"]: m for m in data["microagents"]}
    assert found["fetch_web"]["mcp_only"] is True and found["fetch_web"]["mcp_servers"] == ["webfetch"]
    assert found["pdf"]["agent_skill"] is True and found["pdf"]["directory"].endswith("skills/pdf")
    assert found["terse-answers"]["origin"] == "user"
    assert found["release_notes"]["variables"] == ["VERSION", "SINCE_TAG"]
    assert found["bump_dependency"]["variables"] == ["PACKAGE", "target_version"]
    assert "claude" not in found
    assert any("CLAUDE.md is the same file as" in s and "loaded once" in s for s in data["shadowed"])
    # an unquoted colon in a description is not YAML, but it is what the author meant
    assert found["web-audit"]["description"].startswith("Audit a web app: accessibility")
    assert not any("web-audit" in w for w in data["warnings"])
    human = run_tui("microagents", "--workspace", str(repo))
    assert "MCP tools only: webfetch" in human.stdout and "listed" in human.stdout


def test_instruction_files_in_any_case(workspace: Path) -> None:
    (workspace / "Agents.md").write_text("Tabs, not spaces.\n")
    (workspace / "claude.md").write_text("Small commits.\n")
    (workspace / "AGENT.md").write_text("Ask before deleting.\n")
    loaded = load_microagents(workspace, include_builtin=False)
    by_name = {s.name: Path(s.source).name for s in loaded.skills}
    assert by_name == {"agents": "Agents.md", "claude": "claude.md", "agent": "AGENT.md"}


def test_over_the_budget_warns_naming_the_largest(repo: Path, serve) -> None:
    (repo / "AGENTS.md").unlink()
    (repo / "AGENTS.md").write_text("Rule: " + "keep the public API stable. " * 1_100)
    (repo / "GEMINI.md").write_text("Gemini notes: " + "prefer small functions. " * 700)
    (repo / "gemini.md").unlink()
    server = serve([Script(turns=[Turn.finish()])])
    result = run_tui("--headless", "--workspace", str(repo), *model_args(server), "--task", "hello")
    assert result.returncode == 0, result.stderr
    line = next(line for line in result.stderr.splitlines() if "always-on context" in line)
    assert line.startswith("warning: always-on context is ~") and "over the 8,000-token budget" in line
    assert "largest: AGENTS.md ~" in line and "GEMINI.md ~" in line


async def test_the_skill_tool_reads_a_skill_and_its_files_but_nothing_outside(repo: Path, serve) -> None:
    server = serve(
        [
            Script(
                turns=[
                    read_skill(name="pdf"),
                    read_skill(name="pdf", path="references/forms.md"),
                    read_skill(name="pdf", path="../../../../../AGENTS.md"),
                    read_skill(name="forms"),
                    Turn.finish(),
                ]
            )
        ]
    )
    events = await converse(server, repo, "fill in the pdf form")
    results = [e for e in events if e.kind == "observation"]
    assert "Extract text with `pdftotext -layout`" in results[0].content
    folder = repo / ".agents/skills/vendor-skills/skills/pdf"
    assert f"This skill's folder is {folder}" in results[0].content
    assert "checkboxes take" in results[1].content
    assert (
        results[2].content.endswith("is outside the folder of pdf; not read.") and "vendor/" not in results[2].content
    )
    assert "There is no skill named 'forms'" in results[3].content
    actions = [e for e in events if e.kind == "action" and e.tool_name == "skill"]
    assert all(a.risk == "LOW" for a in actions)
    # its trigger fired on "pdf" in the task, so the body was sent once already and not again
    fired = [e.name for e in events if e.kind == "microagent_triggered"]
    assert fired.count("pdf") == 1


async def test_the_app_shows_the_budget_warning_in_the_transcript(repo: Path, serve) -> None:
    from openhands_tui.tui.state import SessionView

    (repo / "AGENTS.md").unlink()
    (repo / "AGENTS.md").write_text("Rule: " + "keep the public API stable. " * 1_200)
    (repo / "GEMINI.md").write_text("Gemini notes: " + "prefer small functions. " * 700)
    (repo / "gemini.md").unlink()
    (repo / ".openhands/microagents/broken.md").write_text("---\ntriggers: [a, b\n---\nbody\n")
    server = serve([Script(turns=[Turn.finish()])])
    view = SessionView()
    for event in await converse(server, repo, "hello"):
        view.apply(event)
    notices = [e for e in view.transcript("root") if e.kind == "notice" and e.level == "warning"]
    assert notices[0].text.startswith("microagents: always-on context is ~")
    assert "largest: AGENTS.md" in notices[0].text and "more load warning: ctrl+o" in notices[0].text


def test_a_repository_cannot_link_a_skill_to_a_file_outside_it(workspace: Path, isolated_home: Path) -> None:
    secret = isolated_home / ".ssh" / "id_rsa"
    secret.parent.mkdir()
    secret.write_text("-----BEGIN OPENSSH PRIVATE KEY-----\nb3BlbnNzaC1rZXktdjEAAAA\n")
    skill = workspace / ".agents" / "skills" / "helper"
    skill.mkdir(parents=True)
    (skill / "SKILL.md").symlink_to(secret)
    (workspace / "CLAUDE.md").symlink_to(secret)
    (workspace / ".openhands" / "microagents").mkdir(parents=True)
    (workspace / ".openhands" / "microagents" / "keys.md").symlink_to(secret)
    loaded = load_microagents(workspace, include_builtin=False)
    assert not any("PRIVATE KEY" in s.content or "PRIVATE KEY" in s.description for s in loaded.skills)
    escaped = [w for w in loaded.warnings if "links outside the repository" in w]
    assert len(escaped) == 3
    # a user's own skills directory may link anywhere it likes
    mine = isolated_home / ".agents" / "skills" / "dotfiles"
    mine.parent.mkdir(parents=True)
    (isolated_home / "dotfiles").mkdir()
    (isolated_home / "dotfiles" / "SKILL.md").write_text("---\nname: dotfiles\ndescription: My setup.\n---\nUse zsh.\n")
    mine.symlink_to(isolated_home / "dotfiles")
    assert load_microagents(workspace, include_builtin=False).by_name("dotfiles") is not None


def test_the_app_offers_slash_triggers_and_tasks_as_commands(repo: Path) -> None:
    from types import SimpleNamespace

    from openhands_tui.sdk.facts.event import MicroagentsLoadedEvent
    from openhands_tui.tui.commands import SlashCommands

    loaded = load_microagents(repo)
    event = MicroagentsLoadedEvent(agent_id="root", microagents=[s.info() for s in loaded.skills])
    app = SimpleNamespace(view=SimpleNamespace(microagents=event), mcp_status=list)  # no MCP servers
    names = [c.name for c in SlashCommands(app).slash_commands()]  # type: ignore[arg-type]
    assert {"codereview", "babysit-ci", "release_notes", "bump_dependency"} <= set(names)
    assert names.count("codereview") == 1
