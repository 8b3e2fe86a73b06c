"""A child agent's own working copy of the workspace (a "worktree"), and bringing its changes back.

Children delegated side by side edit one tree unless something keeps them apart. A child whose
agent asks for it (`Agent(isolation="worktree")`, an agent file's `isolation: worktree`) works in
a copy of the workspace's files as they are when it starts — uncommitted changes included,
ignored files (`node_modules/`, `.venv/`) and `.git` not — made from a snapshot in the
workspace's shadow repository (`shadow_repo.py`). The user's `.git` is never written: the copy is
not `git worktree add`, and a crash leaves nothing in the repository. The copy lives in the
state folder (`worktrees/<session>-<child>/`); the child's tools and its jail are given the
copy as their workspace, so the jail lets it write there and nowhere else.

When the child ends, the copy is snapshotted and compared with the snapshot it started from;
each changed file is brought into the workspace by a three-way merge against what the
workspace holds now (another child may have changed it meanwhile):
- the workspace's file is still as the child started from it: the child's version is taken;
- it already equals the child's: nothing to do;
- both changed it: the texts are merged (`git merge-file`); where the merge is clean it is
  taken, otherwise — and for binary files, symlinks and files under a folder that is now a
  symlink or a file — the workspace's version is kept and the file is reported as a conflict.
Nothing is lost: every change of the child is kept as a patch in the session's folder
(`children/<child>.patch`), named in what the parent agent is told, and its trees stay in the
shadow repository. The copy is removed when the child ends; a copy left by a crash is removed at
the next start (`sweep`), its owner's process being gone.
"""

from __future__ import annotations

import contextlib
import os
import shutil
import stat
import tempfile
import threading
from dataclasses import dataclass, field
from pathlib import Path

from openhands_tui.sdk.timeline.shadow_repo import CheckpointError, ShadowRepo, Snapshot

#: The file naming the process that owns a copy (a copy whose owner is gone is swept).
OWNER = "owner.pid"
#: How much of the child's diff the parent is shown (the whole is in the patch file).
SHOWN_DIFF_CHARS = 6_000
#: Copies made and merged one at a time in this process: two children ending together would
#: write one file at once, and two starting together would both create the shadow repository.
_ONE_AT_A_TIME = threading.Lock()


@dataclass
class MergeReport:
    """What came back from a child's copy."""

    merged: list[str] = field(default_factory=list)
    conflicts: list[str] = field(default_factory=list)
    #: The child's whole change, kept in the session's folder ("" when it changed nothing).
    patch: str = ""
    #: The start of that patch, for the parent to read.
    diff: str = ""
    problem: str = ""


