"""The `terminal` tool: run a shell command in the agent's persistent shell, opened by its
executor (`executors/`): on this machine inside the session's sandbox (unless the user turned
it off), with an environment that holds no secrets, or on its agent-server. The tool's name,
arguments and subject are the same wherever it runs, so the rules rate it and approvals are
asked the same way."""

from __future__ import annotations

import asyncio
from typing import Any

from openhands_tui.executors import Shell, executor_for
from openhands_tui.executors.base import CommandResult
from openhands_tui.executors.local.shell import BashSession
from openhands_tui.jail.jail import Jail
from openhands_tui.sdk.facts.subject import ShellCommand
from openhands_tui.sdk.sandbox import SandboxGrant
from openhands_tui.sdk.tool import Observation, ToolContext, ToolDefinition
from openhands_tui.tools.terminal.actions import DEFAULT_TIMEOUT as DEFAULT_TIMEOUT
from openhands_tui.tools.terminal.actions import MAX_TIMEOUT as MAX_TIMEOUT
from openhands_tui.tools.terminal.actions import TerminalAction as TerminalAction
from openhands_tui.tools.terminal.actions import TerminalObservation as TerminalObservation
from openhands_tui.tools.terminal.jobs_tool import JobsTool, job_reporter, start_in_background


class TerminalTool(ToolDefinition[TerminalAction]):
    name = "terminal"
    description = (
        "Run a command in a persistent bash shell in the workspace and get its combined "
        "stdout/stderr, exit code and working directory. Long output keeps its beginning and end."
    )
    action_type = TerminalAction

    def __init__(self, ctx: ToolContext, max_output_bytes: int = 30_000, executor: Any = None) -> None:
        #: A TerminalExecutor whose shell this tool shares (the SDK's `create(..., executor=)`).
        self.shared = executor
        if executor is not None:
            self.session: Shell = executor.terminal.session
            self.jail: Jail | None = self.session.jail
            if self.jail is not None:  # the agent's commands run in that shell: it guards this session's files
                self.jail.protected.trusted = ctx.trusted
                self.jail.protected.editor_writes = ctx.editor_writes
                self.jail.held_read_only = ctx.read_only
            return
        # the agent's executor (executors/): this machine, jailed or not, or an agent-server
        self.session = executor_for(ctx).open_shell(max_output_bytes)
        self.jail = self.session.jail
        if self.session.jobs is None:
            self.description = self.description + " Background jobs are not available here."
        elif ctx.report is not None:  # its jobs' starts and ends, for the app and the log
            self.session.jobs.on_change = job_reporter(ctx.report, ctx.agent_id)

    @classmethod
    def create(cls, conv_state: Any = None, executor: Any = None, **params: Any) -> list[ToolDefinition[Any]]:
        """The SDK's factory. With `executor=` (a TerminalExecutor) the agent's terminal and the
        custom tools holding that executor share one shell."""
        unknown = sorted(set(params) - {"max_output_bytes"})
        if unknown:
            raise ValueError(f"TerminalTool takes max_output_bytes, not {unknown[0]!r}")
        if executor is None:  # the terminal, and the `jobs` tool for its background jobs
            return create_terminal(params, conv_state.context)
        # as in the SDK, one tool: the shell is the custom tool's too
        return [cls(conv_state.context, int(params.get("max_output_bytes", 30_000)), executor=executor)]

    @property
    def confines_read_only(self) -> bool:
        """Whether its commands run in a jail that holds the workspace read-only in plan mode
        (none does with `--sandbox off`: the terminal is then refused while planning)."""
        return self.jail is not None

    def plan_schema(self) -> dict[str, Any] | None:
        return self.schema if self.confines_read_only else None

    def subject(self, action: TerminalAction) -> ShellCommand:
        """The command, run where the shell is now (`cd` carries over between calls)."""
        return ShellCommand(command=action.command, cwd=self.session.cwd)

    def summarize(self, action: TerminalAction) -> str:
        return "$ " + action.command.strip()

    async def run(self, action: TerminalAction) -> Observation:
        return await self._run(action, None)

    async def run_granted(self, action: TerminalAction, grant: SandboxGrant) -> Observation:
        if self.jail is None:
            return await self._run(action, None)
        return await self._run(action, grant)

    async def _run(self, action: TerminalAction, grant: SandboxGrant | None) -> Observation:
        command = action.command.strip()
        if not command:
            return Observation(text="The command is empty; nothing was run.", is_error=True)
        timeout = min(action.timeout or DEFAULT_TIMEOUT, MAX_TIMEOUT)
        if self.shared is not None:  # the shell lives on the executor's loop
            return await self.shared.submit(self.shared.terminal._run(action, grant))
        if action.background:
            if self.session.jobs is None:
                return Observation(text="Background jobs are not available where this agent runs.", is_error=True)
            if grant is not None:
                return Observation(
                    text="A background job runs in the shell's own sandbox; this command needs a wider one. "
                    "Run it in the foreground instead.",
                    is_error=True,
                )
            assert isinstance(self.session, BashSession)
            return await start_in_background(self.session, command)
        if grant is not None:
            assert isinstance(self.session, BashSession)  # a grant widens a jail, which only it has
            result = await self.session.run_granted(command, timeout, grant)
        else:
            result = await self.session.run(command, timeout)
        return self._observe(command, timeout, result, grant)

    def _observe(
        self, command: str, timeout: float, result: CommandResult, grant: SandboxGrant | None
    ) -> TerminalObservation:
        notes = []
        if result.timed_out:
            notes.append(
                f"The command timed out after {timeout:g}s and was killed with everything it started. "
                f"The shell was restarted in {result.cwd}; variables exported earlier are gone."
            )
        elif result.shell_restarted:
            notes.append(f"The shell exited and was restarted in {result.cwd}.")
        if grant is not None:
            notes.append("It ran once in a wider sandbox; `cd` and `export` in it do not carry over.")
        if result.undone:
            notes.append(
                f"The sandbox undid what this command did to {', '.join(result.undone)}: agent instructions, "
                "rules, git hooks and config, and CI files change only through the file editor, which asks the user."
            )
        status = "timed out" if result.timed_out else f"exit code {result.exit_code}"
        text = result.output
        text += ("\n" if text and not text.endswith("\n") else "") + f"[{status} · cwd {result.cwd}]"
        if notes:
            text += "\n" + "\n".join(notes)
        denial = None
        if self.jail is not None and not result.timed_out:
            denial = self.jail.denial(
                result.output,
                result.exit_code,
                result.cwd,
                grant,
                pid=result.jail_pid,
                failed_outbound=result.failed_outbound,
                command=command,
            )
        return TerminalObservation(
            text=text,
            output=result.output,
            is_error=result.timed_out or result.exit_code != 0 or bool(result.undone),
            command=command,
            exit_code=result.exit_code,
            cwd=result.cwd,
            timed_out=result.timed_out,
            omitted_bytes=result.omitted_bytes,
            sandbox_denial=denial,
        )

    async def close(self) -> None:
        if self.shared is not None:
            await asyncio.to_thread(self.shared.close)
        else:
            await self.session.close()


def create_terminal(params: dict[str, Any], ctx: ToolContext) -> list[ToolDefinition[Any]]:
    """The terminal and, where its shell has background jobs, the `jobs` tool that manages them."""
    terminal = TerminalTool(ctx, max_output_bytes=int(params.get("max_output_bytes", 30_000)))
    if not isinstance(terminal.session, BashSession):
        return [terminal]
    return [terminal, JobsTool(terminal.session)]
