"""`tui mcp serve`: our agent as an MCP server on stdio, for another agent (Claude Code, Codex,
an IDE) to hand whole tasks to, as `codex mcp-server` does.

Two tools, on the official SDK's `MCPServer`:
- `run_task(task, strategy?)` starts a session in the workspace `tui mcp serve` was started
  in, runs it to the end and answers with the final message (structured: the session id, how it
  ended, its cost);
- `continue_session(session_id, task)` resumes a stored session of this workspace with a new
  message.

What the client may choose is bounded by whoever started the server: the workspace is fixed at
start (a client cannot point us at `~`), and a strategy is one of the shipped ones or one named
with `--strategy` at start — never a path the client (or a model behind it) wrote, since a
strategy is Python that runs outside the sandbox. Rules, the sandbox and approvals apply as in
any session; approvals go to the client's user (`approvals.py`). Each action of the run is sent
as a progress notification when the client asked for progress. Nothing but protocol is written
to stdout (the SDK points fd 1 at stderr while it serves); each session's log is its `tui.log`.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

from mcp.server.mcpserver import Context, MCPServer
from mcp.server.mcpserver.exceptions import ToolError
from mcp.types import ToolAnnotations

from openhands_tui import __version__
from openhands_tui.launch import LaunchOptions, launch, log_to_session
from openhands_tui.mcp_serve.approvals import ClientConfirmer
from openhands_tui.sdk.errors import OpenHandsTUIError
from openhands_tui.sdk.facts.event import ActionEvent, Event
from openhands_tui.sdk.limits import MAX_INPUT_BYTES, over_the_limit
from openhands_tui.sdk.run.confirmation import ApproveAll, ConfirmationMode, Confirmer
from openhands_tui.sdk.run.outcome import RunOutcome
from openhands_tui.sdk.terminal_text import strip_controls

logger = logging.getLogger(__name__)

SHIPPED = Path(__file__).resolve().parent.parent / "strategies"


@dataclass
class ServeOptions:
    """What the person who started the server chose; each session is launched from `launch`."""

    launch: LaunchOptions
    #: Strategies a client may pick by name (beside the shipped ones): name -> the spec given.
    strategies: dict[str, str] = field(default_factory=dict)


def strategy_names(options: ServeOptions) -> dict[str, str]:
    """Every strategy a client may choose: the shipped ones by name, then those given at start."""
    shipped = {path.stem: path.stem for path in sorted(SHIPPED.glob("*.py")) if not path.stem.startswith("_")}
    return {**shipped, **options.strategies}


def build_server(options: ServeOptions) -> MCPServer:
    names = strategy_names(options)
    default = next(iter(options.strategies), "solo")  # the first named at start, by its name
    server: MCPServer = MCPServer(
        "openhands-tui",
        version=__version__,
        instructions=(
            "Hands a whole coding task to the openhands-tui agent working in "
            f"{options.launch.workspace}; it answers when the task is done."
        ),
    )
    annotations = ToolAnnotations(destructiveHint=True, openWorldHint=True, readOnlyHint=False)

    @server.tool(
        description=(
            "Run a coding task with the openhands-tui agent in its workspace and answer with its final "
            f"message. strategy: one of {', '.join(names)} (default {default}). Risky actions are "
            "put to you for approval."
        ),
        annotations=annotations,
    )
    async def run_task(task: str, ctx: Context[Any, Any], strategy: str = "") -> dict[str, Any]:
        name = strategy.strip() or default
        answer = await _run(replace(options.launch, strategy=_chosen(names, name), task=None), task, ctx)
        return {**answer, "strategy": name}

    @server.tool(
        description="Continue a session run_task started (its session_id) with a new message.",
        annotations=annotations,
    )
    async def continue_session(session_id: str, task: str, ctx: Context[Any, Any]) -> dict[str, Any]:
        _check_session(options.launch, session_id)
        return await _run(replace(options.launch, resume=session_id, strategy=None, task=None), task, ctx)

    return server


def _chosen(names: dict[str, str], name: str) -> str | None:
    """The spec of strategy `name`, if it is offered (None: the built-in solo)."""
    if name not in names:
        raise ToolError(f"strategy: {name[:80]!r} is not offered here (have: {', '.join(names)})")
    spec = names[name]
    return None if spec == "solo" else spec


def _check_session(options: LaunchOptions, session_id: str) -> None:
    """A stored session of this server's workspace (a client does not reach the user's other
    projects through their sessions)."""
    from openhands_tui.sdk.facts.store import SessionStore

    if not session_id.strip() or "/" in session_id or session_id.startswith("."):
        raise ToolError(f"session_id: {session_id[:80]!r} is not a session id")
    try:
        meta = SessionStore(options.state_dir).open(session_id).meta
    except OpenHandsTUIError as exc:
        raise ToolError(str(exc)) from None
    if options.workspace is None or Path(meta.workspace) != options.workspace:
        raise ToolError(f"session_id: {session_id} is not a session of {options.workspace}")


async def _run(options: LaunchOptions, task: str, ctx: Any) -> dict[str, Any]:
    """One session, launched, run to its end and closed; the answer says how it ended."""
    if not task.strip():
        raise ToolError("task: empty")
    if over_the_limit(task):
        raise ToolError(f"task: over the {MAX_INPUT_BYTES:,}-byte limit; nothing was run")
    confirmer: Confirmer = ApproveAll() if options.confirm is ConfirmationMode.NEVER else ClientConfirmer(ctx)
    progress = _Progress(ctx)
    try:
        launched = launch(options, confirmer=confirmer, subscribers=[progress.seen])
    except OpenHandsTUIError as exc:
        raise ToolError(str(exc)) from None
    log_to_session(launched)
    conversation = launched.conversation
    try:
        outcome: RunOutcome = await conversation.run(task, launched.inputs)
    finally:
        await conversation.close()
        await progress.close()
    tree = conversation.runtime.tree
    return {
        "session_id": launched.log.id,
        "status": outcome.status.value,
        "exit_code": outcome.exit_code,
        "result": strip_controls(outcome.result),
        "detail": strip_controls(outcome.detail),
        "cost": tree.subtree_cost(tree.root_id) if tree.root_id else 0.0,
    }


class _Progress:
    """Each action of the run, as a progress notification on the call (when the client gave a
    progress token; the SDK sends nothing otherwise), in order, never holding the run up."""

    def __init__(self, ctx: Any) -> None:
        self.ctx = ctx
        self.count = 0
        self._queue: asyncio.Queue[tuple[int, str]] = asyncio.Queue()
        self._sender = asyncio.ensure_future(self._send())

    def seen(self, event: Event) -> None:
        if isinstance(event, ActionEvent):
            self.count += 1
            self._queue.put_nowait((self.count, strip_controls(f"{event.agent_id}: {event.summary}")[:200]))

    async def _send(self) -> None:
        while True:
            step, message = await self._queue.get()
            try:
                await self.ctx.report_progress(step, None, message)
            except Exception:  # the client went away mid-run: the run ends soon; nothing to tell
                logger.debug("could not send progress", exc_info=True)

    async def close(self) -> None:
        self._sender.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await self._sender


async def serve(options: ServeOptions) -> None:
    """Answer one MCP client on stdin/stdout until it closes the connection."""
    await build_server(options).run_stdio_async()
