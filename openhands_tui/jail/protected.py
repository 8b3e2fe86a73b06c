"""The protected paths of one workspace (instructions, rules, hooks, CI files, git's own state):
which exist, so the jail binds them read-only, and what a command did to them, undone after it.

Protected paths that do not exist yet cannot be bound; a command that creates one is caught
after it runs (`ProtectedPaths.check`), and what it made is removed. A bound path replaced by
another (`mv .git .old && mkdir -p .git/hooks`) is caught the same way, by its inode.
"""

from __future__ import annotations

import contextlib
import fnmatch
import os
import re
import shutil
from collections.abc import Callable
from functools import lru_cache
from pathlib import Path

from openhands_tui.jail.git_state import (
    harmless_new_git,
    harmless_new_nested,
    nested_repositories_state,
    submodule_hooks_and_config,
    worktree_state,
)
from openhands_tui.sdk.sandbox import EditorWrites
from openhands_tui.sdk.security.protected_paths import NESTED_PROTECTED, PROTECTED, VENV_PROTECTED
from openhands_tui.sdk.security.trusted import TrustedFiles


@lru_cache(maxsize=256)
def _glob(segment: str) -> Callable[[str], re.Match[str] | None]:
    """A compiled matcher for one glob segment (a regex per name, not fnmatch's per call)."""
    return re.compile(fnmatch.translate(segment)).match


def _case_insensitive(
    root: Path, relative: str, listings: dict[Path, dict[str, list[str]]] | None = None
) -> list[Path]:
    """Every existing path under `root` that matches `relative` ignoring case, segment by segment
    (`listings` keeps each directory's names, by their lower case, for the other patterns of the
    same look: one listing and one pass over it per directory, however many patterns)."""
    listings = {} if listings is None else listings
    found = [root]
    for segment in relative.split("/"):
        wanted, next_found = segment.lower(), []
        for base in found:
            names = listings.get(base)
            if names is None:
                names = listings[base] = {}
                try:
                    for name in os.listdir(base):
                        names.setdefault(name.lower(), []).append(name)
                except OSError:
                    pass
            if any(c in wanted for c in "*?["):  # a glob segment: `*.code-workspace`, `lib/*/site-packages`
                pattern = _glob(wanted)
                next_found += [base / n for lowered, ns in names.items() if pattern(lowered) for n in ns]
            else:
                next_found += [base / name for name in names.get(wanted, ())]
        found = next_found
    return found


#: NESTED_PROTECTED by the lower case of its first segment (`.github` -> its two-part patterns).
_NESTED_BY_FIRST: dict[str, list[str]] = {}
_NESTED_GLOBS: list[str] = []
for _pattern in NESTED_PROTECTED:
    _first = _pattern.split("/", 1)[0].lower()
    if any(c in _first for c in "*?["):
        _NESTED_GLOBS.append(_pattern)
    else:
        _NESTED_BY_FIRST.setdefault(_first, []).append(_pattern)


#: PROTECTED split: names looked up directly, and one-name globs (`*.code-workspace`) matched in
#: one pass over the top's listing.
_LITERAL = [p for p in PROTECTED if not any(c in p for c in "*?[")]
_TOP_GLOBS = [p for p in PROTECTED if p not in _LITERAL]
assert all("/" not in p for p in _TOP_GLOBS), "a protected glob spans folders: _top_globs matches one name"
_ANY_TOP_GLOB = re.compile("|".join(f"(?:{fnmatch.translate(g.lower())})" for g in _TOP_GLOBS) or "(?!)").match


def _top_globs(workspace: Path, listings: dict[Path, dict[str, list[str]]]) -> list[Path]:
    _case_insensitive(workspace, ".", listings)  # the top's listing, shared with the other looks
    names = listings.get(workspace, {})
    return [workspace / n for lowered, ns in names.items() if _ANY_TOP_GLOB(lowered) for n in ns]


_ANY_NESTED_GLOB = re.compile(
    "|".join(f"(?:{fnmatch.translate(g.split('/', 1)[0].lower())})" for g in _NESTED_GLOBS) or "(?!)"
).match


