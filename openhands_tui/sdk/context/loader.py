"""Finding microagents in every standard place, in priority order, and reporting problems.

Order (the first microagent of a name wins; later ones are reported as shadowed):
1. strategy-provided (`AgentContext(skills=[...])`);
2. the workspace, then its git root: `.openhands/microagents/**/*.md`, `.openhands/skills/`,
   `.agents/skills/*/SKILL.md`, and the instruction files `AGENTS.md` (`agents.md`,
   `agent.md`), `CLAUDE.md`, `GEMINI.md`, `.cursorrules`;
3. the user's `~/.openhands/microagents/` and `~/.agents/skills/`;
4. the built-in set shipped with the package.

A bad file (broken YAML, wrong field types, unreadable, empty, too big) is skipped with a
warning naming it and the problem; loading goes on. Content over the size limit is cut
with a note saying so.
"""

from __future__ import annotations

import subprocess
from collections.abc import Iterable
from pathlib import Path
from typing import Any

import frontmatter
import yaml
from pydantic import Field, ValidationError

from openhands_tui.sdk.context.skill import Skill
from openhands_tui.sdk.model import Model

MAX_FILE_BYTES = 256 * 1024  # larger files are not read at all
MAX_CONTENT_CHARS = 24_000  # about 6,000 tokens per microagent
INSTRUCTION_FILES = {
    "AGENTS.md": "agents",
    "agents.md": "agents",
    "agent.md": "agents",
    "CLAUDE.md": "claude",
    "GEMINI.md": "gemini",
    ".cursorrules": "cursorrules",
}
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


def load_microagents(
    workspace: Path,
    *,
    strategy_skills: Iterable[Skill] = (),
    home: Path | None = None,
    include_builtin: bool = True,
) -> LoadedMicroagents:
    result = LoadedMicroagents()
    seen: dict[str, Skill] = {}

    def offer(skill: Skill) -> None:
        if skill.name in seen:
            winner = seen[skill.name]
            result.shadowed.append(
                f"{skill.name} from {skill.source} ({skill.origin}) is shadowed by {winner.source} ({winner.origin})"
            )
            return
        seen[skill.name] = skill
        result.skills.append(skill)

    for skill in strategy_skills:
        offer(skill)
    roots = [workspace.resolve()]
    git_root = _git_root(workspace)
    if git_root is not None and git_root != roots[0]:
        roots.append(git_root)
    for root in roots:
        for skill in _load_tree(root, "workspace", result.warnings):
            offer(skill)
    home = home or Path.home()
    for directory in (home / ".openhands" / "microagents", home / ".agents" / "skills"):
        for skill in _load_directory(directory, "user", result.warnings):
            offer(skill)
    if include_builtin:
        for skill in _load_directory(BUNDLED_DIR, "builtin", result.warnings):
            offer(skill)
    return result


def _load_tree(root: Path, origin: str, warnings: list[str]) -> list[Skill]:
    skills = []
    skills += _load_directory(root / ".openhands" / "microagents", origin, warnings)
    skills += _load_directory(root / ".openhands" / "skills", origin, warnings)
    skills += _load_directory(root / ".agents" / "skills", origin, warnings)
    for filename, name in INSTRUCTION_FILES.items():
        path = root / filename
        if path.is_file() and filename in {p.name for p in root.iterdir()}:  # exact case on any FS
            skill = load_file(path, origin, warnings, default_name=name, force_repo=True)
            if skill is not None:
                skills.append(skill)
    return skills


def _load_directory(directory: Path, origin: str, warnings: list[str]) -> list[Skill]:
    if not directory.is_dir():
        return []
    skills = []
    for path in sorted(directory.rglob("*.md")):
        if path.name == "README.md" and path.parent == directory:
            continue  # a directory's readme documents the microagents, it is not one
        if path.parent != directory and path.name != "SKILL.md" and (path.parent / "SKILL.md").exists():
            continue  # resources of an Agent Skill, not microagents
        default = path.parent.name if path.name == "SKILL.md" else path.stem
        skill = load_file(path, origin, warnings, default_name=default)
        if skill is not None:
            skills.append(skill)
    return skills


