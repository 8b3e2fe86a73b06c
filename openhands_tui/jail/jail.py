"""Bubblewrap under everything that runs code for the agent: the jail's command line, built
from the session's SandboxPolicy, and what a failed command was stopped from doing.

The jail: `/` read-only with what belongs to people emptied and only toolchains bound back
(`view.py`: deny by default), the workspace writable (unless read-only mode), a private `/tmp`
(what the view shows from under the host's `/tmp` bound back over it) and HOME of bounded
size, user-listed paths writable, the protected paths inside the workspace bound read-only
(`protected.py`), its own PID, IPC and (unless allowed) network namespaces,
limits on processes and file size, and `--die-with-parent`, so nothing a command started
outlives the session.

What a command was stopped from doing is judged from its output only as far as the jail
confirms it (`evidence.py`): a forged "Read-only file system" line earns no offer.
"""

from __future__ import annotations

import os
import shutil
from collections.abc import Callable
from pathlib import Path

from openhands_tui.jail.denial import DenialJudge
from openhands_tui.jail.protected import ProtectedPaths, remove_made
from openhands_tui.jail.view import View, build_view
from openhands_tui.sdk.sandbox import HIDDEN_IN_HOME, EditorWrites, SandboxDenial, SandboxGrant, SandboxPolicy
from openhands_tui.sdk.security.protected_paths import PROTECTED
from openhands_tui.sdk.security.trusted import TrustedFiles

#: Under /run, what commands still see: the resolver's files (`/etc/resolv.conf` may point here).
_RUN_KEPT = ("/run/systemd/resolve", "/run/resolvconf", "/run/NetworkManager/resolv.conf")
#: Size of the tmpfs that empties an ancestor of the workspace (nothing is meant to go there).
_ANCESTOR_TMPFS = 16 * 1024 * 1024
#: With the workspace at HOME or above it (`--workspace-is-home`): what still stays read-only.
HOME_STARTUP = [
    ".bashrc",
    ".bash_profile",
    ".bash_login",
    ".bash_logout",
    ".profile",
    ".zshrc",
    ".zprofile",
    ".zshenv",
    ".zlogin",
    ".zlogout",
    ".cshrc",
    ".tcshrc",
    ".kshrc",
    ".inputrc",
    ".config/fish",
    ".config/autostart",
    ".config/systemd",
    ".config/environment.d",
    ".local/bin",
    ".local/share/applications",
    ".gitconfig",
    ".config/git",
    ".xprofile",
    ".xsession",
    ".xinitrc",
    ".pam_environment",
    ".config/openhands-tui",
    ".local/state/openhands-tui",
    ".config/plasma-workspace",
    ".vimrc",
    ".config/nvim",
    ".emacs",
    ".emacs.d",
]


