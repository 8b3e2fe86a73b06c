"""A pre-warmed launcher for `tui` processes, used by the SIGKILL test.

Starting `tui` costs ~2.5 s, nearly all of it importing litellm; twenty kill-and-resume rounds
would spend a minute just starting. This process imports everything once, then for each JSON
line on stdin (`{"args": [...], "out": path, "err": path, "env": {...}}`) forks a child that
runs the real CLI with that argv, those environment variables, and stdout/stderr redirected
to those files; prints the child's pid, and then how it ended (`exit N` or `signal N`). The
children are ordinary processes (the SIGKILL test kills them with a real SIGKILL).
"""

from __future__ import annotations

import json
import os
import sys

from openhands_tui.cli import main
from openhands_tui.sdk.llm import load_litellm


def _child(args: list[str], out: str, err: str | None, env: dict[str, str]) -> None:
    os.environ.update(env)
    os.dup2(os.open(out, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o644), 1)
    os.dup2(os.open(err or os.devnull, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o644), 2)
    sys.stdout = os.fdopen(1, "w", buffering=1)
    sys.stderr = os.fdopen(2, "w", buffering=1)
    sys.argv = ["tui", *args]
    try:
        code = main()  # the entry point returns the exit code
    except SystemExit as exit_:
        code = exit_.code if isinstance(exit_.code, int) else 1
    except BaseException:  # shown the way Python would, so a test can see that it happened
        import traceback

        traceback.print_exc()
        code = 1
    sys.stdout.flush()
    sys.stderr.flush()
    os._exit(code)


def serve() -> None:
    load_litellm()
    print("ready", flush=True)
    for line in sys.stdin:
        request = json.loads(line)
        pid = os.fork()
        if pid == 0:
            _child(request["args"], request["out"], request.get("err"), request.get("env", {}))
        print(pid, flush=True)
        _, status = os.waitpid(pid, 0)
        if os.WIFSIGNALED(status):
            print(f"signal {os.WTERMSIG(status)}", flush=True)
        else:
            print(f"exit {os.WEXITSTATUS(status)}", flush=True)


if __name__ == "__main__":
    serve()
