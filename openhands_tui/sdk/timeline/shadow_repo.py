"""Checkpoints of a workspace's files in a shadow git repository of our own.

Before each user turn the workspace is snapshotted — whatever changed it, the file editor or a
command — into a bare repository in the state folder (one per workspace, so sessions and their
forks share objects), through an index file of the session's own. The user's `.git`, index and
history are never read or written: git is pointed at our repository with `GIT_DIR`, at the
workspace with `GIT_WORK_TREE`, and it skips every folder named `.git`. The workspace's
`.gitignore` files are honoured, as Gemini CLI and Codex do.

git runs here unconfined, on files the agent wrote, so nothing the workspace holds may make it
run a program or change bytes: the user's and the system's git config are not read (filters and
fsmonitor live there), our repository's `info/attributes` unsets text conversion, filters and
working-tree encodings for every path (a `.gitattributes` asking for CRLF would otherwise make a
restored file differ from the original), and no hook can run (`read-tree` runs none; the hooks
path is `/dev/null` anyway). A snapshot is incremental: files whose size and time did not change
are not read again.

Limits, each said in the checkpoint: a file over MAX_FILE_BYTES is not kept (nor, then, touched
by a restore); new content over MAX_NEW_BYTES in one snapshot stops adding files; more than
MAX_CHANGED changed files in one snapshot is no checkpoint at all.
"""

from __future__ import annotations

import contextlib
import hashlib
import os
import shutil
import stat
import subprocess
import time
from dataclasses import dataclass, field
from pathlib import Path

MAX_FILE_BYTES = 10 * 1024 * 1024
MAX_NEW_BYTES = 512 * 1024 * 1024
MAX_CHANGED = 100_000
#: The workspace's latest index, in its shadow repository: where a new session's index starts.
SHARED_INDEX = "latest-index"
#: git may take this long for one step (hashing a large first snapshot).
TIMEOUT = 120.0

#: For every path: bytes go in and come out exactly as they are on disk.
_ATTRIBUTES = "* -text -eol -filter -ident -working-tree-encoding -diff -merge\n"
_SETTINGS = (
    "core.fsmonitor=false",
    "core.hooksPath=/dev/null",
    "core.autocrlf=false",
    "core.safecrlf=false",
    "core.symlinks=true",
    "core.quotePath=false",
    "core.untrackedCache=true",
    "gc.auto=0",
    "maintenance.auto=false",
)


class CheckpointError(Exception):
    """git could not take or restore a checkpoint; the message says why in one line."""


@dataclass(frozen=True)
class Snapshot:
    tree: str = ""
    files: int = 0
    skipped: list[str] = field(default_factory=list)
    problem: str = ""
    seconds: float = 0.0


@dataclass(frozen=True)
class Restored:
    #: The snapshot taken just before restoring: restoring it undoes the restore.
    before: Snapshot
    #: "M path" (put back as it was), "A path" (brought back), "D path" (removed: made since).
    changed: list[str]
    problem: str = ""


def shadow_repository(state_root: Path, workspace: Path) -> Path:
    """Where a workspace's checkpoints are kept: one repository per workspace folder."""
    key = hashlib.sha256(str(workspace.resolve()).encode()).hexdigest()[:20]
    return state_root / "checkpoints" / key


