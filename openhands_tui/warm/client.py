"""A run's side of the warm start: find a server for this installation and environment, hand
it the command line and the terminal, pass signals on, and exit with the child's code.

Imported by every `tui` run before anything heavy, so only the standard library and `key`.
"""

from __future__ import annotations

import contextlib
import os
import signal
import socket
import sys

from openhands_tui.warm import protocol
from openhands_tui.warm.key import COLD_VARIABLE, socket_path


def hand_over(args: list[str]) -> int | None:
    """Run `tui ARGS` in a warm server's child and return its exit code; None when there is no
    server to use (the caller then runs cold, as if this did not exist)."""
    if os.environ.get(COLD_VARIABLE) or (args and args[0] == "warm"):
        return None
    path = socket_path(os.environ)
    if not os.path.exists(path):
        return None
    connection = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    try:
        connection.connect(path)
    except OSError:  # a server that died without cleaning up: start cold
        connection.close()
        return None
    request = {"argv": [sys.argv[0], *args], "cwd": os.getcwd(), "env": dict(os.environ)}
    protocol.send_request(connection, request, [0, 1, 2])
    return _wait(connection)


def _wait(connection: socket.socket) -> int:
    def forward(number: int, _frame: object) -> None:
        with contextlib.suppress(OSError):
            connection.send(bytes([number]))

    numbers = [getattr(signal, name) for name in protocol.FORWARDED_SIGNALS]
    previous = {number: signal.signal(number, forward) for number in numbers}
    try:
        received = b""
        while len(received) < protocol.EXIT_MESSAGE.size:
            chunk = connection.recv(protocol.EXIT_MESSAGE.size - len(received))
            if not chunk:  # the child died without saying how (killed)
                return 1
            received += chunk
    finally:
        connection.close()
        for number, handler in previous.items():
            signal.signal(number, handler)
    _tag, code = protocol.EXIT_MESSAGE.unpack(received)
    return int(code)
