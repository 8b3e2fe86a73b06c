"""Finding microagents and skills in every standard place, in priority order, and reporting
problems.

Order (the first of a name wins; later ones are reported as shadowed):
1. strategy-provided (`AgentContext(skills=[...])`);
2. the workspace, then its git root: `.agents/skills/`, `.openhands/skills/`, `.claude/skills/`,
   `.github/skills/`, `.gemini/skills/`, `.codex/skills/`, `.cursor/skills/`,
   `.opencode/skills/`, `.windsurf/skills/`, `.qwen/skills/`, `.openhands/microagents/`, Cursor's
   `.cursor/rules/` (rules.py), and the instruction files `AGENTS.md`, `AGENT.md`, `CLAUDE.md`,
   `CLAUDE.local.md`, `GEMINI.md`, `QWEN.md`, `.cursorrules` (any case), `.windsurfrules`,
   `.claude/CLAUDE.md` and `.github/copilot-instructions.md` (AGENTS.override.md in AGENTS.md's
   stead, as Codex reads it); the rule folders of Cursor, Claude Code, Copilot and Windsurf
   (rules.py), the commands of Claude Code (`.claude/commands/`), opencode, Cursor, Windsurf,
   Qwen Code, Amp, Copilot's prompt files and Gemini CLI (`.gemini/commands/`) as tasks
   (commands.py, gemini_commands.py);
   the folders between the two give their instruction files, and those below the workspace are
   pointed to; the Agent Skills of the skill folders below the workspace (nested_skills.py);
3. the user's `~/.agents/skills/`, `~/.openhands/skills/`, `~/.claude/skills/`,
   `~/.copilot/skills/`, `~/.gemini/skills/`, `~/.codex/skills/`, `~/.qwen/skills/` and
   `~/.openhands/microagents/`, then the user's commands (`~/.claude/commands/`,
   `~/.gemini/commands/`, ...), then the Claude Code plugins the user installed (plugins.py);
4. the built-in set shipped with the package.

The same file reached twice (a symlink `CLAUDE.md -> AGENTS.md`, the workspace inside its
git root) loads once, and so does an always-on file whose text is the same as another's.
Everything always on (repo microagents, instruction files, the list of skills) is measured
against a token budget; over it, a warning names the largest contributors.
"""

from __future__ import annotations

import hashlib
import os
from collections.abc import Iterable
from pathlib import Path

from pydantic import Field

from openhands_tui.sdk.context.agent_context import always_on_parts
from openhands_tui.sdk.context.command_owners import clashes
from openhands_tui.sdk.context.commands import project_commands, user_commands
from openhands_tui.sdk.context.files import (
    MAX_CONTENT_CHARS,
    load_file,
)
from openhands_tui.sdk.context.gemini_commands import gemini_commands
from openhands_tui.sdk.context.imports import expand_imports
from openhands_tui.sdk.context.nested_skills import nested_skills
from openhands_tui.sdk.context.plugins import installed_plugins, plugin_skills
from openhands_tui.sdk.context.rules import (
    claude_rules,
    copilot_instructions,
    cursor_rules,
    nested_instructions,
    stays_inside,
    windsurf_rules,
)
from openhands_tui.sdk.context.skill import Skill
from openhands_tui.sdk.context.skill_dirs import load_directory
from openhands_tui.sdk.files.own_git import run_git
from openhands_tui.sdk.model import Model

#: Always-on context (repo microagents, instruction files, the skills list) above this many
#: tokens is reported: every request of every agent carries it.
ALWAYS_ON_BUDGET = 8_000
#: Instruction files at a project's root, by lower-case name, and the microagent name each gets.
INSTRUCTION_FILES = {
    "agents.override.md": "agents",
    "agents.md": "agents",
    "agent.md": "agent",
    "claude.md": "claude",
    "gemini.md": "gemini",
    "qwen.md": "qwen",
    "claude.local.md": "claude-local",
    ".cursorrules": "cursorrules",
    ".windsurfrules": "windsurfrules",
}
#: Codex reads a folder's AGENTS.override.md instead of its AGENTS.md (one or the other).
OVERRIDES = {"agents.override.md": "agents.md"}
#: Instruction files kept in a tool's folder, always on like AGENTS.md: GitHub Copilot's, and
#: Claude Code's project memory in `.claude/`.
TOOL_INSTRUCTION_FILES = {".github/copilot-instructions.md": "copilot", ".claude/CLAUDE.md": "claude (.claude)"}
#: Where each tool keeps a project's Agent Skills, all in the same SKILL.md format: the shared
#: `.agents/skills/`, OpenHands', Claude Code's, GitHub Copilot's, Gemini CLI's, Codex's,
#: Cursor's, opencode's, Windsurf's and Qwen Code's.
SKILL_DIRS = (
    ".agents/skills",
    ".openhands/skills",
    ".claude/skills",
    ".github/skills",
    ".gemini/skills",
    ".codex/skills",
    ".cursor/skills",
    ".opencode/skills",
    ".opencode/skill",  # opencode's older spelling
    ".windsurf/skills",
    ".qwen/skills",
)
#: The same in the user's home (Copilot keeps them in `~/.copilot/skills/`).
USER_SKILL_DIRS = (
    ".agents/skills",
    ".openhands/skills",
    ".claude/skills",
    ".copilot/skills",
    ".gemini/skills",
    ".codex/skills",
    ".qwen/skills",
)
MICROAGENT_DIRS = (".openhands/microagents",)
#: The microagents shipped with the package (git, github, testing, docker, python, npm).
BUNDLED_DIR = Path(__file__).parent / "bundled"


