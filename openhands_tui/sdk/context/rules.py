"""Other tools' project rules: Cursor's `.cursor/rules/*.mdc`, GitHub Copilot's
`.github/instructions/*.instructions.md` (`applyTo` for `globs`), and instruction files
(AGENTS.md, CLAUDE.md...) in the subdirectories of a repository.

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
from pathlib import Path
from typing import Any

from openhands_tui.sdk.context.files import load_file, parse_header, split_frontmatter
from openhands_tui.sdk.context.skill import Skill

CURSOR_RULES_DIR = ".cursor/rules"
COPILOT_INSTRUCTIONS_DIR = ".github/instructions"
RULE_SUFFIXES = (".mdc", ".md")
MAX_RULES = 500
#: Where nested instruction files are looked for below a workspace, and how hard.
MAX_NESTED_DEPTH = 6
MAX_DIRS_SCANNED = 5_000
MAX_NESTED_LISTED = 50
_SKIP_DIRS = {"node_modules", "__pycache__", "venv", "vendor", "dist", "build", "target"}


def cursor_rules(root: Path, origin: str, warnings: list[str]) -> list[Skill]:
    """The Cursor rules of a repository, in a stable order."""
    directory = root / CURSOR_RULES_DIR
    return [
        skill
        for path in _rule_files(directory, root, RULE_SUFFIXES, warnings)
        if (skill := _rule(path, "cursor:" + path.relative_to(directory).with_suffix("").as_posix(), origin, warnings))
    ]


def copilot_instructions(root: Path, origin: str, warnings: list[str]) -> list[Skill]:
    """GitHub Copilot's path-specific instructions (`.github/instructions/*.instructions.md`):
    `applyTo: "**"` is always on, other patterns are listed for the files they name."""
    directory = root / COPILOT_INSTRUCTIONS_DIR
    skills = []
    for path in _rule_files(directory, root, (".instructions.md",), warnings):
        name = "copilot:" + path.relative_to(directory).as_posix().removesuffix(".instructions.md")
        skill = _rule(path, name, origin, warnings, globs_key="applyTo")
        if skill is not None:
            skills.append(skill)
    return skills


def _rule_files(directory: Path, root: Path, suffixes: tuple[str, ...], warnings: list[str]) -> list[Path]:
    if not directory.is_dir():
        return []
    paths = sorted(p for p in directory.rglob("*") if p.name.lower().endswith(suffixes) and p.is_file())
    if len(paths) > MAX_RULES:
        warnings.append(f"{directory}: only the first {MAX_RULES} of {len(paths):,} rules are read")
    return [p for p in paths[:MAX_RULES] if _inside(p, root, warnings)]


def _rule(path: Path, name: str, origin: str, warnings: list[str], *, globs_key: str = "globs") -> Skill | None:
    """One rule: always on, listed with its description and file patterns, or (neither) applied
    when a message names it."""
    loaded = load_file(path, origin, warnings, default_name=name, instructions=True)
    if loaded is None:
        return None
    header, _ = split_frontmatter(loaded_text(path))
    metadata: dict[str, Any] = (parse_header(header)[0] or {}) if header is not None else {}
    globs = _globs(metadata.get(globs_key))
    always = _true(metadata.get("alwaysApply", metadata.get("always_apply"))) or header is None
    if always or (globs_key == "applyTo" and set(globs) & {"**", "**/*", "*"}):
        return loaded  # always on, as an instruction file (no frontmatter: the tool applies it too)
    description = _text(metadata.get("description"))
    update: dict[str, Any] = {"type": "knowledge", "triggers": [], "agent_skill": True}
    if globs:
        description = f"{description} (for files matching {', '.join(globs)})".strip()
    if description:
        update["description"] = description
    else:  # a manual rule: it applies when a message names it
        update.update(agent_skill=False, triggers=[f"@{path.name.split('.')[0]}", name])
    return Skill.model_validate({**loaded.model_dump(exclude={"trigger"}), **update})


def loaded_text(path: Path) -> str:
    """The rule's text again, for its frontmatter (load_file has checked it is small and readable)."""
    return path.read_text(encoding="utf-8-sig", errors="replace")


def _true(value: Any) -> bool:
    return value is True or (isinstance(value, str) and value.strip().lower() == "true")


def _globs(value: Any) -> list[str]:
    """Cursor writes `globs: **/*.ts, **/*.tsx`, a YAML list, or nothing."""
    if isinstance(value, list):
        return [str(g).strip() for g in value if str(g).strip()]
    if isinstance(value, str):
        return [g.strip() for g in value.split(",") if g.strip()]
    return []


def _text(value: Any) -> str:
    return " ".join(value.split()) if isinstance(value, str) else ""


def nested_instructions(workspace: Path, instruction_names: dict[str, str], warnings: list[str]) -> Skill | None:
    """An always-on note listing the instruction files in the workspace's subdirectories, or
    None when there are none."""
    found: list[str] = []
    scanned = 0
    for current, dirnames, filenames in os.walk(workspace):
        here = Path(current)
        depth = len(here.relative_to(workspace).parts)
        dirnames[:] = sorted(d for d in dirnames if not d.startswith(".") and d not in _SKIP_DIRS)
        if depth >= MAX_NESTED_DEPTH:
            dirnames[:] = []
        scanned += 1
        if scanned > MAX_DIRS_SCANNED:
            warnings.append(f"{workspace}: stopped looking for nested AGENTS.md after {MAX_DIRS_SCANNED:,} folders")
            break
        if depth == 0:
            continue
        for name in sorted(filenames):
            path = here / name
            if name.lower() in instruction_names and _inside(path, workspace, warnings) and path.is_file():
                found.append(path.relative_to(workspace).as_posix())
    if not found:
        return None
    shown = found[:MAX_NESTED_LISTED]
    more = f"\n- ... and {len(found) - len(shown)} more" if len(found) > len(shown) else ""
    content = (
        "These folders have their own instructions for the files under them. Before changing "
        "anything in one of them, read its file:\n" + "\n".join(f"- {p}" for p in shown) + more
    )
    return Skill(name="nested instructions", content=content, type="repo", source=str(workspace), origin="workspace")


def _inside(path: Path, root: Path, warnings: list[str]) -> bool:
    real, inside = os.path.realpath(path), os.path.realpath(root)
    if real == inside or real.startswith(inside.rstrip(os.sep) + os.sep):
        return True
    warnings.append(f"{path}: skipped, it links outside the repository (to {real})")
    return False