class Jail:
    """Builds the bwrap command line for one workspace and policy. `trusted` and
    `editor_writes`: the session's records of the files it trusts outside the sandbox (bound
    read-only) and of what its file editor wrote (spared by the undo); None: none."""

    def __init__(
        self,
        policy: SandboxPolicy,
        workspace: Path,
        bwrap: str,
        home: str | None = None,
        environ: dict[str, str] | None = None,
        trusted: TrustedFiles | None = None,
        editor_writes: EditorWrites | None = None,
    ) -> None:
        self.policy = policy
        self.workspace = workspace
        self.bwrap = bwrap
        self.home = Path(home or os.path.expanduser("~"))
        self.environ = dict(os.environ if environ is None else environ)
        self.protected = ProtectedPaths(workspace, trusted, editor_writes)
        #: The view the last command line was built with (what is hidden, what bound back).
        self.view = View([], [], [], [])
        self._view_key: tuple[tuple[str, ...], Path | None] | None = None
        #: With the workspace at HOME: the start-up files that did not exist when the jail was built.
        self.startup_missing: list[Path] = []
        #: Whether its agent is read-only now (plan mode), asked for each command line: the
        #: workspace is then bound read-only whatever the policy says.
        self.held_read_only: Callable[[], bool] = lambda: False
        #: The mode the last command line was built with (None: none built yet).
        self.built_mode: str | None = None

    @property
    def mode(self) -> str:
        """The sandbox mode commands get now: the policy's, or read-only while the agent is held so."""
        return "read-only" if self.policy.mode == "workspace-write" and self.held_read_only() else self.policy.mode

    def mode_changed(self) -> bool:
        """Whether the running shell was built for another mode (plan mode was switched since):
        it is restarted, and whatever it left running ends with it."""
        return self.built_mode is not None and self.built_mode != self.mode

    def argv(
        self,
        cwd: str,
        readable: list[Path],
        grant: SandboxGrant | None = None,
        scratch: Path | None = None,
        extra: list[str] | None = None,
    ) -> list[str]:
        """`bwrap ... -- prlimit ... --` for a process in `cwd`; `readable` are host paths it must
        read (our scratch directory under the host's /tmp); `scratch`: where copies the jail shows
        (git's config without credentials) may be written; `extra`: bwrap arguments laid over
        everything else (an MCP server's own view of the workspace)."""
        grant = grant or SandboxGrant()
        mode = self.built_mode = self.mode
        tmp_size = str(self.policy.tmp_size_mb * 1024 * 1024)
        args = [self.bwrap, "--ro-bind", "/", "/", "--dev", "/dev", "--proc", "/proc"]
        # first: what the view, the workspace and `readable` bind beneath /tmp (a checkout there,
        # its venv, our scratch) must come after it, or this empty tmpfs would cover them
        args += ["--size", tmp_size, "--tmpfs", "/tmp"]
        # /run holds the host's sockets (the session bus, whose `systemd-run --user` runs anything
        # outside the jail; docker, podman, databases, gpg and ssh agents): a read-only mount does
        # not stop a connect(). Only what name resolution reads is kept.
        args += ["--size", tmp_size, "--tmpfs", "/run"]
        # /dev from --dev is a tmpfs as big as half the host's memory: its shm sized, the rest read-only
        args += ["--size", tmp_size, "--tmpfs", "/dev/shm", "--remount-ro", "/dev"]
        # a fresh /proc is writable where the host's was not: as root, /proc/sys/kernel/core_pattern
        # (`|/workspace/x` runs x as root on the host at the next crash) must stay read-only
        for kernel in ("/proc/sys", "/proc/sysrq-trigger", "/proc/irq", "/proc/bus"):
            if os.path.exists(kernel):
                args += ["--ro-bind", kernel, kernel]
        for kept in _RUN_KEPT:
            if os.path.exists(kept):
                args += ["--ro-bind", kept, kept]
        args += self._view_args(scratch, grant)
        workspace = str(self.workspace)
        args += ["--bind" if mode == "workspace-write" else "--ro-bind", workspace, workspace]
        git = self.workspace / ".git"
        if mode == "workspace-write" and git.is_dir() and not git.is_symlink():
            # a mount point cannot be renamed or removed: `.git` cannot be swapped for one whose
            # hooks and config the agent wrote (its hooks and config are bound read-only below)
            args += ["--bind", str(git), str(git)]
        args += self._home_inside_workspace()
        held = mode != self.policy.mode  # plan mode: the paths the user listed as writable are not, either
        for listed in [*([] if held else self.policy.writable), *grant.write]:
            target = Path(os.path.expanduser(listed))
            if target.exists():
                args += ["--bind", str(target), str(target)]
        protected = self.protected.bind()
        if mode == "workspace-write":
            # each folder between the workspace and a protected path is a mount point of its own:
            # renaming `.github` would carry `.github/workflows`' read-only bind away with it
            for folder in _folders_between(self.workspace, protected):
                args += ["--bind", str(folder), str(folder)]
        for path in protected:  # after the workspace: these win over its binding
            args += ["--ro-bind", str(path), str(path)]
        for path in readable:
            args += ["--ro-bind", str(path), str(path)]
        args += extra or []
        # run as root, the jail would keep CAP_SYS_ADMIN: `mount -o remount,rw /` undoes it all
        args += ["--unshare-pid", "--unshare-ipc", "--unshare-uts", "--unshare-cgroup-try", "--cap-drop", "ALL"]
        if not (self.policy.network or grant.network):
            args.append("--unshare-net")
        args += ["--die-with-parent", "--new-session", "--chdir", cwd if Path(cwd).is_dir() else workspace, "--"]
        return args + self.limits()

    def _view_args(self, scratch: Path | None, grant: SandboxGrant) -> list[str]:
        """Deny by default: people's folders and the workspace's ancestors emptied, toolchains
        bound back read-only, credentials and sockets inside them covered."""
        workspace = Path(os.path.realpath(self.workspace))
        if grant.read:  # one command's wider view: built for it, the shell's own view kept
            view = build_view(self.home, workspace, [*self.policy.readable, *grant.read], self.environ, scratch)
        else:
            key = (tuple(self.policy.readable), scratch)
            if self._view_key != key:  # a look through HOME's toolchains: once per jail, not per restart
                self.view = build_view(self.home, workspace, list(self.policy.readable), self.environ, scratch)
                self._view_key = key
            view = self.view
        args: list[str] = []
        for folder in view.emptied:
            size = self.policy.tmp_size_mb * 1024 * 1024 if folder == self.home else _ANCESTOR_TMPFS
            args += ["--size", str(size), "--tmpfs", str(folder)]
        for folder in view.bound:
            args += ["--ro-bind", str(folder), str(folder)]
        for copy, shown in view.git_configs:
            args += ["--ro-bind", str(copy), str(shown)]
        for covered in view.covered:
            args += _cover(covered)
        for target in self._our_own_config():
            args += _cover(target)
        return args

    def view_outdated(self) -> bool:
        """Whether the policy now lets commands read more than the running jail shows (the user
        answered "always" to a read): the shell is restarted with the wider view."""
        return self._view_key is not None and tuple(self.policy.readable) != self._view_key[0]

    def _home_inside_workspace(self) -> list[str]:
        """The workspace is HOME or holds it (the user insisted): credential stores stay hidden,
        start-up files and our own config read-only."""
        workspace = Path(os.path.realpath(self.workspace))
        home = Path(os.path.realpath(self.home))
        if not (home == workspace or workspace in home.parents):
            return []
        args: list[str] = []
        for hidden in HIDDEN_IN_HOME:
            args += _cover(home / hidden)
        missing: list[Path] = []
        for startup in HOME_STARTUP:
            target = home / startup
            if any(home / h in target.parents or home / h == target for h in HIDDEN_IN_HOME):
                continue
            if os.path.lexists(target):
                args += ["--ro-bind", str(target), str(target)]
            else:
                missing.append(target)  # cannot be bound; made by a command, it is removed after it
        self.startup_missing = missing
        return args

    def undo_new_startup_files(self) -> list[str]:
        """With the workspace at HOME: start-up files and folders a command created where there
        were none (a new `~/.bash_profile` would shadow `~/.profile`), removed; what was removed."""
        undone = []
        for target in self.startup_missing:
            if os.path.lexists(target):
                remove_made(target)
                undone.append(str(target))
        return undone

    def _our_own_config(self) -> list[Path]:
        """Our own config and sessions (API key, permission rules, trust records) wherever XDG
        variables moved them."""
        paths = []
        for variable in ("XDG_CONFIG_HOME", "XDG_STATE_HOME", "XDG_DATA_HOME"):
            base = self.environ.get(variable) or os.environ.get(variable)
            if base and os.path.isabs(base):
                paths.append(Path(base) / "openhands-tui")
        return paths

    def limits(self) -> list[str]:
        """`prlimit ... --` before the jailed program: processes (this user's running ones plus
        the policy's allowance; RLIMIT_NPROC counts per user, and is not enforced for root) and
        the largest file a command may write."""
        prlimit = shutil.which("prlimit")
        if prlimit is None:
            return []
        processes = _tasks_of(os.getuid()) + self.policy.max_processes
        size = self.policy.max_file_mb * 1024 * 1024
        return [prlimit, f"--nproc={processes}", f"--fsize={size}", "--"]

    def denial(
        self,
        output: str,
        exit_code: int | None,
        cwd: str,
        grant: SandboxGrant | None = None,
        pid: int | None = None,
        failed_outbound: int = 0,
        command: str = "",
    ) -> SandboxDenial | None:
        """What the jail stopped a failed command from doing, as far as the jail confirms it
        (`denial.py`)."""
        policy = self.policy if self.mode == self.policy.mode else self.policy.model_copy(update={"mode": self.mode})
        judge = DenialJudge(policy, self.workspace, self.home, self.protected, self.view)
        return judge.judge(output, exit_code, cwd, grant, pid, failed_outbound, command)


