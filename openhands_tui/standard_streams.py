"""Standard streams a launcher left closed or unable to show text: make them safe first.

A process started with fd 0, 1 or 2 closed (`tui <&-`, a service manager, a cron job) gets
`sys.stdin`/`sys.stdout`/`sys.stderr` set to None, so the first `isatty()` or `write()` is a
traceback; worse, the next file the run opens (its session log) takes the free descriptor, and
whatever then writes to "standard output" writes into that file. Each missing descriptor is
put back as /dev/null before anything else is opened.

A standard output whose encoding cannot show the model's text (`PYTHONIOENCODING=ascii`, a
Latin-1 locale) would end the run with a UnicodeEncodeError on the first non-ASCII answer:
such characters are shown as `?` instead.

A standard output or error that cannot be written (a closed pipe, a full disk) drops what is
written to it instead of raising (`_WritesNeverRaise`), and a headless run's output is written
by a thread of its own (`QueuedOutput`), so a reader that stops reading never freezes the run.
"""

from __future__ import annotations

import contextlib
import io
import os
import queue
import sys
import threading
import time
from typing import Any, TextIO, cast

_STREAMS = ((0, os.O_RDONLY, "stdin", "r"), (1, os.O_WRONLY, "stdout", "w"), (2, os.O_WRONLY, "stderr", "w"))


def make_standard_streams_safe() -> None:
    """Give every closed standard descriptor /dev/null, and every text stream a way to show
    what its encoding cannot."""
    for fd, flags, name, mode in _STREAMS:
        try:
            os.fstat(fd)
        except OSError:  # closed: the lowest free descriptor is this one, so it lands in place
            spare = os.open(os.devnull, flags)
            if spare != fd:
                os.dup2(spare, fd)
                os.close(spare)
        if getattr(sys, name) is None:
            stream = open(fd, mode, encoding="utf-8", errors="replace", closefd=False)  # noqa: SIM115 - lives as long as the process
            setattr(sys, name, stream)
            setattr(sys, f"__{name}__", stream)
    for stream in (sys.stdout, sys.stderr):
        if isinstance(stream, io.TextIOWrapper) and stream.errors == "strict":
            with contextlib.suppress(ValueError, OSError):  # detached or closed: leave it alone
                stream.reconfigure(errors="replace")
    writes_never_raise()


class _WritesNeverRaise:
    """A standard stream that outlives whatever reads it. A closed pipe (`tui sessions | head
    -1`, `tui ... 2>&1 | head`), a full disk (`> out.txt` on a full one) or a terminal that went
    away made the next `print()` raise: a traceback, or a finished run exiting 1. Once a write
    fails, the descriptor becomes /dev/null and the command goes on to its own end; a failure
    other than a reader that went away is kept in `lost`, for the command to say and exit 1."""

    def __init__(self, stream: TextIO) -> None:
        self._stream = stream
        self.lost: str | None = None

    def write(self, text: str) -> int:
        try:
            return self._stream.write(text)
        except OSError as exc:
            self._to_null(exc)
            return len(text)

    def flush(self) -> None:
        try:
            self._stream.flush()
        except OSError as exc:
            self._to_null(exc)

    def _to_null(self, exc: OSError) -> None:
        if not isinstance(exc, BrokenPipeError):
            self.lost = self.lost or (exc.strerror or str(exc))
        with contextlib.suppress(OSError, ValueError, io.UnsupportedOperation):
            null = os.open(os.devnull, os.O_WRONLY)
            os.dup2(null, self._stream.fileno())
            os.close(null)
        with contextlib.suppress(OSError, ValueError):  # what was buffered goes where the rest goes
            self._stream.flush()

    def __getattr__(self, name: str) -> Any:
        return getattr(self._stream, name)


def writes_never_raise() -> None:
    """From here on a failed write to standard output or error is dropped, not raised."""
    if not isinstance(sys.stdout, _WritesNeverRaise):
        sys.stdout = cast(TextIO, _WritesNeverRaise(sys.stdout))
    if not isinstance(sys.stderr, _WritesNeverRaise):
        sys.stderr = cast(TextIO, _WritesNeverRaise(sys.stderr))