class LoadedMicroagents(Model):
    skills: list[Skill] = Field(default_factory=list)
    warnings: list[str] = Field(default_factory=list)
    shadowed: list[str] = Field(default_factory=list)

    def by_name(self, name: str) -> Skill | None:
        return next((s for s in self.skills if s.name == name), None)

    def tasks(self) -> list[Skill]:
        return [s for s in self.skills if s.type == "task"]


class _Collector:
    """Offers skills in priority order: first of a name wins, the same file or the same
    always-on text loads once."""

    def __init__(self, result: LoadedMicroagents) -> None:
        self.result = result
        self.names: dict[str, Skill] = {}
        self.files: dict[str, Skill] = {}
        self.texts: dict[str, Skill] = {}

    def offer(self, skill: Skill) -> None:
        real = _real(skill.source) if skill.origin != "strategy" else None
        same_file = self.files.get(real) if real else None
        if same_file is not None:
            self.result.shadowed.append(
                f"{skill.name} from {skill.source} is the same file as {same_file.source}: loaded once"
            )
            return
        digest = hashlib.sha1(skill.content.strip().encode()).hexdigest() if skill.type == "repo" else None
        same_text = self.texts.get(digest) if digest else None
        if same_text is not None:
            self.result.shadowed.append(
                f"{skill.name} from {skill.source} has the same text as {same_text.source}: loaded once"
            )
            return
        winner = self.names.get(skill.name)
        if winner is not None:
            self.result.shadowed.append(
                f"{skill.name} from {skill.source} ({skill.origin}) is shadowed by {winner.source} ({winner.origin})"
            )
            return
        self.names[skill.name] = skill
        if real:
            self.files[real] = skill
        if digest:
            self.texts[digest] = skill
        self.result.skills.append(skill)


def load_microagents(
    workspace: Path,
    *,
    strategy_skills: Iterable[Skill] = (),
    plugins: Iterable[tuple[Path, str]] = (),
    home: Path | None = None,
    include_builtin: bool = True,
    budget: int = ALWAYS_ON_BUDGET,
) -> LoadedMicroagents:
    result = LoadedMicroagents()
    collector = _Collector(result)
    for skill in strategy_skills:
        collector.offer(skill)
    for root, plugin in plugins:  # the session's plugins (its strategy's, then installed ones): `plugin:name`
        for skill in plugin_skills(root, plugin, result.warnings):
            collector.offer(skill)
    workspace = workspace.resolve()
    git_root = _git_root(workspace)
    taken: set[str] = set()  # instruction-file names used by a nearer folder
    chain = [workspace, *_parents_up_to(workspace, git_root)]
    given = {os.path.realpath(path) for root in chain for path, _ in _instruction_files(root)}
    for root in chain:
        label = "" if root == workspace else _label(root, git_root)
        full = root in (workspace, git_root)
        confine = git_root if git_root is not None and git_root in root.parents else root
        for skill in _load_tree(
            root, "workspace", result.warnings, label=label, full=full, taken=taken, given=given, confine=confine
        ):
            collector.offer(skill)
    home = home or Path.home()
    for skill in nested_skills(workspace, SKILL_DIRS, result.warnings, home=home):
        collector.offer(skill)  # `packages/web/.claude/skills/deploy`: after the workspace's own
    nested = nested_instructions(workspace, INSTRUCTION_FILES, result.warnings)
    if nested is not None:
        collector.offer(nested)
    read: set[str] = set()  # `~/.claude/skills -> ~/.agents/skills`: one set, read once
    for relative in USER_SKILL_DIRS:
        if (real := os.path.realpath(home / relative)) not in read:
            read.add(real)
            for skill in load_directory(home / relative, "user", result.warnings, skills_dir=True):
                collector.offer(skill)
    for skill in load_directory(home / ".openhands" / "microagents", "user", result.warnings, skills_dir=False):
        collector.offer(skill)
    for skill in [*user_commands(home, result.warnings), *gemini_commands(home, "user", result.warnings)]:
        collector.offer(skill)  # `~/.claude/commands/standup.md`: the user's `/standup` in every project
    for skill in installed_plugins(home, workspace, result.warnings):
        collector.offer(skill)  # `/plugin install superpowers`: `/superpowers:brainstorm`
    if include_builtin:
        for skill in load_directory(BUNDLED_DIR, "builtin", result.warnings, skills_dir=False):
            collector.offer(skill)
    result.warnings += clashes(result.skills)  # `/deploy` from two plugins: said, not silently one
    budget_warning = check_budget(result.skills, budget)
    if budget_warning:
        result.warnings.append(budget_warning)
    return result