def _folders_between(workspace: Path, paths: list[Path]) -> list[Path]:
    """The workspace's own folders that hold protected paths by name (`.github` for
    `.github/workflows`): read where they are, so moving the folder aside moves them out of
    effect. (A nested repository may move with its folder: its files mean the same there.)"""
    anchored = {pattern.split("/", 1)[0].lower() for pattern in PROTECTED if "/" in pattern}
    found: set[Path] = set()
    for path in paths:
        try:
            first = path.relative_to(workspace).parts[0]
        except (ValueError, IndexError):
            continue
        folder = workspace / first
        if first.lower() in anchored and folder != path and folder.is_dir() and not folder.is_symlink():
            found.add(folder)
    return sorted(found)


def _cover(target: Path) -> list[str]:
    """Arguments that hide `target` in place: an empty folder over a folder, /dev/null over
    anything else (a file, a socket)."""
    if target.is_dir() and not target.is_symlink():
        return ["--tmpfs", str(target)]
    if os.path.lexists(target) and not target.is_symlink():
        return ["--ro-bind", "/dev/null", str(target)]
    return []


def _tasks_of(uid: int) -> int:
    """Processes and threads `uid` runs now (RLIMIT_NPROC counts them all, everywhere)."""
    count = 0
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            if os.stat(f"/proc/{entry}").st_uid != uid:
                continue
            with open(f"/proc/{entry}/stat") as handle:
                count += int(handle.read().rsplit(")", 1)[1].split()[17])
        except (OSError, ValueError, IndexError):
            continue
    return count