class ShadowRepo:
    """A workspace's checkpoints, taken and restored through `index` (one per session)."""

    def __init__(self, repository: Path, workspace: Path, index: Path, *, share_index: bool = True) -> None:
        self.repository = repository
        self.workspace = workspace.resolve()
        self.index = index
        #: Whether its index becomes the head start of the workspace's next session (not for a
        #: child's working copy: its files are another folder's).
        self.share_index = share_index

    # -- taking

    def snapshot(self) -> Snapshot:
        """The workspace's files now, as a tree; a Snapshot with `problem` if none was taken."""
        started = time.monotonic()
        try:
            self._ensure()
            self._seed_index()
            skipped = self._stage()
            tree = self._git("write-tree").decode().strip()
            files = self._git("ls-files", "-z").count(b"\0")
        except CheckpointError as exc:
            return Snapshot(problem=str(exc), seconds=time.monotonic() - started)
        self._share_index()
        return Snapshot(tree=tree, files=files, skipped=skipped, seconds=time.monotonic() - started)

    def _seed_index(self) -> None:
        """A session's first snapshot starts from the index the workspace's last snapshot left
        (another session's, or this one's origin's): only files changed since are read again,
        not all of them (10,000 files: 35 ms instead of seconds)."""
        if not self.index.exists():
            # copy2 keeps the index's time: git re-reads a file whose time is not older than the
            # index it is in (racy git), and a fresher copy would hide such a file's change
            with contextlib.suppress(OSError):
                shutil.copy2(self.repository / SHARED_INDEX, self.index)

    def _share_index(self) -> None:
        if not self.share_index:
            return
        shared = self.repository / SHARED_INDEX
        spare = shared.with_name(f"{SHARED_INDEX}.{os.getpid()}")
        with contextlib.suppress(OSError):  # only a head start for the next session: never an error
            shutil.copy2(self.index, spare)
            os.replace(spare, shared)

    def _stage(self) -> list[str]:
        """Bring the index up to the workspace; returns what was left out, and why."""
        listed = self._git("ls-files", "-z", "--others", "--modified", "--deleted", "--exclude-standard")
        paths = sorted({p for p in listed.split(b"\0") if p})
        if len(paths) > MAX_CHANGED:
            raise CheckpointError(f"{len(paths):,} files changed since the last checkpoint (more than {MAX_CHANGED:,})")
        update: list[bytes] = []
        drop: list[bytes] = []  # gone, or too big now: not kept, so a restore leaves it alone
        skipped: list[str] = []
        new_bytes = 0
        folders = _Folders(self.workspace)
        for path in paths:
            if not folders.real(os.fsdecode(path)):  # under a symlink or a file now: gone from here
                drop.append(path)
                continue
            try:
                info = os.lstat(self.workspace / os.fsdecode(path))
            except FileNotFoundError:
                drop.append(path)
                continue
            except OSError as exc:
                skipped.append(f"{os.fsdecode(path)} ({exc.strerror})")
                continue
            if stat.S_ISDIR(info.st_mode):  # a folder with its own .git: a repository of its own
                skipped.append(f"{os.fsdecode(path)} (a nested git repository)")
                continue
            if not (stat.S_ISREG(info.st_mode) or stat.S_ISLNK(info.st_mode)):
                continue  # sockets, fifos: nothing to keep
            if info.st_size > MAX_FILE_BYTES:
                skipped.append(f"{os.fsdecode(path)} ({_size(info.st_size)}, over {_size(MAX_FILE_BYTES)})")
                drop.append(path)
                continue
            if new_bytes + info.st_size > MAX_NEW_BYTES:
                skipped.append(f"{os.fsdecode(path)} (over {_size(MAX_NEW_BYTES)} of changes in one checkpoint)")
                drop.append(path)
                continue
            new_bytes += info.st_size
            update.append(path)
        if drop:  # first: a folder's files go before a symlink of the folder's name comes
            self._git("update-index", "-z", "--force-remove", "--stdin", stdin=b"\0".join(drop) + b"\0")
        if update:
            self._git("update-index", "-z", "--add", "--replace", "--stdin", stdin=b"\0".join(update) + b"\0")
        return skipped

    # -- restoring

    def restore(self, tree: str) -> Restored:
        """Put the workspace's kept files back as `tree` has them: changed ones rewritten, ones
        made since removed, removed ones brought back. Files never kept (ignored, too big) are
        left alone. Snapshots first, so the restore can itself be undone."""
        before = self.snapshot()
        if before.problem:
            raise CheckpointError(f"no checkpoint of the files as they are now ({before.problem}), so no restore")
        changes = self._git("diff-tree", "-r", "-z", "--no-renames", "--name-status", before.tree, tree)
        fields = [f for f in changes.split(b"\0") if f]
        changed = [f"{fields[i].decode()} {os.fsdecode(fields[i + 1])}" for i in range(0, len(fields) - 1, 2)]
        problem = ""
        try:
            self._git("read-tree", "--reset", "-u", tree)
        except CheckpointError as exc:
            problem = str(exc)
        return Restored(before=before, changed=changed, problem=problem)

    # -- reading trees (a child's working copy compares two of them: sdk/timeline/child_copy.py)

    def changes(self, before: str, after: str) -> list[tuple[str, str]]:
        """(status A/M/D/T, path) of each file that differs between two trees."""
        listed = self._git("diff-tree", "-r", "-z", "--no-renames", "--name-status", before, after)
        fields = [f for f in listed.split(b"\0") if f]
        return [(fields[i].decode()[:1], os.fsdecode(fields[i + 1])) for i in range(0, len(fields) - 1, 2)]

    def entry(self, tree: str, path: str) -> tuple[str, bytes] | None:
        """(git mode, content) of `path` in `tree`; None when the tree has no such file."""
        listed = self._git("ls-tree", "-z", tree, "--", path)
        if not listed:
            return None
        mode, _kind, rest = listed.split(b" ", 2)
        blob = rest.split(b"\t", 1)[0].decode()
        return mode.decode(), self._git("cat-file", "blob", blob)

    def patch(self, before: str, after: str, paths: list[str] | None = None) -> bytes:
        """What changed between two trees as a git patch, every file as text (our attributes mark
        every path binary, for exact bytes; a person reads this one), of `paths` only when given."""
        return self._git("diff", "--text", "--no-renames", before, after, "--", *(paths or []))

    def merge_text(self, ours: bytes, base: bytes, theirs: bytes, scratch: Path) -> tuple[bytes, bool]:
        """A three-way merge of one file's texts: (merged bytes, clean). Unclean bytes hold
        conflict markers; `scratch` is a private folder for the three inputs."""
        paths = []
        for name, data in (("ours", ours), ("base", base), ("theirs", theirs)):
            path = scratch / name
            path.write_bytes(data)
            paths.append(str(path))
        command = ["git", "merge-file", "-p", "-L", "yours", "-L", "base", "-L", "child", *paths]
        done = subprocess.run(command, capture_output=True, env=_environment(), timeout=TIMEOUT, check=False)
        if done.returncode < 0 or done.returncode > 127:
            raise CheckpointError(f"git merge-file failed: {done.stderr.decode('utf-8', 'replace').strip()[:200]}")
        return done.stdout, done.returncode == 0

    # -- git

    def _ensure(self) -> None:
        if (self.repository / "HEAD").is_file():
            return
        try:
            self.repository.mkdir(parents=True, exist_ok=True, mode=0o700)
            os.chmod(self.repository, 0o700)  # copies of the user's files: theirs alone
        except OSError as exc:
            raise CheckpointError(f"cannot keep checkpoints in {self.repository} ({exc.strerror or exc})") from None
        _run(["git", "init", "-q", "--bare", str(self.repository)], _environment())
        info = self.repository / "info"
        info.mkdir(exist_ok=True)
        (info / "attributes").write_text(_ATTRIBUTES)

    def _git(self, *args: str, stdin: bytes | None = None) -> bytes:
        environment = _environment()
        environment.update(
            GIT_DIR=str(self.repository), GIT_WORK_TREE=str(self.workspace), GIT_INDEX_FILE=str(self.index)
        )
        command = ["git"]
        for setting in _SETTINGS:
            command += ["-c", setting]
        return _run([*command, *args], environment, stdin, cwd=self.workspace)


