"""One skills or microagents directory: which of its files are microagents, read in a stable
order and within bounds (a skills folder is not a whole disk).

What is a microagent:
- `SKILL.md` (any case, at any depth of a skills or microagents directory) is an Agent Skill;
  every other file in its folder and below (references/, scripts/, assets/, themes/...) is
  one of its resources, never a microagent.
- In `.openhands/microagents/`, every other `.md` file is an OpenHands microagent (README.md
  excepted).
- In a skills directory, other files are resources too, except OpenHands-style microagents:
  a `.md` file directly in the directory that has frontmatter (or is `repo.md`), or one deeper
  whose frontmatter says it is one (`triggers`, `inputs`, `type`, `mcp_tools`).
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path

from openhands_tui.sdk.context.files import MICROAGENT_TYPES, load_file, parse_header, split_frontmatter
from openhands_tui.sdk.context.rules import stays_inside
from openhands_tui.sdk.context.skill import Skill
from openhands_tui.sdk.files.read import read_head

_MICROAGENT_KEYS = {"triggers", "trigger", "inputs", "type", "mcp_tools"}
_SKIP_DIRS = {".git", "node_modules", "__pycache__", ".venv", "venv", ".tox"}
MAX_FILES_SCANNED = 5_000  # per directory tree: a skills folder is not a whole disk
MAX_DEPTH = 8


def load_directory(
    directory: Path, origin: str, warnings: list[str], *, skills_dir: bool, confine: Path | None = None
) -> list[Skill]:
    try:
        if not directory.is_dir():
            return []
    except OSError as exc:  # a parent we cannot look into
        warnings.append(f"{directory}: skipped, unreadable ({exc.strerror or exc})")
        return []
    skills = []
    for path in _candidates(directory, warnings, skills_dir=skills_dir):
        if confine is not None and not stays_inside(path, confine, warnings):
            continue
        if path.name.lower() == "skill.md":
            default = path.parent.name if path.parent != directory else directory.name
        else:
            default = path.stem
        skill = load_file(path, origin, warnings, default_name=default)
        if skill is not None:
            skills.append(skill)
    return skills


def _candidates(directory: Path, warnings: list[str], *, skills_dir: bool) -> Iterator[Path]:
    """The files in `directory` that are microagents or skills, in a stable order."""
    visited: set[str] = set()
    scanned = 0

    def unreadable(exc: OSError) -> None:  # said, as an unreadable file is: not silently empty
        warnings.append(f"{exc.filename or directory}: skipped, unreadable ({exc.strerror or exc})")

    for current, dirnames, filenames in os.walk(directory, onerror=unreadable, followlinks=True):
        here = Path(current)
        real = os.path.realpath(current)
        depth = len(here.relative_to(directory).parts)
        if real in visited or depth > MAX_DEPTH:
            dirnames[:] = []
            continue
        visited.add(real)
        names = {name.lower(): name for name in filenames}
        if "skill.md" in names:
            yield here / names["skill.md"]
            if depth > 0:
                dirnames[:] = []  # everything below an Agent Skill is its resources
                continue
            # A SKILL.md right in the skills directory (an index some repositories keep there)
            # is a skill, and the skill folders beside it are skills too.
        dirnames[:] = sorted(d for d in dirnames if d not in _SKIP_DIRS)
        for name in sorted(filenames):
            scanned += 1
            if scanned > MAX_FILES_SCANNED:
                warnings.append(f"{directory}: stopped looking after {MAX_FILES_SCANNED:,} files")
                return
            if not name.lower().endswith(".md") or name.lower() in ("readme.md", "skill.md"):
                continue
            path = here / name
            if not skills_dir or _looks_like_microagent(path, top_level=depth == 0):
                yield path


def _looks_like_microagent(path: Path, *, top_level: bool) -> bool:
    """In a skills directory, is this non-SKILL.md file an OpenHands microagent?"""
    if top_level and path.name.lower() == "repo.md":
        return True
    try:  # never a blocking open: a FIFO named notes.md would hang the session's start for good
        head = read_head(path, 16_384).decode("utf-8-sig", errors="replace")
    except OSError:
        return True  # loading it says why it is skipped
    header, _ = split_frontmatter(head)
    if header is None:
        return False
    if top_level:
        return True
    metadata, _ = parse_header(header)
    keys = set(metadata or {}) & _MICROAGENT_KEYS
    if "type" in keys and str((metadata or {})["type"]).strip().lower() not in MICROAGENT_TYPES:
        keys.discard("type")  # a document's `type: tutorial` (Diataxis docs) is no microagent type
    return bool(keys)
