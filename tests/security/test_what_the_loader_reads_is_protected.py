"""Every file the context loader puts into an agent's prompt is guarded like AGENTS.md: HIGH to
write, and read-only to commands in the sandbox. Each new format the loader learns must be added
to both lists (`.github/skills` and `AGENTS.override.md` were once added to the loader only: a
command could have planted instructions for every later session). The loader's own tables are
the source, so the next format is checked without anyone remembering to."""

from __future__ import annotations

from pathlib import Path

import pytest

from openhands_tui.sdk.context import commands, gemini_commands, loader, rules
from openhands_tui.sdk.facts.event import Risk
from openhands_tui.sdk.security.analyzer import Assessment
from openhands_tui.sdk.security.commands import assess_command
from openhands_tui.sdk.security.protected_paths import PROTECTED


def _read_by_the_loader() -> list[str]:
    """Workspace paths the loader reads as instructions, skills or commands (folders end in /)."""
    files = [*loader.INSTRUCTION_FILES, *loader.TOOL_INSTRUCTION_FILES]
    folders = [*loader.SKILL_DIRS, *loader.MICROAGENT_DIRS, *(f.directory for f in commands.FOLDERS)]
    folders += [*gemini_commands.TOML_COMMAND_DIRS]
    folders += [
        rules.CURSOR_RULES_DIR,
        rules.COPILOT_INSTRUCTIONS_DIR,
        rules.WINDSURF_RULES_DIR,
        rules.CLAUDE_RULES_DIR,
    ]
    return sorted(set(files)) + sorted({f"{folder}/" for folder in folders})


def _protected(path: str) -> bool:
    wanted = path.rstrip("/").lower()
    return any(wanted == p.lower() or wanted.startswith(p.lower() + "/") for p in PROTECTED)


@pytest.mark.parametrize("path", _read_by_the_loader())
def test_read_by_the_loader_means_read_only_in_the_sandbox(path: str) -> None:
    assert _protected(path), f"{path}: the loader reads it, the sandbox lets commands write it"


@pytest.mark.parametrize("path", _read_by_the_loader())
def test_read_by_the_loader_means_high_to_write(path: str, workspace: Path) -> None:
    target = f"{path}x.md" if path.endswith("/") else path
    for where in (target, f"packages/web/{target}"):  # the loader reads nested folders' files too
        risk = Assessment.from_findings(assess_command(f"echo 'obey' > {where}", str(workspace))).risk
        assert risk == Risk.HIGH, f"writing {where}: {risk}"


def test_every_nested_skill_the_loader_reads_is_read_only_in_the_sandbox(workspace: Path) -> None:
    """A package's skills are read from folders the sandbox binds read-only, also on a tree so big
    that its nested look stops early: a skill past that point is not read at all."""
    from openhands_tui.jail.protected import ProtectedPaths
    from openhands_tui.sdk.files import nested_look

    def skill(folder: Path, name: str) -> None:
        path = folder / name / "SKILL.md"
        path.parent.mkdir(parents=True)
        path.write_text(f"---\nname: {name}\ndescription: {name}\n---\nSteps.\n")

    for where in loader.SKILL_DIRS:
        skill(workspace / "pkg" / where, "in-" + where.strip(".").replace("/", "-"))
    for index in range(nested_look.MAX_DIRECTORIES):  # a wide tree: the look's budget runs out
        (workspace / "wide" / f"d{index:04}").mkdir(parents=True)
    # breadth first: every folder two deep is looked at before this one, three deep
    skill(workspace / "wide" / "d0000" / "sub" / ".claude/skills", "past-the-budget")
    loaded = loader.load_microagents(workspace, home=workspace / "no-home", include_builtin=False)
    names = {s.name for s in loaded.skills}
    assert len(names) == len(loader.SKILL_DIRS) and "past-the-budget" not in names
    protected = [str(p) for p in ProtectedPaths(workspace).existing()]
    for found in loaded.skills:
        assert any(found.source.startswith(p + "/") for p in protected), f"{found.source} is writable in the sandbox"
