"""Other tools' project rules: Cursor's `.cursor/rules/*.mdc`, Claude Code's `.claude/rules/`
(`paths` for `globs`, always on without), GitHub Copilot's `.github/instructions/*.instructions.md`
(`applyTo` for `globs`), Windsurf's `.windsurf/rules/` (`trigger: always_on | glob |
model_decision | manual`), and instruction files (AGENTS.md, CLAUDE.md...) in the subdirectories
of a repository.

Cursor decides when a rule applies from its frontmatter, and so do we:
- `alwaysApply: true`: always on, like AGENTS.md;
- a `description` or `globs`: listed with the skills (name, description, the files it is for)
  and read when the agent asks for it, as Cursor's agent-requested and auto-attached rules are;
- neither: a manual rule, applied when a message names it (`@name` or the name).

Instruction files deeper in a repository apply to their own directory (the convention of
AGENTS.md, and of CLAUDE.md in subdirectories): the agent is told where they are and to read
one before changing files under it, instead of every first message carrying all of them.
"""

from __future__ import annotations

import os
import re
from pathlib import Path
from typing import Any

from openhands_tui.sdk.context.files import load_file, parse_header, split_frontmatter
from openhands_tui.sdk.context.skill import Skill
from openhands_tui.sdk.files.own_git import run_git

CURSOR_RULES_DIR = ".cursor/rules"
COPILOT_INSTRUCTIONS_DIR = ".github/instructions"
WINDSURF_RULES_DIR = ".windsurf/rules"
CLAUDE_RULES_DIR = ".claude/rules"
RULE_SUFFIXES = (".mdc", ".md")
MAX_RULES = 500
#: Where nested instruction files are looked for below a workspace, and how hard.
MAX_NESTED_DEPTH = 6
MAX_DIRS_SCANNED = 2_000
MAX_NESTED_LISTED = 50
_SKIP_DIRS = {"node_modules", "__pycache__", "venv", "vendor", "dist", "build", "target"}


def cursor_rules(root: Path, origin: str, warnings: list[str]) -> list[Skill]:
    """The Cursor rules of a repository, in a stable order."""
    directory = root / CURSOR_RULES_DIR
    return [
        skill
        for path in rule_files(directory, root, RULE_SUFFIXES, warnings)
        if (skill := _rule(path, "cursor:" + path.relative_to(directory).with_suffix("").as_posix(), origin, warnings))
    ]


def copilot_instructions(root: Path, origin: str, warnings: list[str]) -> list[Skill]:
    """GitHub Copilot's path-specific instructions (`.github/instructions/*.instructions.md`):
    `applyTo: "**"` is always on, other patterns are listed for the files they name, and a file
    without `applyTo` is offered (listed with its description, else its first line), not always
    on: VS Code applies such a file only when it is attached, and one real repository's set was
    ~22K tokens that every request would otherwise carry."""
    directory = root / COPILOT_INSTRUCTIONS_DIR
    skills = []
    for path in rule_files(directory, root, (".instructions.md",), warnings):
        name = "copilot:" + path.relative_to(directory).as_posix().removesuffix(".instructions.md")
        skill = _rule(path, name, origin, warnings, globs_key="applyTo")
        if skill is not None:
            skills.append(skill)
    return skills


def windsurf_rules(root: Path, origin: str, warnings: list[str]) -> list[Skill]:
    """Windsurf's `.windsurf/rules/*.md`: its `trigger` (always_on, glob, model_decision,
    manual) says the same as Cursor's frontmatter."""
    directory = root / WINDSURF_RULES_DIR
    return [
        skill
        for path in rule_files(directory, root, (".md",), warnings)
        if (
            skill := _rule(path, "windsurf:" + path.relative_to(directory).with_suffix("").as_posix(), origin, warnings)
        )
    ]


def claude_rules(root: Path, origin: str, warnings: list[str]) -> list[Skill]:
    """Claude Code's `.claude/rules/**/*.md`: a rule without `paths` is always on, as CLAUDE.md
    is; one with `paths` (globs) is listed for the files they name."""
    directory = root / CLAUDE_RULES_DIR
    return [
        skill
        for path in rule_files(directory, root, (".md",), warnings)
        if (
            skill := _rule(
                path,
                "claude:" + path.relative_to(directory).with_suffix("").as_posix(),
                origin,
                warnings,
                globs_key="paths",
                always_without_globs=True,
            )
        )
    ]


def rule_files(directory: Path, root: Path, suffixes: tuple[str, ...], warnings: list[str]) -> list[Path]:
    if not directory.is_dir():
        return []
    paths = sorted(p for p in directory.rglob("*") if p.name.lower().endswith(suffixes) and p.is_file())
    if len(paths) > MAX_RULES:
        warnings.append(f"{directory}: only the first {MAX_RULES} of {len(paths):,} rules are read")
    return [p for p in paths[:MAX_RULES] if stays_inside(p, root, warnings)]