def lost_output() -> str | None:
    """Why standard output could not be written (after flushing it), or None: nothing was lost,
    or its reader simply went away (`| head`), which is the reader's choice, not a failure."""
    with contextlib.suppress(OSError, ValueError):
        sys.stdout.flush()
    return getattr(sys.stdout, "lost", None)


class QueuedOutput:
    """What a headless run prints, written by a thread of its own. A reader that stops reading
    (`tui ... | less` left on its first page, a supervisor that reads its pipe only at the end)
    filled the pipe, and the run's printing then blocked the event loop inside `write()`:
    Ctrl-C, SIGTERM and SIGHUP were never handled, and the run froze with it. Now only this
    thread waits; the run and its signals go on. The text is written in order, to standard
    output or error as each piece asks.

    A reader that went away (a closed pipe) ends the writing quietly, as before; any other
    failure (a full disk, an I/O error) is kept in `lost`, so the run can say its output is
    incomplete instead of exiting 0 with half of it missing."""

    def __init__(self, out: TextIO, err: TextIO) -> None:
        self._out = _QueuedStream(self, out)
        self.stdout, self.stderr = cast(TextIO, self._out), cast(TextIO, _QueuedStream(self, err))
        self.lost: str | None = None
        self._queue: queue.SimpleQueue[tuple[_QueuedStream, str] | None] = queue.SimpleQueue()
        self._idle = threading.Condition()
        self._pending = 0
        self._thread = threading.Thread(target=self._write_all, name="tui-output", daemon=True)
        self._thread.start()

    def put(self, stream: _QueuedStream, text: str) -> None:
        with self._idle:
            self._pending += 1
        self._queue.put((stream, text))

    def drain(self, timeout: float | None = None) -> bool:
        """Wait until everything put so far is written (or dropped); False if `timeout` passed
        first. Waits in short steps, so Ctrl-C still interrupts it."""
        deadline = None if timeout is None else time.monotonic() + timeout
        with self._idle:
            while self._pending:
                left = 0.2 if deadline is None else min(0.2, deadline - time.monotonic())
                if left <= 0:
                    return False
                self._idle.wait(left)
        return True

    def close(self, timeout: float | None = None) -> bool:
        """Drain, then stop the thread; False if the reader still held things up at `timeout`
        (the thread is a daemon: it ends with the process)."""
        drained = self.drain(timeout)
        self._queue.put(None)
        return drained

    def _write_all(self) -> None:
        while (item := self._queue.get()) is not None:
            stream, text = item
            try:
                stream.write_now(text)
            except BrokenPipeError:
                stream.gone = True
            except OSError as exc:
                stream.gone = True
                if stream is self._out:
                    self.lost = self.lost or (exc.strerror or str(exc))
            finally:
                with self._idle:
                    self._pending -= 1
                    self._idle.notify_all()


class _QueuedStream(io.TextIOBase):
    """One standard stream, as the printers see it: `write` only queues."""

    def __init__(self, output: QueuedOutput, stream: TextIO) -> None:
        super().__init__()
        self._output = output
        self._stream = stream
        self.gone = False
        try:
            self._fd: int | None = stream.fileno()
        except (OSError, ValueError, io.UnsupportedOperation):  # a capture in tests: no descriptor
            self._fd = None
        self._encoding = getattr(stream, "encoding", None) or "utf-8"

    def writable(self) -> bool:
        return True

    def write(self, text: str) -> int:
        self._output.put(self, text)
        return len(text)

    def write_now(self, text: str) -> None:
        """Called by the writer thread only. To the descriptor itself: the stream's own buffer
        and lock stay untouched, so nothing at exit can wait on a write this thread is stuck in."""
        if self.gone:
            return
        if self._fd is None:
            self._stream.write(text)
            self._stream.flush()
            return
        data = memoryview(text.encode(self._encoding, errors="replace"))
        while data:
            data = data[os.write(self._fd, data) :]
