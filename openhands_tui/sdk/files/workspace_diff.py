"""The workspace's changes as one git patch, for critics that judge what an agent did.

`git diff` on a repository that arrived with the workspace is not harmless: its `.git/config`
can name clean/smudge filters and textconv programs that `.gitattributes` applies to the files
being compared, and git would run them, unconfined, as `tui`. So every filter driver the
repository's config names is replaced for the call by `cat` (content passes through
unchanged), textconv and external diffs are off, and the hardened settings of `own_git.py`
apply. Untracked files (not ignored) are added to the patch as new files by Python, without git
reading them through any driver. Nothing touches the user's index or history.
"""

from __future__ import annotations

import os
import re
import stat
from dataclasses import dataclass
from pathlib import Path

from openhands_tui.sdk.files.own_git import run_git

#: The most of the patch a critic is given; the rest is summarised in one line.
MAX_PATCH_CHARS = 200_000
#: Untracked files listed in the patch (their content up to MAX_NEW_FILE_BYTES each).
MAX_NEW_FILES = 200
MAX_NEW_FILE_BYTES = 64_000

_DRIVER = re.compile(r"^filter\.(.+)\.(?:clean|smudge|process|required)$")


@dataclass(frozen=True)
class WorkspacePatch:
    """The patch (empty: nothing changed), or why there is none (`problem`)."""

    text: str = ""
    problem: str = ""

    @property
    def available(self) -> bool:
        return not self.problem


def workspace_patch(workspace: Path) -> WorkspacePatch:
    """Tracked changes against HEAD (or against nothing, before the first commit) plus new
    untracked files, capped at MAX_PATCH_CHARS."""
    top = run_git(workspace, ["rev-parse", "--show-toplevel"])
    if top is None:
        return WorkspacePatch(problem="git is not available")
    if top.returncode != 0 or not top.stdout.strip():
        return WorkspacePatch(problem=f"{workspace} is not a git repository, so there is no diff to judge")
    worktree = run_git(workspace, ["config", "--get", "core.worktree"])
    if worktree is not None and worktree.returncode == 0:  # its files would be wherever that names
        return WorkspacePatch(problem="the repository's config sets core.worktree, so its diff is not read")
    here, toplevel = os.path.realpath(workspace), os.path.realpath(top.stdout.decode("utf-8", "replace").strip())
    if here != toplevel and not here.startswith(toplevel + os.sep):
        return WorkspacePatch(problem=f"the repository's work tree ({toplevel}) is not this workspace")
    head = run_git(workspace, ["rev-parse", "--verify", "-q", "HEAD"])
    base = "HEAD" if head is not None and head.returncode == 0 else _empty_tree(workspace)
    tracked = run_git(  # `--relative` and `.`: a workspace inside a bigger repository sees only itself
        workspace,
        ["diff", "--no-textconv", "--no-ext-diff", "--no-color", "--relative", base, "--", "."],
        timeout=30,
        settings=_neutral_filters(workspace),
    )
    if tracked is None or tracked.returncode != 0:
        why = tracked.stderr.decode("utf-8", "replace").strip() if tracked is not None else "git did not answer"
        return WorkspacePatch(problem=f"git diff failed: {why[:200]}")
    text = tracked.stdout.decode("utf-8", "replace") + _untracked(workspace)
    if len(text) > MAX_PATCH_CHARS:
        text = text[:MAX_PATCH_CHARS] + f"\n[… patch cut at {MAX_PATCH_CHARS:,} of {len(text):,} characters]\n"
    return WorkspacePatch(text=text)


def _neutral_filters(workspace: Path) -> dict[str, str]:
    """Settings that make every filter driver the repository names pass content through (by
    name, whatever characters it holds: they travel in the environment, not as `-c`)."""
    listed = run_git(workspace, ["config", "--null", "--get-regexp", r"^filter\."])
    if listed is None or listed.returncode != 0:
        return {}
    drivers: set[str] = set()
    for entry in listed.stdout.decode("utf-8", "replace").split("\0"):
        match = _DRIVER.match(entry.split("\n", 1)[0])
        if match:
            drivers.add(match.group(1))
    settings: dict[str, str] = {}
    for name in sorted(drivers):
        for key, value in (("clean", "cat"), ("smudge", "cat"), ("process", ""), ("required", "false")):
            settings[f"filter.{name}.{key}"] = value
    return settings


def _empty_tree(workspace: Path) -> str:
    made = run_git(workspace, ["hash-object", "-t", "tree", "/dev/null"])
    if made is not None and made.returncode == 0:
        return made.stdout.decode().strip()
    return "4b825dc642cb6eb9a060e54bf8d69288fbee4904"


def _untracked(workspace: Path) -> str:
    listed = run_git(workspace, ["ls-files", "--others", "--exclude-standard", "-z", "--", "."], timeout=30)
    if listed is None or listed.returncode != 0:
        return ""
    names = [n for n in listed.stdout.decode("utf-8", "replace").split("\0") if n]
    parts = [_new_file(workspace, name) for name in names[:MAX_NEW_FILES]]
    if len(names) > MAX_NEW_FILES:
        parts.append(f"[… and {len(names) - MAX_NEW_FILES} more new files]\n")
    return "".join(parts)


def _new_file(workspace: Path, name: str) -> str:
    header = f"diff --git a/{name} b/{name}\nnew file\n"
    try:  # never through a symlink: a link to ~/.ssh/id_rsa is a new file, not its content
        fd = os.open(workspace / name, os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK)
    except OSError:
        return header + "(not readable as a file)\n"
    try:
        if not stat.S_ISREG(os.fstat(fd).st_mode):
            return header + "(not a regular file)\n"
        data = os.read(fd, MAX_NEW_FILE_BYTES + 1)
    except OSError:
        return header + "(not readable)\n"
    finally:
        os.close(fd)
    if b"\0" in data:
        return header + f"Binary file {name} added\n"
    cut = len(data) > MAX_NEW_FILE_BYTES
    lines = data[:MAX_NEW_FILE_BYTES].decode("utf-8", "replace").splitlines()
    body = "".join(f"+{line}\n" for line in lines)
    more = f"[… cut at {MAX_NEW_FILE_BYTES:,} bytes]\n" if cut else ""
    return f"{header}--- /dev/null\n+++ b/{name}\n@@ -0,0 +1,{len(lines)} @@\n{body}{more}"
