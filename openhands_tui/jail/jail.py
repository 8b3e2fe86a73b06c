"""Bubblewrap under everything that runs code for the agent: the jail's command line, built
from the session's SandboxPolicy, and what a failed command was stopped from doing.

The jail: `/` read-only, the workspace writable (unless read-only mode), a private `/tmp`,
user-listed paths writable, credential stores hidden, the protected paths inside the workspace
bound read-only (`protected.py`), its own PID, IPC and (unless allowed) network namespaces,
and `--die-with-parent`, so nothing a command started outlives the session.
"""

from __future__ import annotations

import os
import re
from pathlib import Path

from openhands_tui.jail.protected import ProtectedPaths
from openhands_tui.sdk.sandbox import (
    HIDDEN_IN_HOME,
    SandboxDenial,
    SandboxGrant,
    SandboxPolicy,
)

#: Under /run, what commands still see: the resolver's files (`/etc/resolv.conf` may point here).
_RUN_KEPT = ("/run/systemd/resolve", "/run/resolvconf", "/run/NetworkManager/resolv.conf")


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
