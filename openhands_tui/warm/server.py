"""The warm server: import litellm and the app once, then fork one child per run.

A child takes over the run's terminal (its standard streams), working directory, environment
and command line, runs the command line as a cold `tui` would, and reports its exit code. The
server stays single-threaded so that forking it is safe, answers only its own user, and exits
after `idle` seconds without a run, when asked to stop, or when its socket is taken away.
"""

from __future__ import annotations

import atexit
import contextlib
import gc
import importlib
import logging
import os
import select
import signal
import socket
import struct
import sys
import threading
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import Any

import openhands_tui
from openhands_tui import startup
from openhands_tui.warm import protocol
from openhands_tui.warm.key import socket_directory, socket_path

logger = logging.getLogger(__name__)
_CREDENTIALS = struct.Struct("3i")  # SO_PEERCRED: pid, uid, gid


def serve(run: Callable[[], object], preload: Iterable[str], idle: float, expected_socket: str | None = None) -> None:
    """Preload, listen, fork per run. `run` is the command line's entry point (it reads
    `sys.argv`, returns or raises its exit code), `preload` the modules a run would import.
    `expected_socket`: where the `tui warm` that started it will look; a server that would
    listen elsewhere (it sees other files or another environment) says so and exits at once,
    rather than leave its starter waiting."""
    path = Path(socket_path(os.environ))  # before the preload: it may add litellm's settings
    if expected_socket is not None and str(path) != expected_socket:
        sys.exit(f"this server would load other files than the tui that started it ({openhands_tui.__file__})")
    _private_directory(Path(socket_directory()))
    _preload(preload)
    listener = _listen(path)
    inode = path.stat().st_ino
    signal.signal(signal.SIGCHLD, signal.SIG_IGN)  # children are reaped by the kernel
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(0))
    try:
        while _still_ours(path, inode) and select.select([listener], [], [], idle)[0]:
            connection, _ = listener.accept()
            if not _same_user(connection):
                connection.close()
                continue
            try:
                request, fds = protocol.receive_request(connection)
            except (OSError, ValueError):
                connection.close()
                continue
            if request.get("stop"):
                connection.close()
                break
            if os.fork() == 0:
                listener.close()
                _child(run, connection, request, fds)  # never returns
            connection.close()
            for fd in fds:
                os.close(fd)
    finally:
        if _still_ours(path, inode):
            path.unlink(missing_ok=True)
        listener.close()


def _private_directory(directory: Path) -> None:
    directory.mkdir(mode=0o700, exist_ok=True)
    info = directory.stat()
    if info.st_uid != os.getuid() or info.st_mode & 0o077:
        raise SystemExit(f"{directory}: not private to this user; remove it and try again")


def _preload(modules: Iterable[str]) -> None:
    from openhands_tui.sdk.llm.warmup import warm_up

    warm_up()  # litellm, its first-call imports and tokenizer
    for name in modules:
        importlib.import_module(name)
    startup.engine_preloaded = True
    # what is loaded now lives as long as every child: out of the collector's sight, a child's
    # collections neither take the time to walk it nor copy its pages by touching it
    gc.freeze()
    if threading.active_count() != 1:  # forking with threads running would copy their locks
        raise SystemExit("warm start: a preloaded module started a thread; not forking")


def _listen(path: Path) -> socket.socket:
    """Bind under a temporary name, then rename: a run never finds a socket not yet listening."""
    listener = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    staging = path.with_name(f".{os.getpid()}.sock")
    staging.unlink(missing_ok=True)
    listener.bind(str(staging))
    listener.listen(16)
    os.replace(staging, path)
    return listener


def _still_ours(path: Path, inode: int) -> bool:
    """Whether the socket file is still the one we bound (not removed, nor replaced by a newer
    server for the same key)."""
    try:
        return os.stat(path).st_ino == inode
    except OSError:
        return False


def _same_user(connection: socket.socket) -> bool:
    raw = connection.getsockopt(socket.SOL_SOCKET, socket.SO_PEERCRED, _CREDENTIALS.size)
    _pid, uid, _gid = _CREDENTIALS.unpack(raw)
    return uid == os.getuid()


def _child(run: Callable[[], object], connection: socket.socket, request: dict[str, Any], fds: list[int]) -> None:
    code = 1
    try:
        os.setsid()
        for number in (signal.SIGCHLD, signal.SIGTERM, signal.SIGHUP, signal.SIGQUIT, signal.SIGWINCH):
            signal.signal(number, signal.SIG_DFL)
        signal.signal(signal.SIGINT, signal.default_int_handler)
        _take_over(request, fds)
        threading.Thread(target=_relay_signals, args=(connection,), daemon=True).start()
        code = _run(run)
        logging.shutdown()
        atexit._run_exitfuncs()  # what interpreter exit would run; os._exit below skips it
    finally:
        for stream in (sys.stdout, sys.stderr):
            with contextlib.suppress(Exception):
                stream.flush()
        with contextlib.suppress(OSError):
            connection.sendall(protocol.EXIT_MESSAGE.pack(protocol.EXIT, code))
        os._exit(code)


def _take_over(request: dict[str, Any], fds: list[int]) -> None:
    """Become the run: its streams, directory, environment and command line."""
    for target, fd in enumerate(fds[:3]):
        os.dup2(fd, target)
        os.close(fd)
    # new streams on the run's descriptors (the server's were /dev/null); they live as long
    # as the process, as the interpreter's own do
    sys.stdin = sys.__stdin__ = open(0, encoding="utf-8", closefd=False)  # type: ignore[misc]  # noqa: SIM115
    sys.stdout = sys.__stdout__ = open(  # type: ignore[misc]  # noqa: SIM115
        1, "w", encoding="utf-8", buffering=1 if os.isatty(1) else -1, closefd=False
    )
    sys.stderr = sys.__stderr__ = open(  # type: ignore[misc]  # noqa: SIM115
        2, "w", encoding="utf-8", errors="backslashreplace", buffering=1, closefd=False
    )
    os.chdir(request["cwd"])
    os.environ.clear()
    os.environ.update(request["env"])
    from openhands_tui.sdk.llm.client import set_litellm_environment

    set_litellm_environment()
    sys.argv = list(request["argv"])


def _relay_signals(connection: socket.socket) -> None:
    """Raise on ourselves each signal the run received; its going away is a hang-up."""
    while True:
        try:
            data = connection.recv(64)
        except OSError:
            data = b""
        if not data:
            os.kill(os.getpid(), signal.SIGHUP)
            return
        for number in data:
            os.kill(os.getpid(), number)


def _run(run: Callable[[], object]) -> int:
    try:
        returned = run()  # the exit code, as the console script passes it to sys.exit
        if isinstance(returned, int):
            return returned
    except SystemExit as exit_:
        if exit_.code is None or isinstance(exit_.code, int):
            return exit_.code or 0
        print(exit_.code, file=sys.stderr)
        return 1
    except KeyboardInterrupt:
        return 130
    return 0