class ChildCopy:
    """One child's working copy: made from the workspace, merged back, removed."""

    def __init__(self, repo: ShadowRepo, root: Path, base: Snapshot, patches: Path) -> None:
        self.repo = repo  # the copy's view of the shadow repository (its workspace is the copy)
        self.root = root
        self.base = base
        self.patches = patches

    @property
    def folder(self) -> Path:
        return self.repo.workspace

    @classmethod
    def make(cls, workspace_repo: ShadowRepo, copies: Path, name: str, patches: Path) -> ChildCopy:
        """Snapshot the workspace and write that snapshot out as a new copy. CheckpointError
        (one line) when it cannot be made: the child then works in the workspace itself."""
        with _ONE_AT_A_TIME:
            return cls._make(workspace_repo, copies, name, patches)

    @classmethod
    def _make(cls, workspace_repo: ShadowRepo, copies: Path, name: str, patches: Path) -> ChildCopy:
        root = copies / name
        try:
            root.mkdir(parents=True, mode=0o700)
            (root / OWNER).write_text(str(os.getpid()))
            (root / "files").mkdir()
        except OSError as exc:
            raise CheckpointError(f"cannot make a working copy in {root} ({exc.strerror or exc})") from None
        try:
            parent = ShadowRepo(
                workspace_repo.repository, workspace_repo.workspace, root / "base.index", share_index=False
            )
            base = parent.snapshot()
            if base.problem:
                raise CheckpointError(base.problem)
            repo = ShadowRepo(workspace_repo.repository, root / "files", root / "copy.index", share_index=False)
            restored = repo.restore(base.tree)
            if restored.problem:
                raise CheckpointError(restored.problem)
        except BaseException:
            shutil.rmtree(root, ignore_errors=True)
            raise
        return cls(repo, root, base, patches)

    def merge_back(self, workspace: Path, name: str) -> MergeReport:
        """Bring the child's changes into `workspace`; what merged, what conflicted, where the
        whole change is kept. One merge at a time in this process: siblings end together."""
        with _ONE_AT_A_TIME:
            return self._collect(name, merge_into=workspace)

    def keep_only(self, name: str) -> MergeReport:
        """An interrupted child's changes, kept as its patch and not merged (every changed file
        is listed as a conflict: nothing of it is in the workspace)."""
        return self._collect(name, merge_into=None)

    def _collect(self, name: str, merge_into: Path | None) -> MergeReport:
        after = self.repo.snapshot()
        if after.problem:
            return MergeReport(problem=f"its changes could not be read ({after.problem}); they are in {self.folder}")
        changes = self.repo.changes(self.base.tree, after.tree)
        if not changes:
            return MergeReport()
        report = MergeReport()
        report.patch, report.diff = self._keep(self.repo.patch(self.base.tree, after.tree), name)
        if merge_into is None:
            report.conflicts = [path for _status, path in changes]
            return report
        with tempfile.TemporaryDirectory(dir=self.root) as scratch:
            for _status, path in changes:
                taken = self._bring(merge_into, path, after.tree, Path(scratch))
                (report.merged if taken else report.conflicts).append(path)
        return report

    def _keep(self, patch: bytes, name: str) -> tuple[str, str]:
        target = self.patches / f"{name}.patch"
        try:
            self.patches.mkdir(parents=True, exist_ok=True)
            target.write_bytes(patch)
        except OSError:  # the session folder cannot be written: the copy's trees are still kept
            target = self.root.parent / f"{name}.patch"
            target.write_bytes(patch)
        text = patch.decode("utf-8", "replace")
        shown = text if len(text) <= SHOWN_DIFF_CHARS else text[:SHOWN_DIFF_CHARS] + "\n[... the rest is in the patch]"
        return str(target), shown

    def _bring(self, workspace: Path, path: str, after: str, scratch: Path) -> bool:
        """Merge one file into the workspace; False when it is a conflict (the workspace's kept)."""
        base = self.repo.entry(self.base.tree, path)
        theirs = self.repo.entry(after, path)
        if not _real_folders(workspace, path):
            return False  # a folder of it is a symlink or a file now: nothing is written through it
        ours = _current(workspace / path)
        if ours == theirs:
            return True
        if ours == base:
            return _put(workspace, path, theirs)
        if base is None or ours is None or theirs is None:
            return False  # made on both sides differently, or removed on one and changed on the other
        if base[0] == "120000" or ours[0] == "120000" or theirs[0] == "120000":
            return False
        if any(b"\0" in content for _mode, content in (base, ours, theirs)):
            return False  # binary: no line merge
        merged, clean = self.repo.merge_text(ours[1], base[1], theirs[1], scratch)
        return clean and _put(workspace, path, (theirs[0], merged))

    def remove(self) -> None:
        shutil.rmtree(self.root, ignore_errors=True)


def _current(path: Path) -> tuple[str, bytes] | None:
    """(git mode, content) of a workspace file now; None when there is none (or a folder)."""
    try:
        info = os.lstat(path)
    except OSError:
        return None
    if stat.S_ISLNK(info.st_mode):
        return "120000", os.fsencode(os.readlink(path))
    if not stat.S_ISREG(info.st_mode):
        return None
    mode = "100755" if info.st_mode & 0o111 else "100644"
    return mode, path.read_bytes()


def _real_folders(workspace: Path, path: str) -> bool:
    """Every folder above `path` is a real folder of the workspace (or not there yet)."""
    folder = workspace
    for part in Path(path).parts[:-1]:
        folder = folder / part
        try:
            if not stat.S_ISDIR(os.lstat(folder).st_mode):
                return False
        except FileNotFoundError:
            return True
        except OSError:
            return False
    return True


def _put(workspace: Path, path: str, entry: tuple[str, bytes] | None) -> bool:
    """Make the workspace's `path` hold `entry` (None: remove it), never through a symlink."""
    target = workspace / path
    try:
        if entry is None:
            with contextlib.suppress(FileNotFoundError):
                os.unlink(target)
            return True
        mode, content = entry
        target.parent.mkdir(parents=True, exist_ok=True)
        if not _real_folders(workspace, path):
            return False
        if mode == "120000":
            with contextlib.suppress(FileNotFoundError):
                os.unlink(target)
            os.symlink(os.fsdecode(content), target)
            return True
        spare = target.with_name(f".{target.name}.{os.getpid()}.merge")
        flags = os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW
        handle = os.open(spare, flags, 0o755 if mode == "100755" else 0o644)
        try:
            with os.fdopen(handle, "wb") as out:
                out.write(content)
            os.replace(spare, target)
        except BaseException:
            with contextlib.suppress(OSError):
                os.unlink(spare)
            raise
    except OSError:
        return False
    return True


def sweep(copies: Path) -> list[str]:
    """Remove the copies a crashed `tui` left (their owner's process is gone); their names."""
    removed: list[str] = []
    try:
        entries = list(copies.iterdir())
    except OSError:
        return removed
    for root in entries:
        if not root.is_dir() or root.is_symlink():
            continue
        try:
            owner = int((root / OWNER).read_text().strip() or "0")
        except (OSError, ValueError):
            owner = 0
        if owner and _alive(owner):
            continue
        shutil.rmtree(root, ignore_errors=True)
        removed.append(root.name)
    return removed


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True
