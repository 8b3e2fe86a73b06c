"""`python warm_spawn.py SOCKET ARGS...`: run `tui ARGS` on this process's own standard streams,
forked from the warm launcher listening on SOCKET (see warm_tui.py), and end as it ends.

For programs that spawn `tui` themselves and talk to it over its pipes (an ACP client): this
process starts in milliseconds and the child skips litellm's import. Signals sent to this
process are passed on to the child.
"""

from __future__ import annotations

import json
import os
import signal
import socket
import sys


def main() -> None:
    connection = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    connection.connect(sys.argv[1])
    request = {"args": sys.argv[2:], "env": dict(os.environ), "cwd": os.getcwd()}
    socket.send_fds(connection, [json.dumps(request).encode()], [0, 1, 2])
    for stream in (0, 1, 2):  # the child holds them now: an editor closing its end reaches it
        os.close(stream)
    answers = connection.makefile("r")
    pid = int(answers.readline().split()[1])
    for sig in (signal.SIGTERM, signal.SIGINT, signal.SIGHUP):
        signal.signal(sig, lambda number, _frame: os.kill(pid, number))
    how, _, number = answers.readline().partition(" ")
    if how == "signal":
        os._exit(128 + int(number))
    os._exit(int(number or 1))


if __name__ == "__main__":
    main()