def _nested_agent_files(directory: Path, entries: list[os.DirEntry[str]]) -> list[Path]:
    """The protected names among one folder's entries (any case), for a folder below the top,
    and the virtualenvs' start-up files when the folder is one."""
    found: list[Path] = []
    for entry in entries:
        lowered = entry.name.lower()
        patterns = _NESTED_BY_FIRST.get(lowered, [])
        if _ANY_NESTED_GLOB(lowered):  # one regex for all of them first: most names match none
            patterns = patterns + [g for g in _NESTED_GLOBS if _glob(g.split("/", 1)[0].lower())(lowered)]
        if entry.name == "pyvenv.cfg":
            found += venv_start_up(directory)
        for pattern in patterns:
            if "/" not in pattern:
                found.append(Path(entry.path))
            elif entry.is_dir(follow_symlinks=False):
                found += _case_insensitive(Path(entry.path), pattern.split("/", 1)[1])
    return found


#: Where virtualenvs are made at a project's top (deeper ones: the nested look finds `pyvenv.cfg`).
_VENV_NAMES = (".venv", "venv", "env", ".env", "virtualenv", ".virtualenv", "venv3", ".tox", ".nox")


def _workspace_venvs(workspace: Path, listings: dict[Path, dict[str, list[str]]]) -> list[Path]:
    """Virtualenvs at the top or one folder down (`.venv`, `venv`, `backend/.venv`): a folder
    holding `pyvenv.cfg`. Deeper ones are found by the nested look (`_nested_agent_files`)."""
    found = [workspace] if (workspace / "pyvenv.cfg").is_file() else []
    for name in _VENV_NAMES:  # by name, not a stat of every entry: a flat workspace has 100,000
        found += [p.parent for p in _case_insensitive(workspace, f"{name}/pyvenv.cfg", listings)]
    return found


def venv_start_up(venv: Path, listings: dict[Path, dict[str, list[str]]] | None = None) -> list[Path]:
    """What every later `python` of the virtualenv, or a shell that activates it, runs."""
    listings = {} if listings is None else listings
    return [p for pattern in VENV_PROTECTED for p in _case_insensitive(venv, pattern, listings)]


def _identity(path: Path) -> tuple[int, int] | None:
    try:
        info = os.lstat(path)
    except OSError:
        return None
    return info.st_dev, info.st_ino


