"""The `terminal` on an OpenHands agent-server (an agent whose executor is one: sdk/executor.py):
the local terminal's name, arguments and subject, so the rules rate its commands as they rate
local ones (against the agent's workspace, a folder on the server) and approvals are asked the
same way; carried out by the server's shell (`tools/agent_server/shell.py`). Background jobs are
not offered there, and the local jail does not apply: the server is the wall.
"""

from __future__ import annotations

from openhands_tui.sdk.facts.subject import ShellCommand
from openhands_tui.sdk.tool import Observation, ToolContext, ToolDefinition
from openhands_tui.tools.agent_server.client import RemoteError, server_client
from openhands_tui.tools.agent_server.shell import RemoteShell
from openhands_tui.tools.terminal.actions import DEFAULT_TIMEOUT, MAX_TIMEOUT, TerminalAction, TerminalObservation

#: Longest output given back (its head and tail), as the local terminal's default.
MAX_OUTPUT_CHARS = 30_000


class RemoteTerminalTool(ToolDefinition[TerminalAction]):
    name = "terminal"
    description = (
        "Run a command in a bash shell on the agent's server, in its workspace, and get its output, exit "
        "code and working directory (`cd` and exported variables carry over). Long output keeps its "
        "beginning and end. Background jobs are not available here."
    )
    action_type = TerminalAction

    def __init__(self, ctx: ToolContext) -> None:
        self.shell = RemoteShell(server_client(ctx), str(ctx.workspace))

    def subject(self, action: TerminalAction) -> ShellCommand:
        return ShellCommand(command=action.command, cwd=self.shell.cwd)

    def summarize(self, action: TerminalAction) -> str:
        return "$ " + action.command.strip()

    async def run(self, action: TerminalAction) -> Observation:
        command = action.command.strip()
        if not command:
            return Observation(text="The command is empty; nothing was run.", is_error=True)
        if action.background:
            return Observation(text="Background jobs are not available on the agent-server.", is_error=True)
        timeout = min(action.timeout or DEFAULT_TIMEOUT, MAX_TIMEOUT)
        try:
            result = await self.shell.run(command, timeout)
        except RemoteError as exc:
            return Observation(text=str(exc), is_error=True)
        output, omitted = _bounded(result.output)
        status = "timed out" if result.timed_out else f"exit code {result.exit_code}"
        text = output + ("\n" if output and not output.endswith("\n") else "") + f"[{status} · cwd {result.cwd}]"
        return TerminalObservation(
            text=text,
            output=output,
            is_error=result.timed_out or result.exit_code != 0,
            command=command,
            exit_code=result.exit_code,
            cwd=result.cwd,
            timed_out=result.timed_out,
            omitted_bytes=omitted,
        )

    async def close(self) -> None:
        await self.shell.close()


def _bounded(text: str) -> tuple[str, int]:
    if len(text) <= MAX_OUTPUT_CHARS:
        return text, 0
    half = MAX_OUTPUT_CHARS // 2
    omitted = len(text) - 2 * half
    return f"{text[:half]}\n[... {omitted:,} characters omitted ...]\n{text[-half:]}", omitted
