"""What the jail itself says a command did: read from outside, through a process still inside it.

A command's output is the command's to write: a test can print "Read-only file system:
'/home/u/x'" or "Connection refused" without trying either. So a denial is believed only when
the jail confirms it, through `/proc/PID` of the shell that lives on inside the jail:
- the path a "read-only" line names is on a read-only mount in the jail's own mount table
  (`/proc/PID/root`), or a path an "unreadable" line names exists on the host but not there;
- the jail's own network namespace counted an outbound attempt that failed during the command
  (`/proc/PID/net/snmp`, `snmp6`: routes missing, connections refused, datagrams unanswered).
"""

from __future__ import annotations

import contextlib
import os
from pathlib import Path

#: Counters of the jail's network namespace that move when something tried to leave it and failed.
_FAILED_OUTBOUND = {
    ("Ip", "OutNoRoutes"),
    ("Tcp", "AttemptFails"),
    ("Udp", "NoPorts"),
    ("Ip6OutNoRoutes", ""),
    ("Udp6NoPorts", ""),
}


def inside_pid(outer: int) -> int | None:
    """A process inside the jail that bwrap `outer` started (the shell), or None: bwrap forks
    itself once to be the namespace's first process; the first child not named bwrap is in."""
    frontier = [outer]
    for _ in range(4):  # bwrap -> (bwrap) -> shell: a few levels at most
        children: list[int] = []
        for pid in frontier:
            with contextlib.suppress(OSError, ValueError):
                for task in os.listdir(f"/proc/{pid}/task"):
                    children += [int(c) for c in Path(f"/proc/{pid}/task/{task}/children").read_text().split()]
        for child in children:
            with contextlib.suppress(OSError):
                if Path(f"/proc/{child}/comm").read_text().strip() != "bwrap":
                    return child
        frontier = children
    return None


def failed_outbound(pid: int) -> int:
    """How many outbound attempts the network namespace of `pid` saw fail, so far (0 if unknown)."""
    total = 0
    with contextlib.suppress(OSError):
        lines = Path(f"/proc/{pid}/net/snmp").read_text().splitlines()
        for names, values in zip(lines[::2], lines[1::2], strict=False):
            group, _, keys = names.partition(":")
            for key, value in zip(keys.split(), values.partition(":")[2].split(), strict=False):
                if (group, key) in _FAILED_OUTBOUND and value.isdigit():
                    total += int(value)
    with contextlib.suppress(OSError):
        for line in Path(f"/proc/{pid}/net/snmp6").read_text().splitlines():
            key, _, value = line.partition(" ")
            if (key, "") in _FAILED_OUTBOUND and value.strip().isdigit():
                total += int(value.strip())
    return total


def _in_jail(pid: int, path: Path) -> str:
    return f"/proc/{pid}/root{path}"


def read_only_in_jail(pid: int, path: Path) -> bool | None:
    """Whether `path` (or the nearest folder of it that exists there) is on a read-only mount
    inside the jail of `pid`; None when the jail cannot be looked into."""
    current = path
    while True:
        try:
            info = os.statvfs(_in_jail(pid, current))
        except FileNotFoundError:
            if current == current.parent:
                return None
            current = current.parent
            continue
        except OSError:
            return None
        return bool(info.f_flag & os.ST_RDONLY)


def exists_in_jail(pid: int, path: Path) -> bool | None:
    """Whether `path` exists inside the jail of `pid` (None when it cannot be looked into)."""
    if not os.path.exists(f"/proc/{pid}/root/"):
        return None
    return os.path.lexists(_in_jail(pid, path))


def free_bytes_in_jail(pid: int, path: Path) -> int | None:
    """Free space of the filesystem at `path` inside the jail (its private /tmp, say)."""
    try:
        info = os.statvfs(_in_jail(pid, path))
    except OSError:
        return None
    return info.f_bavail * info.f_frsize
