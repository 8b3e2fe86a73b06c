"""A guard between `tui` and a program it runs unconfined, so the program dies with `tui`.

In the jail, bubblewrap's `--die-with-parent` and its PID namespace end everything a command
started when `tui` goes, even after `kill -9`. A program run outside it (an MCP server with
`"mode": "off"`, every server and hook with `--sandbox off`, a hook) had no such tie: killed
mid-call, `tui` left the server running under pid 1, and the resumed session started a second
copy. The guard is that tie. It starts the program in a process group of its own and waits for
either of them to end, watching both through pidfds (no polling, nothing to import: a parent-
death signal needs ctypes, 20 ms a start); when `tui` ends first it ends the whole group
(SIGTERM, then SIGKILL after a grace) and exits. The program's standard streams are the guard's,
so the program is talked to exactly as before.

Run as a script with `python -S` (no site, no imports of this package, no contextlib): a start
costs ~15 ms.
A program that leaves its group on purpose (`setsid`) is beyond it; the jail is what holds that.
"""

from __future__ import annotations

import _signal  # type: ignore[import-not-found]  # signal's C core; `signal` imports enum: a third of a start
import os
import select
import sys
import time

_GRACE_SECONDS = 1.0


def guarded_argv(argv: list[str], parent: int | None = None) -> list[str]:
    """The command line that runs `argv` under the guard, tied to `parent` (default: us)."""
    own = parent if parent is not None else os.getpid()
    return [sys.executable, "-S", os.path.abspath(__file__), str(own), "--", *argv]


def _end_group(group: int) -> None:
    for sig in (_signal.SIGTERM, _signal.SIGKILL):
        try:
            os.killpg(group, sig)
        except (ProcessLookupError, PermissionError):
            return
        deadline = time.monotonic() + _GRACE_SECONDS
        while time.monotonic() < deadline:
            try:
                os.killpg(group, 0)
            except (ProcessLookupError, PermissionError):
                return
            time.sleep(0.02)


def _main(args: list[str]) -> int:
    parent, separator, argv = int(args[0]), args[1], args[2:]
    if separator != "--" or not argv:
        print("orphan_guard: usage: orphan_guard.py PARENT_PID -- COMMAND [ARGS...]", file=sys.stderr)
        return 2
    try:
        parent_gone = _exit_watch(parent)
    except ProcessLookupError:
        return 143  # tui went before the guard could watch it
    child = os.fork()
    if child == 0:
        os.setpgid(0, 0)
        try:
            os.execvp(argv[0], argv)
        except OSError as exc:
            print(f"{argv[0]}: {exc.strerror or exc}", file=sys.stderr)
            os._exit(127)
    # the child does it too: whichever runs first (then it may have exec-ed); no contextlib here,
    # it costs this script a third of its start
    try:  # noqa: SIM105
        os.setpgid(child, child)
    except OSError:
        pass

    def stop(signum: int, _frame: object) -> None:
        _end_group(child)
        os._exit(128 + signum)

    for sig in (_signal.SIGTERM, _signal.SIGHUP, _signal.SIGINT):
        _signal.signal(sig, stop)
    child_done = _exit_watch(child)
    while True:
        ready, _, _ = select.select([parent_gone, child_done], [], [])
        if child_done in ready:
            _, status = os.waitpid(child, 0)
            _end_group(child)  # what the program left running in its group goes with it
            return os.waitstatus_to_exitcode(status) if os.WIFEXITED(status) else 128 + os.WTERMSIG(status)
        if parent_gone in ready:
            _end_group(child)
            return 143


def _exit_watch(pid: int) -> int:
    """A descriptor that becomes readable when process `pid` ends (a pidfd: no polling)."""
    return os.pidfd_open(pid)


if __name__ == "__main__":
    sys.exit(_main(sys.argv[1:]))