class _Folders:
    """Whether a path's folders are all real folders of the workspace (not a symlink to
    elsewhere, nor a file now), each folder looked at once per snapshot."""

    def __init__(self, workspace: Path) -> None:
        self.workspace = workspace
        self._seen: dict[str, bool] = {"": True}

    def real(self, path: str) -> bool:
        folder = os.path.dirname(path)
        known = self._seen.get(folder)
        if known is None:
            try:
                is_folder = stat.S_ISDIR(os.lstat(self.workspace / folder).st_mode)
            except OSError:
                is_folder = False
            known = self._seen[folder] = is_folder and self.real(folder)
        return known


def _environment() -> dict[str, str]:
    """The process's environment without any GIT_ variable (a hook's GIT_DIR would point
    elsewhere), reading no config but our repository's own."""
    environment = {key: value for key, value in os.environ.items() if not key.startswith("GIT_")}
    environment.update(
        GIT_CONFIG_NOSYSTEM="1",
        GIT_CONFIG_GLOBAL=os.devnull,
        GIT_TERMINAL_PROMPT="0",
        GIT_AUTHOR_NAME="tui",
        GIT_AUTHOR_EMAIL="tui@localhost",
        GIT_COMMITTER_NAME="tui",
        GIT_COMMITTER_EMAIL="tui@localhost",
    )
    return environment


def _run(command: list[str], environment: dict[str, str], stdin: bytes | None = None, cwd: Path | None = None) -> bytes:
    try:
        done = subprocess.run(
            command, input=stdin, capture_output=True, env=environment, timeout=TIMEOUT, check=False, cwd=cwd
        )
    except FileNotFoundError:
        raise CheckpointError("git is not installed, so no checkpoints are kept") from None
    except subprocess.TimeoutExpired:
        raise CheckpointError(f"git took over {TIMEOUT:.0f} s ({command[-1]})") from None
    except OSError as exc:
        raise CheckpointError(f"cannot run git ({exc.strerror or exc})") from None
    if done.returncode != 0:
        said = done.stderr.decode("utf-8", "replace").strip().splitlines()
        step = next((a for a in command[1:] if not a.startswith("-") and "=" not in a), "git")
        raise CheckpointError(f"git {step} failed: {said[-1] if said else f'exit {done.returncode}'}"[:300])
    return done.stdout


def _size(count: int) -> str:
    return f"{count / (1024 * 1024):.0f} MB" if count >= 1024 * 1024 else f"{count / 1024:.0f} KB"
