"""Skill folders below the workspace: a monorepo's `packages/web/.claude/skills/deploy/SKILL.md`.

Claude Code finds the skills of a subfolder's `.claude/skills/` (and the other tools keep theirs
the same way), so a user who opens the repository expects `/deploy` of that package to run.
Each is listed like any skill, with its folder (`packages/web/.claude/skills/deploy`) saying
where it belongs; the workspace's own skills come first, so a package's `deploy` never shadows
the repository's.

What the loader reads lands in every agent's prompt, so it must be what commands cannot write:
the sandbox binds the same names read-only in every folder its nested look reaches. This look is
that one, step for step (breadth first, the same depth, folder budget and skipped trees, no
links followed), so it never reaches a folder the sandbox does not; a test holds the numbers
equal. Only `SKILL.md` files count (a package's `repo.md` is not always on for the whole
workspace), only those that really lie in a package's skill folder (not a link out of it), and
none below a test's data (`tests/fixtures/repo/.claude/skills` is a test's, not the project's).
"""

from __future__ import annotations

import os
from collections import deque
from pathlib import Path

from openhands_tui.sdk.context.skill import Skill
from openhands_tui.sdk.context.skill_dirs import load_directory
from openhands_tui.sdk.files.nested_look import DEPTH, MAX_DIRECTORIES, SKIPPED

#: Skill folders read below the workspace; more are reported, not read (each is a listing line
#: per skill in every request).
MAX_NESTED_SKILL_DIRS = 20
#: Below these, a skill folder is a test's data (a tool that tests skill loading keeps whole
#: workspaces there), not the project's: filtered from what the look found, so the look itself
#: stays the sandbox's.
TEST_DATA = frozenset({"fixtures", "__fixtures__", "test-fixtures", "test_fixtures", "testdata", "test-data"})


def nested_skills(
    workspace: Path, skill_dirs: tuple[str, ...], warnings: list[str], *, home: Path | None = None
) -> list[Skill]:
    """The Agent Skills of the skill folders (`skill_dirs`, relative) in folders below `workspace`;
    the user's `home`, when it lies below, keeps its skills the user's (read after, as the user's)."""
    mine = os.path.realpath(home) if home is not None else None
    found = [
        (package, relative)
        for package, relative in nested_skill_dirs(workspace, skill_dirs)
        if os.path.realpath(package) != mine and not TEST_DATA & {part.lower() for part in package.parts}
    ]
    if len(found) > MAX_NESTED_SKILL_DIRS:
        warnings.append(
            f"{workspace}: {len(found)} skill folders below the workspace; the first {MAX_NESTED_SKILL_DIRS} are read"
        )
    skills: list[Skill] = []
    read: set[str] = set()  # `pkg/.claude/skills -> ../.agents/skills`: one set, read once
    for package, relative in found[:MAX_NESTED_SKILL_DIRS]:
        directory = package / relative
        if (real := os.path.realpath(directory)) in read:
            continue
        read.add(real)
        for skill in load_directory(directory, "workspace", warnings, skills_dir=True, confine=package):
            if Path(skill.source).name.lower() != "skill.md":
                continue  # an OpenHands microagent of a package is not the whole workspace's
            if not _in_skill_folder(Path(skill.source), package, skill_dirs):
                warnings.append(f"{skill.source}: skipped, it links out of the package's skill folders")
                continue
            skills.append(skill)
    return skills


def nested_skill_dirs(workspace: Path, skill_dirs: tuple[str, ...]) -> list[tuple[Path, str]]:
    """(folder, skill dir) for every `skill_dirs` entry present in a folder below the workspace,
    breadth first, as far as the sandbox's nested look goes."""
    found: list[tuple[Path, str]] = []
    top = str(workspace)
    pending, seen = deque([(top, 0)]), 0
    while pending and seen < MAX_DIRECTORIES:
        directory, depth = pending.popleft()
        seen += 1
        try:
            entries = list(os.scandir(directory))
        except OSError:
            continue
        if directory != top:
            found += [(Path(directory), relative) for relative in _skill_dirs_in(directory, entries, skill_dirs)]
        for entry in entries:
            if entry.name.lower() == ".git" and directory != top:
                continue
            if depth < DEPTH and entry.name not in SKIPPED and entry.is_dir(follow_symlinks=False):
                pending.append((entry.path, depth + 1))
    return found


def _skill_dirs_in(directory: str, entries: list[os.DirEntry[str]], skill_dirs: tuple[str, ...]) -> list[str]:
    """The skill dirs in one folder whose first part is a real folder there (not a link)."""
    folders = {entry.name for entry in entries if entry.is_dir(follow_symlinks=False)}
    return [relative for relative in skill_dirs if relative.split("/")[0] in folders and _is_dir(directory, relative)]


def _is_dir(directory: str, relative: str) -> bool:
    try:
        return os.path.isdir(os.path.join(directory, relative))
    except OSError:
        return False


def _in_skill_folder(path: Path, package: Path, skill_dirs: tuple[str, ...]) -> bool:
    """Whether `path` really lies in one of the package's skill folders (whose whole first folder,
    `.claude`, `.agents`..., the sandbox keeps read-only; `.github/skills` itself for GitHub's)."""
    real = os.path.realpath(path)
    base = os.path.realpath(package)
    for relative in skill_dirs:
        first = relative.split("/")[0]
        kept = os.path.join(base, relative if first == ".github" else first)
        if real.startswith(kept + os.sep):
            return True
    return False