class ProtectedPaths:
    """The protected paths of one workspace: which exist (and are bound read-only), and what a
    command changed among them. `trusted`: the session's trusted files (its strategy, what its
    MCP servers run...), protected too; `editor_writes`: what the session's file editor wrote,
    which a check that spares the editor leaves alone. None: the session has none."""

    def __init__(
        self, workspace: Path, trusted: TrustedFiles | None = None, editor_writes: EditorWrites | None = None
    ) -> None:
        self.workspace = workspace
        self.trusted = trusted if trusted is not None else TrustedFiles()
        self.editor_writes = editor_writes if editor_writes is not None else EditorWrites()
        self.bound: dict[Path, tuple[int, int] | None] = {}
        self.settled: dict[Path, tuple[int, int] | None] = {}

    def existing(self) -> list[Path]:
        listings: dict[Path, dict[str, list[str]]] = {}
        found = [p for pattern in _LITERAL for p in _case_insensitive(self.workspace, pattern, listings)]
        found += _top_globs(self.workspace, listings)
        for venv in _workspace_venvs(self.workspace, listings):
            found += venv_start_up(venv, listings)
        git = self.workspace / ".git"
        if git.is_symlink() or git.is_file():  # `gitdir: elsewhere`: a repository with other hooks and config
            found.append(git)
        elif git.is_dir():
            found += submodule_hooks_and_config(git / "modules") + worktree_state(git / "worktrees")
        return found + nested_repositories_state(self.workspace, also=_nested_agent_files) + self._trusted()

    def _trusted(self) -> list[Path]:
        """The files the session trusts (its strategy and its modules, files instruction files
        import) that live here, and Python's compiled caches of them (a pyc runs instead of the source)."""
        top = os.path.realpath(self.workspace)
        found: list[Path] = []
        for real in sorted(self.trusted.paths()):
            if not real.startswith(top + os.sep):
                continue  # outside (read-only anyway), or the workspace itself (never bound whole)
            source = self.workspace / os.path.relpath(real, top)  # named as the other protected paths are
            if os.path.lexists(source):
                found.append(source)
            stem = source.name.split(".", 1)[0] + "."
            try:
                cached = [e for e in os.scandir(source.parent / "__pycache__") if e.name.startswith(stem)]
            except OSError:
                continue
            found += [Path(e.path) for e in cached if e.name.endswith(".pyc")]
        return found

    def snapshot(self) -> dict[Path, tuple[int, int] | None]:
        return {path: _identity(path) for path in self.existing()}

    def bind(self) -> list[Path]:
        """Remember what exists now: the jail about to start binds these read-only."""
        self.bound = self.snapshot()
        return [p for p in self.bound if not p.is_symlink()]

    def stale(self, now: dict[Path, tuple[int, int] | None] | None = None) -> bool:
        """Whether the jail no longer matches the workspace (a protected file was created by
        the file editor since it started, say): it must be rebuilt before the next command.
        `now`: a snapshot the caller just took."""
        return (self.snapshot() if now is None else now).keys() != self.bound.keys()

    def check(self, before: dict[Path, tuple[int, int] | None], spare_editor: bool = False) -> list[str]:
        """After a command: undo what it did to protected paths; say what was undone.
        `spare_editor`: leave what the file editor made (checking a span with no command)."""
        undone: list[str] = []
        now = self.snapshot()
        # no hooks or config before: a repository `git init` or `git clone` just made
        new_git = not any(p.relative_to(self.workspace).parts[0].lower() == ".git" for p in before)
        known = {identity for identity in before.values() if identity is not None}
        # virtualenvs the command made (`python -m venv .venv`): a new folder of its own, kept
        # whole; an existing venv's start-up files stay guarded
        new_venvs = [p.parent for p in now if p.name == "pyvenv.cfg" and p not in before]
        for path, identity in now.items():
            if path not in before and any(v == path.parent or v in path.parents for v in new_venvs):
                continue
            if path in before and before[path] == identity:
                continue
            if path not in before and identity in known:
                continue  # a nested repository moved with its directory (`mv vendor lib`): the same files
            if spare_editor and self.editor_writes.wrote_under(str(path)):
                continue
            relative = path.relative_to(self.workspace)
            new_module = relative.parts[:2] in ((".git", "modules"), (".git", "worktrees")) and path not in before
            if ((new_git and relative.parts[0] == ".git") or new_module) and harmless_new_git(path):
                continue  # `git init`, `git clone`, `git submodule add`: sample hooks, plain config
            if path not in before and relative.parts[0] != ".git" and harmless_new_nested(path, self.workspace):
                continue  # `git clone` into vendor/, `git submodule update --init`: a plain new checkout
            _undo(path, self.workspace)
            undone.append(str(relative))
        #: What the protected paths are after this check (what was undone is gone from it).
        self.settled = {p: i for p, i in now.items() if str(p.relative_to(self.workspace)) not in undone}
        return undone


def _undo(path: Path, workspace: Path) -> None:
    """Remove what a command made at `path` (below `workspace`), never through a link: this runs
    in `tui`'s own process, unconfined. When a folder on the way is a link (`.github` pointing at
    another project, `.git/modules` at a folder of repositories, `docs` elsewhere), the link is
    what the command made, and the link is what goes; what it points at is left alone, wherever
    it is."""
    current = workspace
    for part in path.relative_to(workspace).parts[:-1]:
        current = current / part
        if current.is_symlink():
            with contextlib.suppress(OSError):
                current.unlink()
            return
    remove_made(path)


def remove_made(path: Path) -> None:
    """Remove what a command made at `path`, never following a link (this runs unconfined)."""
    with contextlib.suppress(OSError):
        if path.is_dir() and not path.is_symlink():
            shutil.rmtree(path)
        else:
            path.unlink()
