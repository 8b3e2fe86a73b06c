"""A persistent shell on an agent-server, emulated: the server runs each command in a fresh
`/bin/sh`, but agents expect bash whose `cd` and `export` carry over from one call to the next.

Each command goes as one request: a bash script, base64-encoded (so no quoting of the agent's
text can break out of it), that restores the variables the last command exported and its
working folder, runs the command with stdin closed, then saves the exported variables to a file
of this shell's own in the server's /tmp and prints the working folder after a marker no command
can guess. The marker line is cut from the output. One round trip a command; the per-command
overhead against the local jail is measured by tests/bench/bench_executor.py.
"""

from __future__ import annotations

import base64
import secrets
import shlex
import time

from openhands_tui.executors.agent_server.client import AgentServerClient
from openhands_tui.executors.base import CommandResult, Shell


class RemoteShell(Shell):
    def __init__(self, client: AgentServerClient, workspace: str, max_output_bytes: int = 30_000) -> None:
        self.client = client
        self.max_output_chars = max_output_bytes
        self.workspace = workspace
        self.cwd = workspace
        token = secrets.token_hex(8)
        self._marker = f"__TUI_CWD_{token}__"
        self._state = f"/tmp/.tui-shell-{token}.env"

    def script(self, command: str) -> str:
        state, marker = shlex.quote(self._state), shlex.quote(self._marker)
        return (
            f"[ -f {state} ] && . {state} 2>/dev/null\n"
            f"cd {shlex.quote(self.cwd)} 2>/dev/null || cd {shlex.quote(self.workspace)}\n"
            f"{{\n{command}\n}} < /dev/null\n"
            "__tui_status=$?\n"
            f"declare -px > {state} 2>/dev/null\n"
            f"printf '\\n%s%s\\n' {marker} \"$(pwd)\"\n"
            "exit $__tui_status\n"
        )

    async def run(self, command: str, timeout: float) -> CommandResult:
        encoded = base64.b64encode(self.script(command).encode()).decode()
        started = time.monotonic()
        ran = await self.client.run(f"printf %s {encoded} | base64 -d | bash", None, timeout)
        elapsed = time.monotonic() - started
        stdout, cwd = self._cut_marker(ran.stdout)
        if cwd:
            self.cwd = cwd
        output = stdout + (("\n" if stdout and not stdout.endswith("\n") else "") + ran.stderr if ran.stderr else "")
        timed_out = ran.exit_code < 0 and elapsed >= timeout - 1
        output, omitted = _bounded(output, self.max_output_chars)
        return CommandResult(output, None if timed_out else ran.exit_code, self.cwd, timed_out, omitted)

    def _cut_marker(self, stdout: str) -> tuple[str, str]:
        at = stdout.rfind(self._marker)
        if at < 0:
            return stdout, ""
        cwd = stdout[at + len(self._marker) :].strip()
        return stdout[:at].removesuffix("\n"), cwd

    async def close(self) -> None:
        try:
            await self.client.run(f"rm -f {shlex.quote(self._state)}", None, 10)
        except Exception:  # the server went away: its /tmp file is its own business
            return


def _bounded(text: str, limit: int) -> tuple[str, int]:
    """Its head and tail when longer than `limit` characters, and how many were left out."""
    if len(text) <= limit:
        return text, 0
    half = limit // 2
    omitted = len(text) - 2 * half
    return f"{text[:half]}\n[... {omitted:,} characters omitted ...]\n{text[-half:]}", omitted
