"""`TerminalExecutor`: the SDK's synchronous terminal, for custom tools that run commands.

SDK-style custom tools build one (`TerminalExecutor(working_dir=conv_state.workspace.working_dir)`)
and call it from their own executor (`terminal(TerminalAction(command=...))`), or share it with
the agent's terminal (`TerminalTool.create(conv_state, executor=terminal)`) so both see the same
shell (its `cd`s and exported variables). Executors are called from worker threads, and the
bash session is asyncio code, so the session lives on an event loop of its own, in a daemon
thread; callers on any thread hand it work and wait.

Commands a custom tool runs here are its own business: the risk rules rate the custom tool's
call (as "other", able to change things, unless its annotations say it only reads), not each
command inside it.
"""

from __future__ import annotations

import asyncio
import threading
from collections.abc import Coroutine
from pathlib import Path
from typing import Any, TypeVar

from openhands_tui.sdk.model import UnsupportedArgument
from openhands_tui.sdk.tool import ToolContext, ToolExecutor
from openhands_tui.tools.terminal.tool import TerminalAction, TerminalObservation, TerminalTool

T = TypeVar("T")


class TerminalExecutor(ToolExecutor[TerminalAction, TerminalObservation]):
    """A persistent bash session in `working_dir`, callable synchronously."""

    def __init__(self, working_dir: str | Path, max_output_bytes: int = 30_000, **unsupported: Any) -> None:
        if unsupported:
            name = sorted(unsupported)[0]
            raise UnsupportedArgument(
                f"TerminalExecutor({name}=...) is not supported by openhands_tui: it takes working_dir "
                "and max_output_bytes"
            )
        context = ToolContext(workspace=Path(working_dir).resolve(), agent_id="terminal-executor")
        self.terminal = TerminalTool(context, max_output_bytes=max_output_bytes)
        self._loop: asyncio.AbstractEventLoop | None = None
        self._lock = threading.Lock()

    def _running_loop(self) -> asyncio.AbstractEventLoop:
        with self._lock:
            if self._loop is None:
                loop = asyncio.new_event_loop()
                threading.Thread(target=loop.run_forever, name="terminal-executor", daemon=True).start()
                self._loop = loop
            return self._loop

    def submit(self, work: Coroutine[Any, Any, T]) -> asyncio.Future[T]:
        """Run `work` on the session's loop; await the returned future from any loop."""
        return asyncio.wrap_future(asyncio.run_coroutine_threadsafe(work, self._running_loop()))

    def __call__(self, action: TerminalAction, conversation: Any = None) -> TerminalObservation:
        if isinstance(action, str):
            action = TerminalAction(command=action)
        try:
            asyncio.get_running_loop()
        except RuntimeError:
            observation = asyncio.run_coroutine_threadsafe(self.terminal.run(action), self._running_loop()).result()
            assert isinstance(observation, TerminalObservation) or observation.is_error
            return observation  # type: ignore[return-value]
        raise RuntimeError("TerminalExecutor() blocks: call it from a tool executor (a worker thread)")

    def close(self) -> None:
        loop = self._loop
        if loop is None:
            return
        try:
            asyncio.run_coroutine_threadsafe(self.terminal.close(), loop).result(timeout=10)
        finally:
            loop.call_soon_threadsafe(loop.stop)
            self._loop = None
