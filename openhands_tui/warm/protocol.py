"""The few bytes a run and the warm server exchange over the Unix socket.

Run -> server: one request (argv, working directory, environment) as length-prefixed JSON,
with the run's standard input, output and error passed along as file descriptors. Then, for
as long as the run lasts, one byte per signal the run's client received (the forked child
raises it on itself). Child -> run: the exit code, when the child is done.
"""

from __future__ import annotations

import json
import socket
import struct
from typing import Any

HEADER = struct.Struct("!I")
EXIT = b"X"
EXIT_MESSAGE = struct.Struct("!ci")
#: Signals a run passes on to its child: stopping it, and the terminal's size changing.
FORWARDED_SIGNALS = ("SIGINT", "SIGTERM", "SIGHUP", "SIGQUIT", "SIGWINCH")


def send_request(connection: socket.socket, request: dict[str, Any], fds: list[int]) -> None:
    body = json.dumps(request).encode("utf-8", errors="surrogateescape")
    socket.send_fds(connection, [HEADER.pack(len(body)) + body], fds)


def receive_request(connection: socket.socket) -> tuple[dict[str, Any], list[int]]:
    data, fds, _flags, _address = socket.recv_fds(connection, 1 << 16, 3)
    if len(data) < HEADER.size:
        raise ValueError("short request")
    (length,) = HEADER.unpack_from(data)
    body = bytearray(data[HEADER.size :])
    while len(body) < length:
        chunk = connection.recv(length - len(body))
        if not chunk:
            raise ValueError("request cut short")
        body += chunk
    return json.loads(bytes(body).decode("utf-8", errors="surrogateescape")), list(fds)