def load_file(
    path: Path, origin: str, warnings: list[str], *, default_name: str, force_repo: bool = False
) -> Skill | None:
    """One microagent file, or None (with a warning) when it cannot be used."""
    try:
        size = path.stat().st_size
        if size > MAX_FILE_BYTES:
            warnings.append(f"{path}: skipped, {size:,} bytes is more than the {MAX_FILE_BYTES:,}-byte limit")
            return None
        text = path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        warnings.append(f"{path}: skipped, unreadable ({getattr(exc, 'strerror', None) or exc})")
        return None
    try:
        header, body = frontmatter.YAMLHandler().split(text) if text.startswith("---") else ("", text)
        metadata = yaml.safe_load(header) if header.strip() else {}
    except (yaml.YAMLError, ValueError) as exc:
        problem = str(exc).splitlines()[0]
        warnings.append(f"{path}: skipped, broken YAML frontmatter ({problem})")
        return None
    if metadata is None:
        metadata = {}
    if not isinstance(metadata, dict):
        warnings.append(f"{path}: skipped, the frontmatter must be a mapping, not a {type(metadata).__name__}")
        return None
    body = body.strip()
    if not body:
        warnings.append(f"{path}: skipped, it has no content")
        return None
    return _build(path, origin, metadata, body, default_name, force_repo, warnings)


def _build(
    path: Path,
    origin: str,
    metadata: dict[str, Any],
    body: str,
    default_name: str,
    force_repo: bool,
    warnings: list[str],
) -> Skill | None:
    truncated = len(body) > MAX_CONTENT_CHARS
    if truncated:
        body = body[:MAX_CONTENT_CHARS] + (
            f"\n\n[... truncated: {path.name} has {len(body):,} characters; only the first "
            f"{MAX_CONTENT_CHARS:,} are included ...]"
        )
    triggers = metadata.get("triggers", metadata.get("trigger", []))
    if isinstance(triggers, str):
        triggers = [triggers]
    fields: dict[str, Any] = {
        "name": metadata.get("name") or default_name,
        "content": body,
        "triggers": triggers,
        "inputs": metadata.get("inputs") or [],
        "description": metadata.get("description") or "",
        "source": str(path),
        "origin": origin,
        "truncated": truncated,
    }
    kind = metadata.get("type")
    if force_repo or (path.name == "repo.md" and kind is None):
        kind = "repo"
    if kind is None and path.name == "SKILL.md" and not triggers:
        kind, fields["triggers"] = "knowledge", _name_triggers(str(fields["name"]))
    if kind is not None:
        fields["type"] = {"repo_knowledge": "repo"}.get(str(kind), kind)
    try:
        skill = Skill.model_validate(fields)
    except ValidationError as exc:
        error = exc.errors()[0]
        where = ".".join(str(p) for p in error["loc"]) or "frontmatter"
        warnings.append(f"{path}: skipped, wrong type for {where!r} ({error['msg']})")
        return None
    if skill.type == "knowledge" and not skill.triggers:
        warnings.append(f"{path}: skipped, a knowledge microagent needs `triggers`")
        return None
    return skill


def _name_triggers(name: str) -> list[str]:
    """An Agent Skill without triggers fires on its name (`pdf-tools` or `pdf tools`)."""
    spaced = name.replace("-", " ").replace("_", " ")
    return [name] if spaced == name else [name, spaced]


def _git_root(workspace: Path) -> Path | None:
    try:
        out = subprocess.run(
            ["git", "-C", str(workspace), "rev-parse", "--show-toplevel"],
            capture_output=True,
            text=True,
            timeout=5,
            check=False,
        )
    except (OSError, subprocess.SubprocessError):
        return None
    return Path(out.stdout.strip()).resolve() if out.returncode == 0 and out.stdout.strip() else None