def check_budget(skills: list[Skill], budget: int = ALWAYS_ON_BUDGET) -> str | None:
    """A warning naming the largest always-on contributors when together they pass `budget`."""
    parts = always_on_parts(skills)
    total = sum(tokens for _, tokens in parts)
    if total <= budget:
        return None
    largest = sorted(parts, key=lambda part: part[1], reverse=True)[:3]
    named = ", ".join(f"{label} ~{tokens:,}" for label, tokens in largest)
    return (
        f"always-on context is ~{total:,} tokens, over the {budget:,}-token budget, and every request "
        f"carries it; largest: {named} (shorten them, or move parts into triggered microagents or skills)"
    )


def _parents_up_to(workspace: Path, git_root: Path | None) -> list[Path]:
    """The folders above the workspace up to its git root (nearest first): a package of a
    monorepo keeps the instructions of the repository and of the folders between."""
    if git_root is None or git_root == workspace or git_root not in workspace.parents:
        return []
    return [p for p in workspace.parents if p == git_root or git_root in p.parents]


def _label(root: Path, git_root: Path | None) -> str:
    if git_root is None or root == git_root:
        return "repository root"
    return root.relative_to(git_root).as_posix()


def _load_tree(
    root: Path,
    origin: str,
    warnings: list[str],
    *,
    label: str = "",
    full: bool = True,
    taken: set[str] | None = None,
    given: set[str] | None = None,
    confine: Path | None = None,
) -> list[Skill]:
    """A repository's microagents. Its files are the repository's to choose, so none may be a
    link to something outside it: a `SKILL.md -> ~/.ssh/id_rsa` would send the key to the model.
    `label`: an instruction file of a folder above the workspace whose name a nearer one took is
    named after its folder (`agents (repository root)`): both apply, neither shadows the other;
    `full`: skills and rules too, not only instruction files. `given`: the instruction files
    always on anyway, which an `@AGENTS.md` import need not repeat; `confine`: where imports may
    come from (the repository)."""
    taken = set() if taken is None else taken
    skills: list[Skill] = []
    if full:
        # `.claude/skills -> ../.agents/skills` is the usual way to share one set: read it once
        read: set[str] = set()
        for relative, skills_dir in [*((d, True) for d in SKILL_DIRS), *((d, False) for d in MICROAGENT_DIRS)]:
            real = os.path.realpath(root / relative)
            if real not in read:
                read.add(real)
                skills += load_directory(root / relative, origin, warnings, skills_dir=skills_dir, confine=root)
    for path, name in _instruction_files(root):
        if not stays_inside(path, root, warnings):
            continue
        name = f"{name} ({label})" if label and name in taken else name
        taken.add(name)
        skill = load_file(path, origin, warnings, default_name=name, instructions=True)
        if skill is not None:
            skills.append(_with_imports(skill, path, confine or root, given or set(), warnings))
    if full:
        for rules in (
            cursor_rules,
            claude_rules,
            copilot_instructions,
            windsurf_rules,
            project_commands,
            gemini_commands,
        ):
            skills += rules(root, origin, warnings)
    return skills


def _with_imports(skill: Skill, path: Path, root: Path, given: set[str], warnings: list[str]) -> Skill:
    content = expand_imports(skill.content, path, root, given, warnings)
    if content == skill.content:
        return skill
    truncated = len(content) > MAX_CONTENT_CHARS
    if truncated:
        content = content[:MAX_CONTENT_CHARS] + f"\n\n[... truncated: {path.name} with its imports is longer ...]"
    return skill.model_copy(update={"content": content, "truncated": skill.truncated or truncated})


def _instruction_files(root: Path) -> list[tuple[Path, str]]:
    """AGENTS.md, agents.md, Agents.md...: any case, upper-case spellings first (an
    AGENTS.override.md in its stead, as Codex reads it); then those in tools' folders
    (`.github/copilot-instructions.md`, `.claude/CLAUDE.md`)."""
    try:
        entries = sorted(root.iterdir(), key=lambda p: (p.name.lower(), p.name))
    except OSError:
        return []
    found = [
        (p, INSTRUCTION_FILES[p.name.lower()]) for p in entries if p.name.lower() in INSTRUCTION_FILES and p.is_file()
    ]
    replaced = {OVERRIDES[p.name.lower()] for p, _ in found if p.name.lower() in OVERRIDES}
    found = [(p, name) for p, name in found if p.name.lower() not in replaced]  # the override stands in
    for relative, name in TOOL_INSTRUCTION_FILES.items():
        if (root / relative).is_file():
            found.append((root / relative, name))
    return found


def _real(source: str) -> str | None:
    try:
        return os.path.realpath(source) if source and Path(source).exists() else None
    except OSError:
        return None


def _git_root(workspace: Path) -> Path | None:
    out = run_git(workspace, ["rev-parse", "--show-toplevel"])
    root = out.stdout.decode("utf-8", "replace").strip() if out is not None and out.returncode == 0 else ""
    return Path(root).resolve() if root else None


# Kept importable from here: older code and tests read one file through the loader.
__all__ = ["ALWAYS_ON_BUDGET", "LoadedMicroagents", "check_budget", "load_file", "load_microagents"]
