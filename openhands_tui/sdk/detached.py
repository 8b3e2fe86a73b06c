"""Blocking work on a thread the process never waits for.

`asyncio.to_thread` uses the loop's default executor, whose threads `asyncio.run` joins at
exit and Python joins again at shutdown. A file read that blocks in the kernel for ever (a
hung network or FUSE mount, a kernel file that waits for data) then keeps the process alive
after Ctrl-C or SIGTERM has already ended the run — found by the third chaos round, where one
`view /proc/kmsg` kept `tui` alive until SIGKILL. Work run here is cancellable like any
await (the caller stops waiting at once), and a thread still stuck at exit is left behind.
"""

from __future__ import annotations

import asyncio
import contextlib
import contextvars
import threading
from collections.abc import Callable
from typing import Any, TypeVar

T = TypeVar("T")


async def run_detached(work: Callable[..., T], *args: Any) -> T:
    """`work(*args)` on a daemon thread (context variables carried over, as with to_thread)."""
    loop = asyncio.get_running_loop()
    future: asyncio.Future[T] = loop.create_future()
    context = contextvars.copy_context()

    def settle(outcome: Callable[[], None]) -> None:
        with contextlib.suppress(RuntimeError):  # the loop closed while the work ran
            loop.call_soon_threadsafe(outcome)

    def body() -> None:
        try:
            result = context.run(work, *args)
        except BaseException as exc:  # handed to the awaiting task as it is
            error = exc
            settle(lambda: None if future.done() else future.set_exception(error))
        else:
            settle(lambda: None if future.done() else future.set_result(result))

    threading.Thread(target=body, name=f"detached-{getattr(work, '__name__', 'work')}", daemon=True).start()
    return await future
