"""The git state inside a workspace that makes git run code for the user later: hooks and
config of the repository's submodules (`.git/modules/**`) and of repositories nested in the
working tree (`vendor/lib/.git`), and `.git` pointer files that hand git another directory.

The sandbox binds these read-only (`ProtectedPaths.existing`) and undoes a command's changes
to them. Both looks here run around every command, so they are bounded in depth and size.
"""

from __future__ import annotations

import os
import re
from collections import deque
from collections.abc import Callable
from pathlib import Path

from openhands_tui.sdk.files.nested_look import DEPTH, MAX_DIRECTORIES, SKIPPED


def _keys(text: str) -> frozenset[str]:
    return frozenset(text.split())


#: What a config that `git init`, `git clone` (also `--filter`, `--recurse-submodules`), `git
#: remote add`, `git sparse-checkout`, `git lfs` or `git config user.email` writes may hold, by
#: section (subsection dropped) and key. Anything else makes the new config not harmless: git
#: runs programs from far more keys than a deny list keeps up with (`gpg.program`,
#: `merge.<driver>.driver`, `pager.<command>`, `submodule.<name>.update = !cmd`,
#: `remote.<name>.uploadpack`, `core.alternateRefsCommand`, `sendemail.sendmailCmd`...).
_PLAIN_CONFIG = {
    "core": _keys(
        "repositoryformatversion filemode bare logallrefupdates ignorecase precomposeunicode symlinks "
        "autocrlf eol safecrlf sparsecheckout sparsecheckoutcone quotepath longpaths"
    ),
    "remote": _keys("url pushurl fetch tagopt mirror prune promisor partialclonefilter"),
    "branch": _keys("remote merge rebase pushremote"),
    "extensions": _keys("objectformat worktreeconfig partialclone refstorage"),
    "submodule": _keys("url active branch shallow update"),
    "user": _keys("name email"),
    "init": frozenset({"defaultbranch"}),
    "index": _keys("sparse version"),
    "lfs": _keys("repositoryformatversion access"),
    "pull": _keys("rebase ff"),
    "push": _keys("default autosetupremote"),
    "fetch": _keys("prune"),
    "commit": frozenset({"gpgsign"}),
    "advice": None,  # any key: hints git prints, nothing it runs
    "color": None,
}
#: `submodule.<name>.update` may be `!command`; only git's own modes are plain.
_PLAIN_UPDATE = _keys("checkout rebase merge none")
_SECTION = re.compile(r'^\[\s*([A-Za-z0-9.-]+)(?:\s+"(?:[^"\\]|\\.)*")?\s*\]\s*(?:[#;].*)?$')
_ENTRY = re.compile(r"^([A-Za-z][A-Za-z0-9-]*)\s*(?:=\s*(.*))?$")


def plain_git_config(text: str) -> bool:
    """Whether a git config holds only what a plain `git init`/`clone`/`remote add` writes."""
    section = None
    for raw in text.splitlines():
        line = raw.strip()
        if not line or line.startswith(("#", ";")):
            continue
        header = _SECTION.match(line)
        if header is not None:
            section = header.group(1).split(".", 1)[0].lower()
            if section not in _PLAIN_CONFIG:
                return False
            continue
        entry = _ENTRY.match(line)
        if entry is None or section is None or line.endswith("\\"):
            return False  # unparsed text, a key before any section, a continued value: not plain
        key, value = entry.group(1).lower(), (entry.group(2) or "").strip().strip('"').lower()
        keys = _PLAIN_CONFIG[section]
        if keys is not None and key not in keys:
            return False
        if section == "submodule" and key == "update" and value not in _PLAIN_UPDATE:
            return False
    return True


#: What in a git directory makes git run code or read config from elsewhere.
GIT_DIRECTORY_STATE = ("hooks", "config", "config.worktree", "commondir")

#: How far `.git/modules` is searched for submodules' own git directories (names may nest).
_MODULES_DEPTH = 4
_MODULES_MAX_DIRECTORIES = 400


def submodule_hooks_and_config(modules: Path) -> list[Path]:
    """The hooks and config of every submodule's git directory under `.git/modules`: git runs
    those hooks (and obeys that config) when the user works in the submodule, so they are
    protected as the repository's own are. Bounded, as this runs around every command."""
    found: list[Path] = []
    pending, seen = [(modules, 0)], 0
    while pending and seen < _MODULES_MAX_DIRECTORIES:
        directory, depth = pending.pop()
        seen += 1
        try:
            entries = list(os.scandir(directory))
        except OSError:
            continue
        names = {entry.name for entry in entries}
        if "HEAD" in names and directory != modules:  # a git directory
            found += [directory / name for name in GIT_DIRECTORY_STATE if name in names]
            nested = directory / "modules"  # a submodule's own submodules
            if "modules" in names and depth < _MODULES_DEPTH:
                pending.append((nested, depth + 1))
            continue
        if depth < _MODULES_DEPTH:
            pending += [(Path(entry.path), depth + 1) for entry in entries if entry.is_dir(follow_symlinks=False)]
    return found


