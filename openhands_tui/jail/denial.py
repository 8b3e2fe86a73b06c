"""What a failed command was stopped from doing, judged from its output only as far as the jail
confirms it (`evidence.py`), and only for a path the model's command names: a test can print any
"Read-only file system" or "No such file" line it likes. Grants are never offered for
credentials, histories, toolchains, system folders, HOME or the workspace's parents as a whole.
"""

from __future__ import annotations

import os
import re
import shlex
import signal
from pathlib import Path

from openhands_tui.jail import evidence
from openhands_tui.jail.protected import ProtectedPaths
from openhands_tui.jail.view import SYSTEM_TOP, View
from openhands_tui.sdk.sandbox import HIDDEN_IN_HOME, SandboxDenial, SandboxGrant, SandboxPolicy
from openhands_tui.sdk.security.paths import PathJudge

#: System folders below which a write may be granted (not the folders themselves).
_GRANTABLE_SYSTEM = (Path("/var/tmp"), Path("/opt"), Path("/srv"))


class DenialJudge:
    """One judgement over one jail's state (its policy, view, protected paths, HOME)."""

    def __init__(
        self, policy: SandboxPolicy, workspace: Path, home: Path, protected: ProtectedPaths, view: View
    ) -> None:
        self.policy = policy
        self.workspace = workspace
        self.home = home
        self.protected = protected
        self.view = view

    def judge(
        self,
        output: str,
        exit_code: int | None,
        cwd: str,
        grant: SandboxGrant | None = None,
        pid: int | None = None,
        failed_outbound: int = 0,
        command: str = "",
    ) -> SandboxDenial | None:
        """What the jail stopped, from a failed command's output as far as the jail confirms it:
        `pid` is a process still inside the jail (None: nothing can be confirmed, nothing is
        offered); `failed_outbound`: how many outbound attempts its network namespace saw fail
        during the command; `command`: what the model wrote. A path is offered only if the
        command names it (or a folder of it): a test can print any path it likes, and the jail
        cannot tell a missing file's failed open from none."""
        if exit_code == 0:
            return None
        grant = grant or SandboxGrant()
        limit = self._limit_hit(output, exit_code, pid)
        if limit is not None:
            return SandboxDenial(reason=limit, grantable=False)
        if not (self.policy.network or grant.network) and failed_outbound > 0:
            said = _first_match(_NETWORK_FAILURES, output) or "a connection or a name lookup failed"
            return SandboxDenial(reason=f"the sandbox has no network access ({said})", network=True)
        if pid is None:
            return None
        line = _first_match(_READ_ONLY, output)
        if line is None:
            busy = _first_match(_BUSY, output)  # `rm -rf vendor`: a protected path is a mount point
            target = _path_in(busy, cwd) if busy else None
            if target is not None:
                return self._protected_denial(target)
            return self._hidden_denial(output, cwd, pid, command)
        target = _path_in(line, cwd)
        if target is None or evidence.read_only_in_jail(pid, target) is not True:
            return None  # the jail shows that path writable, or cannot be asked: the line is not its
        if not self._named(target, command, cwd):
            return SandboxDenial(
                reason=f"the sandbox keeps {target} read-only (outside the workspace); `[sandbox] writable` in "
                "the config opens a folder to commands if it is needed",
                grantable=False,
            )
        return self._write_denial(target, line)

    def _limit_hit(self, output: str, exit_code: int | None, pid: int | None) -> str | None:
        if exit_code == 128 + signal.SIGXFSZ:
            return f"the sandbox's file-size limit ({self.policy.max_file_mb} MiB per file) stopped it"
        if pid is not None and _first_match(_NO_SPACE, output) is not None:
            free = evidence.free_bytes_in_jail(pid, Path("/tmp"))
            if free is not None and free < 1024 * 1024:
                return f"the sandbox's private /tmp is full ({self.policy.tmp_size_mb} MiB; [sandbox] tmp_size_mb)"
        if _first_match(_NO_PROCESSES, output) is not None:
            return (
                f"the sandbox's process limit ({self.policy.max_processes} processes and threads; "
                "[sandbox] max_processes) stopped it from starting more"
            )
        return None

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
        verdict = PathJudge(str(workspace), str(self.home), self.protected.trusted).judge(str(resolved))
        if verdict.secret:
            return SandboxDenial(reason=f"{target} holds credentials; the sandbox keeps it hidden", grantable=False)
        inside = resolved == workspace or workspace in resolved.parents
        directory = resolved if resolved.is_dir() else resolved.parent
        while not directory.exists() and directory != directory.parent:
            directory = directory.parent
        steers = verdict.sensitive if verdict.sensitive != "system files" else None  # judged by the folder below
        toolchain = any(directory == b or b in directory.parents for b in self.view.bound)
        if not inside and (steers or toolchain or not self._grantable_folder(directory)):
            what = (
                "a toolchain's folder: programs there run outside the sandbox later"
                if toolchain
                else verdict.sensitive or "a folder the sandbox never opens to commands"
            )
            return SandboxDenial(
                reason=f"the sandbox blocked a write to {target} ({what}); if it is needed, the user does it",
                grantable=False,
            )
        where = "the workspace is read-only in this session" if inside else "outside the workspace"
        return SandboxDenial(
            reason=f"the sandbox blocked a write to {target}: {where} ({line})", write=[str(directory)]
        )

    def _grantable_folder(self, directory: Path) -> bool:
        """A folder outside the workspace a write grant may open: never `/`, a system folder,
        HOME, an ancestor of HOME or of the workspace."""
        home = Path(os.path.realpath(self.home))
        workspace = Path(os.path.realpath(self.workspace))
        if directory == Path("/") or directory == home or directory in home.parents:
            return False
        if directory in workspace.parents or str(directory) in SYSTEM_TOP:
            return False
        top = Path(*directory.parts[:2])
        if str(top) not in SYSTEM_TOP:
            return True
        # of the system's folders, only those that hold data and programs of one's own
        return (
            any(directory == f or f in directory.parents for f in _GRANTABLE_SYSTEM)
            and directory not in _GRANTABLE_SYSTEM
        )

    def _named(self, target: Path, command: str, cwd: str) -> bool:
        """Whether the model's command names `target` or a folder of it (not HOME, `/` or a parent
        of the workspace, which name everything)."""
        home = Path(os.path.realpath(self.home))
        workspace = Path(os.path.realpath(self.workspace))
        too_wide = {Path("/"), home, *home.parents, workspace, *workspace.parents, Path(cwd)}
        for word in _words(command):
            named = Path(os.path.normpath(Path(cwd) / os.path.expanduser(word)))
            if named in too_wide:
                continue
            if named == target or named in target.parents:
                return True
        return False

    def _hidden_denial(self, output: str, cwd: str, pid: int, command: str) -> SandboxDenial | None:
        """A path a failed command could not find or open that the host has and the jail hides:
        offered for reading if the command names it, unless it holds credentials."""
        for line in _MISSING.finditer(output[-20_000:]):
            target = _path_in(line.group(0), cwd)
            if target is None or not target.is_absolute():
                continue
            target = Path(os.path.normpath(target))
            if not os.path.lexists(target) or not self.view.hides(target):
                continue
            if evidence.exists_in_jail(pid, target) is not False:
                continue  # the jail has it: the line speaks of something else
            verdict = PathJudge(str(self.workspace), str(self.home), self.protected.trusted).judge(str(target))
            if verdict.secret or _credential_store(target, self.home):
                return SandboxDenial(reason=f"{target} holds credentials; the sandbox keeps it hidden", grantable=False)
            if not self._named(target, command, cwd):
                return SandboxDenial(
                    reason=f"the sandbox hides {target} (outside the workspace); `[sandbox] readable` in the config "
                    "shows it to commands if it is needed",
                    grantable=False,
                )
            return SandboxDenial(
                reason=f"the sandbox hides {target} (outside the workspace, not a toolchain it binds by default)",
                read=[str(target)],
            )
        return None


