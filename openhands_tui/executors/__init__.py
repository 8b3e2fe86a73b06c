"""Where an agent's commands and file operations are carried out (see `base.py`).

`executor_for` is the one place that picks: the agent's `ExecutorSpec` (sdk/executor.py, from
`--executor` or `Agent(executor=...)`) names this machine or an agent-server; the session's
sandbox policy says whether this machine's shell is jailed.
"""

from __future__ import annotations

from openhands_tui.executors.base import CommandResult, Executor, ExecutorError, FileInfo, Shell
from openhands_tui.sdk.tool import ToolContext

__all__ = ["CommandResult", "Executor", "ExecutorError", "FileInfo", "Shell", "executor_for", "workspace_changes"]


def executor_for(ctx: ToolContext) -> Executor:
    """The executor of the agent `ctx` serves."""
    if ctx.executor.remote:
        from openhands_tui.executors.agent_server import AgentServerExecutor

        return AgentServerExecutor(ctx)
    from openhands_tui.executors.local import LocalExecutor

    return LocalExecutor(ctx)


async def workspace_changes(ctx: ToolContext) -> str | None:
    """The changes in the workspace of the agent `ctx` serves, read where it works (the port the
    engine's critics read a remote agent's diff through: `ConversationParts.workspace_changes`)."""
    return await executor_for(ctx).changes()