def harmless_new_git(path: Path) -> bool:
    """A hooks directory with only git's samples, a config that names no program to run, or a
    new linked worktree's `commondir` naming the repository that made it (`git worktree add`)."""
    if path.name == "hooks":
        return all(child.name.endswith(".sample") for child in path.iterdir()) if path.is_dir() else False
    if path.name == "commondir":
        repository = path.parent.parent.parent  # .git/worktrees/<name>/commondir -> .git
        if path.parent.parent.name != "worktrees" or path.is_symlink() or not path.is_file():
            return False
        try:
            target = path.read_text(errors="replace").strip()
        except OSError:
            return False
        return os.path.realpath(os.path.join(path.parent, target)) == os.path.realpath(repository)
    if path.name in ("config", "config.worktree"):
        try:
            text = path.read_text(errors="replace")
        except OSError:
            return False
        return plain_git_config(text)
    return False


#: Called for each directory the nested look lists, with its entries: more paths to protect.
ExtraLook = Callable[[Path, list[os.DirEntry[str]]], list[Path]]


def nested_repositories_state(workspace: Path, also: ExtraLook | None = None) -> list[Path]:
    """For every repository nested in the working tree (depth <= DEPTH): its hooks and
    config (and its own submodules'), or the `.git` file itself when it points elsewhere. git
    runs those hooks and obeys that config when the user works in the nested directory.
    Breadth first, so a budget cut on a huge tree drops the deepest directories, not vendor/.
    `also`: what else to protect in each directory below the top, found in the same listing
    (nested agent instructions), so the workspace is walked once per look."""
    found: list[Path] = []
    top = str(workspace)
    pending, seen = deque([(top, 0)]), 0
    while pending and seen < MAX_DIRECTORIES:
        directory, depth = pending.popleft()
        seen += 1
        if depth == DEPTH and also is None:  # only whether it is a repository: one lstat, not a listing
            if os.path.lexists(directory + "/.git"):
                found += _repository_state(Path(directory, ".git"))
            continue
        try:
            entries = list(os.scandir(directory))
        except OSError:
            continue
        if also is not None and directory != top:
            found += also(Path(directory), entries)
        for entry in entries:
            if entry.name.lower() == ".git" and directory != top:
                found += _repository_state(Path(entry.path))
            elif depth < DEPTH and entry.name not in SKIPPED and entry.is_dir(follow_symlinks=False):
                pending.append((entry.path, depth + 1))
    return found


def _repository_state(git: Path) -> list[Path]:
    if git.is_symlink() or not git.is_dir():
        return [git]  # `gitdir: somewhere`: what it names decides which hooks and config run
    try:
        names = {name.lower(): name for name in os.listdir(git)}
    except OSError:
        return []
    found = [git / names[name] for name in GIT_DIRECTORY_STATE if name in names]
    if "modules" in names:
        found += submodule_hooks_and_config(git / names["modules"])
    if "worktrees" in names:
        found += worktree_state(git / names["worktrees"])
    return found


def worktree_state(worktrees: Path) -> list[Path]:
    """Each linked worktree's `commondir` and `config.worktree` under `.git/worktrees`: git reads
    them when the user works in that worktree (the first names where config and hooks come from)."""
    found: list[Path] = []
    try:
        entries = [entry for entry in os.scandir(worktrees) if entry.is_dir(follow_symlinks=False)]
    except OSError:
        return found
    for entry in entries[:_MODULES_MAX_DIRECTORIES]:
        found += [
            Path(entry.path, name)
            for name in ("commondir", "config.worktree")
            if os.path.lexists(Path(entry.path, name))
        ]
    return found


def harmless_new_nested(path: Path, workspace: Path) -> bool:
    """What a plain `git clone` into a subdirectory or `git submodule update --init` leaves: sample
    hooks, a config naming no program, a `.git` file pointing into the workspace's own `.git`."""
    if path.name.lower() != ".git":
        return harmless_new_git(path)
    if path.is_symlink() or not path.is_file():
        return False
    try:
        text = path.read_text(errors="replace").strip()
    except OSError:
        return False
    if not text.startswith("gitdir:") or "\n" in text:
        return False
    target = os.path.realpath(os.path.join(path.parent, text.removeprefix("gitdir:").strip()))
    own = os.path.realpath(workspace / ".git")
    return target.startswith(own + os.sep)