#: Histories keep what was typed: passwords given on command lines, tokens pasted into shells.
_HISTORIES = frozenset(
    [
        ".bash_history",
        ".zsh_history",
        ".sh_history",
        ".history",
        ".psql_history",
        ".mysql_history",
        ".sqlite_history",
        ".python_history",
        ".node_repl_history",
        ".irb_history",
        ".rediscli_history",
        ".lesshst",
        ".viminfo",
        ".wget-hsts",
    ]
)


def _credential_store(path: Path, home: Path) -> bool:
    if path.name in _HISTORIES or (path.parent.name == "fish" and path.name == "fish_history"):
        return True
    return any(path == home / h or home / h in path.parents for h in HIDDEN_IN_HOME)


def _words(command: str) -> list[str]:
    """The command's words as paths might stand in them: `a=~/x`, `--file=~/x`, `<~/x` too."""
    try:
        words = shlex.split(command, comments=True)
    except ValueError:
        words = command.split()
    found = []
    for word in words:
        for part in (word, word.partition("=")[2]):
            part = part.lstrip("<>|&;()").rstrip(";&|)<>")
            if part and not part.startswith("-"):
                found.append(part)
    return found


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
_NO_SPACE = re.compile(r"^.*(No space left on device|ENOSPC).*$", re.MULTILINE)
#: A process the kernel would not start: bash's `fork: retry:` and Python's BlockingIOError say it
#: alike (only a note: nothing is offered on it).
_NO_PROCESSES = re.compile(r"^.*(Resource temporarily unavailable|EAGAIN).*$", re.M)
_MISSING = re.compile(r"^.*(No such file or directory|ENOENT|cannot open|can't open|not found).*$", re.MULTILINE)
_QUOTED = re.compile(r"""['"‘`]([^'"’`]+)['"’`]""")


def _first_match(pattern: re.Pattern[str], output: str) -> str | None:
    found = pattern.search(output[-20_000:])
    return found.group(0).strip()[:300] if found else None


def _path_in(line: str, cwd: str) -> Path | None:
    """The path an error line names: quoted (`touch: cannot touch 'x'`), before the
    message (`bash: line 1: x: Read-only file system`), or any absolute path on the line."""
    candidates = [c for c in _QUOTED.findall(line) if c.strip()]
    before = re.search(r"([^\s:'\"]+):\s*(Read-only file system|No such file or directory)", line)
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