def _rule(
    path: Path,
    name: str,
    origin: str,
    warnings: list[str],
    *,
    globs_key: str = "globs",
    always_without_globs: bool = False,
) -> Skill | None:
    """One rule: always on, listed with its description and file patterns, or (neither) applied
    when a message names it. `always_without_globs`: a rule that names no files is always on
    (Claude Code's), not one the agent asks for by its description (Cursor's)."""
    loaded = load_file(path, origin, warnings, default_name=name, instructions=True)
    if loaded is None:
        return None
    header, _ = split_frontmatter(loaded_text(path))
    metadata: dict[str, Any] = (parse_header(header)[0] or {}) if header is not None else {}
    globs = _globs(metadata.get(globs_key))
    trigger = str(metadata.get("trigger", "")).strip().lower()
    copilot = globs_key == "applyTo"
    always = _true(metadata.get("alwaysApply", metadata.get("always_apply"))) or (header is None and not copilot)
    always = always or trigger == "always_on" or (always_without_globs and not globs)
    if trigger == "manual":
        metadata, globs = {}, []  # named in a message, whatever else it says
    if always or (copilot and set(globs) & {"**", "**/*", "*"}):
        return loaded  # always on, as an instruction file (no frontmatter: the tool applies it too)
    description = _text(metadata.get("description"))
    if copilot and not globs and not description:  # VS Code applies it only when attached: offered
        description = _heading(loaded.content) or f"GitHub Copilot instructions {path.name}"
    update: dict[str, Any] = {"type": "knowledge", "triggers": [], "agent_skill": True}
    if globs:
        description = f"{description} (for files matching {', '.join(globs)})".strip()
    if description:
        update["description"] = description
    else:  # a manual rule: it applies when a message names it
        update.update(agent_skill=False, triggers=[f"@{path.name.split('.')[0]}", name])
    return Skill.model_validate({**loaded.model_dump(exclude={"trigger"}), **update})


def _heading(content: str) -> str:
    """A file's first line of words (its title, `#` marks off), one line, at most 120 characters."""
    for line in content.splitlines():
        words = " ".join(line.strip().lstrip("#").split())
        if words:
            return words[:120]
    return ""


def loaded_text(path: Path) -> str:
    """The rule's text again, for its frontmatter (load_file has checked it is small and readable)."""
    return path.read_text(encoding="utf-8-sig", errors="replace")


def _true(value: Any) -> bool:
    return value is True or (isinstance(value, str) and value.strip().lower() == "true")


def _globs(value: Any) -> list[str]:
    """Cursor writes `globs: **/*.ts, **/*.tsx`, a YAML list, or nothing; a comma inside braces
    (`src/**/*.{ts,tsx}`) is part of its pattern."""
    if isinstance(value, list):
        return [str(g).strip() for g in value if str(g).strip()]
    if isinstance(value, str):
        return [g.strip() for g in _BETWEEN_PATTERNS.split(value) if g.strip()]
    return []


_BETWEEN_PATTERNS = re.compile(r",(?![^{]*\})")  # a comma not inside `{...}`


def _text(value: Any) -> str:
    return " ".join(value.split()) if isinstance(value, str) else ""


def nested_instructions(workspace: Path, instruction_names: dict[str, str], warnings: list[str]) -> Skill | None:
    """An always-on note listing the instruction files in the workspace's subdirectories, or
    None when there are none. In a git repository git's index answers (fast, and ignored
    folders like build output stay out); elsewhere a bounded walk does."""
    found = _from_git(workspace, instruction_names)
    if found is None:
        found = _walked(workspace, instruction_names)
    found = [p for p in found if "/" in p and stays_inside(workspace / p, workspace, warnings)]
    if not found:
        return None
    shown = found[:MAX_NESTED_LISTED]
    more = f"\n- ... and {len(found) - len(shown)} more" if len(found) > len(shown) else ""
    content = (
        "These folders have their own instructions for the files under them. Before changing "
        "anything in one of them, read its file:\n" + "\n".join(f"- {p}" for p in shown) + more
    )
    return Skill(name="nested instructions", content=content, type="repo", source=str(workspace), origin="workspace")


def _from_git(workspace: Path, instruction_names: dict[str, str]) -> list[str] | None:
    """Tracked and untracked-but-not-ignored instruction files, or None outside a repository."""
    # git's `icase` magic does not reach untracked files: spell each name in any case instead
    specs = [
        "*/" + "".join(f"[{c.lower()}{c.upper()}]" if c.isalpha() else c for c in name) for name in instruction_names
    ]
    out = run_git(workspace, ["ls-files", "-z", "--cached", "--others", "--exclude-standard", "--", *specs])
    if out is None or out.returncode != 0:
        return None
    names = out.stdout.decode("utf-8", "replace").split("\0")
    return sorted(
        {
            n
            for n in names
            if n.rsplit("/", 1)[-1].lower() in instruction_names
            and n.count("/") <= MAX_NESTED_DEPTH
            and not _hidden_or_skipped(n)
        }
    )


def _hidden_or_skipped(relative: str) -> bool:
    return any(part.startswith(".") or part in _SKIP_DIRS for part in relative.split("/")[:-1])


def _walked(workspace: Path, instruction_names: dict[str, str]) -> list[str]:
    found: list[str] = []
    for scanned, (current, dirnames, filenames) in enumerate(os.walk(workspace), start=1):
        if scanned > MAX_DIRS_SCANNED:
            break  # a courtesy, not a promise: a huge folder that is no repository is not searched whole
        here = Path(current)
        dirnames[:] = sorted(d for d in dirnames if not d.startswith(".") and d not in _SKIP_DIRS)
        if len(here.relative_to(workspace).parts) >= MAX_NESTED_DEPTH:
            dirnames[:] = []
        found += [(here / n).relative_to(workspace).as_posix() for n in filenames if n.lower() in instruction_names]
    return sorted(found)


def stays_inside(path: Path, root: Path, warnings: list[str]) -> bool:
    """Whether `path`, links resolved, is within `root`; if not, a warning says where it leads."""
    real, inside = os.path.realpath(path), os.path.realpath(root)
    if real == inside or real.startswith(inside.rstrip(os.sep) + os.sep):
        return True
    warnings.append(f"{path}: skipped, it links outside the repository (to {real})")
    return False
