"""A pre-warmed `tui` launcher: the test suite's child processes fork from it.

Starting `tui` costs ~2.5 s, nearly all of it importing litellm; the suite starts the real CLI
dozens of times. This process imports everything once and then, for each JSON request on stdin
(`{"args": [...], "env": {...}, "cwd": ..., "stdin": path, "out": path, "err": path}`), forks a
child that runs the real CLI entry point with exactly that argv, environment, working directory
and standard streams. It answers `pid N` at once and `end N exit C` / `end N signal S` when that
child is gone, so several children may run at a time (a test can start one and run another
while the first still holds its session). The children are ordinary processes: tests signal
and kill them for real. Nothing here runs in the children but `main()` and the exit handlers a
fresh interpreter would run.
"""

from __future__ import annotations

import atexit
import json
import os
import select
import sys

from openhands_tui.cli import main
from openhands_tui.sdk.llm import load_litellm


def _child(request: dict) -> None:
    """Become `tui ARGS` as a fresh process would, and exit with its code."""
    os.chdir(request.get("cwd") or os.getcwd())
    os.environ.clear()
    os.environ.update(request["env"])
    stdin = os.open(request.get("stdin") or os.devnull, os.O_RDONLY)
    os.dup2(stdin, 0)
    os.dup2(os.open(request["out"], os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o644), 1)
    os.dup2(os.open(request.get("err") or os.devnull, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o644), 2)
    sys.stdin = os.fdopen(0, "r")
    sys.stdout = os.fdopen(1, "w", buffering=1)
    sys.stderr = os.fdopen(2, "w", buffering=1)
    sys.argv = ["tui", *request["args"]]
    code = 0
    try:
        main()
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


def _reap(children: set[int]) -> None:
    for pid in list(children):
        done, status = os.waitpid(pid, os.WNOHANG)
        if done == 0:
            continue
        children.discard(pid)
        if os.WIFSIGNALED(status):
            print(f"end {pid} signal {os.WTERMSIG(status)}", flush=True)
        else:
            print(f"end {pid} exit {os.WEXITSTATUS(status)}", flush=True)


def serve() -> None:
    load_litellm()
    print("ready", flush=True)
    children: set[int] = set()
    pending = b""
    while True:
        readable, _, _ = select.select([0], [], [], 0.02)
        if readable:
            chunk = os.read(0, 1 << 16)
            if not chunk:
                break
            pending += chunk
            while b"\n" in pending:
                line, pending = pending.split(b"\n", 1)
                pid = os.fork()
                if pid == 0:
                    _child(json.loads(line))
                children.add(pid)
                print(f"pid {pid}", flush=True)
        _reap(children)


if __name__ == "__main__":
    serve()
