"""Ctrl-C, remembered. Libraries do not all let the KeyboardInterrupt through: pydantic's schema
builder, interrupted while a model is first used, reports a SchemaError that merely mentions it.
The CLI asks `interrupted()` when a command fails: after Ctrl-C, it ends as the interrupt would
have (exit 130), not as an error to report."""

from __future__ import annotations

import signal

_interrupted = False


def _on_interrupt(signum: int, frame: object) -> None:
    global _interrupted
    _interrupted = True
    raise KeyboardInterrupt


def raise_on_interrupt() -> None:
    """From here on Ctrl-C is KeyboardInterrupt, and remembered."""
    signal.signal(signal.SIGINT, _on_interrupt)


def interrupted() -> bool:
    return _interrupted
