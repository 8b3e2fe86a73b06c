"""A persistent bash session: `cd` and `export` carry over from one command to the next.

Each command is written to a file and sourced (`. file </dev/null`) by a long-lived bash,
then a sentinel line with a per-command nonce reports the exit code and working directory.
Sourcing keeps a syntax error (an unbalanced quote) inside that one command instead of
desynchronising the shell; `</dev/null` keeps commands from eating our input. The shell is
its own process group, so a timeout or an interrupt kills everything the command started;
the shell is then restarted in the last known directory.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import re
import secrets
import shutil
import signal
import tempfile
from dataclasses import dataclass
from pathlib import Path

_ANSI = re.compile(rb"\x1b\[[0-9;?]*[ -/]*[@-~]|\x1b\][^\x07]*\x07")
_READ_SIZE = 65536


@dataclass
class CommandResult:
    output: str
    exit_code: int | None
    cwd: str
    timed_out: bool = False
    omitted_bytes: int = 0
    shell_restarted: bool = False


class _Output:
    """A command's output so far. Past twice the limit, the middle is dropped: the head and
    a generous tail are kept (the tail must still hold the sentinel line when it arrives)."""

    SLACK = 70_000  # more than one read plus the sentinel

    def __init__(self, limit: int) -> None:
        self.limit = limit
        self.buffer = bytearray()
        self.omitted = 0
        self.cut_at = 0

    def add(self, chunk: bytes) -> None:
        self.buffer += chunk
        if len(self.buffer) > 2 * self.limit + self.SLACK:
            head = self.limit // 2
            keep_tail = self.limit // 2 + self.SLACK
            cut = len(self.buffer) - head - keep_tail
            del self.buffer[head : head + cut]
            self.omitted += cut
            self.cut_at = head

    def render(self, end: int | None = None) -> str:
        body = bytes(self.buffer[:end] if end is not None else self.buffer)
        if len(body) > self.limit:  # what is left of the slack: trim to the limit, keep the tail
            extra = len(body) - self.limit
            keep_from = max(self.cut_at, self.limit // 2)
            body = body[:keep_from] + body[keep_from + extra :]
            self.omitted += extra
            self.cut_at = keep_from
        if self.omitted:
            note = f"\n[... {self.omitted:,} bytes of output omitted ...]\n".encode()
            body = body[: self.cut_at] + note + body[self.cut_at :]
        return _clean(body)


class BashSession:
    def __init__(self, workspace: Path, *, max_output_bytes: int = 30_000) -> None:
        self.cwd = str(workspace)
        self.max_output_bytes = max_output_bytes
        self._process: asyncio.subprocess.Process | None = None
        self._scratch = Path(tempfile.mkdtemp(prefix="oht-bash-"))
        self._lock = asyncio.Lock()
        self._counter = 0
        self._output: _Output | None = None

    async def _start(self) -> asyncio.subprocess.Process:
        env = dict(os.environ)
        env.pop("LLM_API_KEY", None)  # the agent's shell has no business with our model's key
        env.update({"PAGER": "cat", "GIT_PAGER": "cat", "TERM": "dumb", "NO_COLOR": "1", "PS1": ""})
        cwd = self.cwd if Path(self.cwd).is_dir() else str(Path.home())
        self._process = await asyncio.create_subprocess_exec(
            "bash",
            "--noprofile",
            "--norc",
            stdin=asyncio.subprocess.PIPE,
            stdout=asyncio.subprocess.PIPE,
            stderr=asyncio.subprocess.STDOUT,
            cwd=cwd,
            env=env,
            start_new_session=True,
        )
        return self._process

    async def run(self, command: str, timeout: float) -> CommandResult:
        async with self._lock:
            restarted = self._process is not None and self._process.returncode is not None
            process = self._process if self._process and self._process.returncode is None else await self._start()
            try:
                result = await asyncio.wait_for(self._exchange(process, command), timeout)
            except TimeoutError:
                await self._kill()
                partial = self._output.render() if self._output is not None else ""
                return CommandResult(partial, None, self.cwd, timed_out=True, shell_restarted=True)
            except asyncio.CancelledError:
                await self._kill()
                raise
            result.shell_restarted = result.shell_restarted or restarted
            return result

    async def _exchange(self, process: asyncio.subprocess.Process, command: str) -> CommandResult:
        assert process.stdin is not None and process.stdout is not None
        self._counter += 1
        script = self._scratch / f"cmd{self._counter}.sh"
        script.write_text(command + "\n")
        nonce = secrets.token_hex(8)
        marker = f"__OHT_DONE_{nonce}__".encode()
        process.stdin.write(
            f'. {_quote(str(script))} </dev/null\n__oht_ec=$?\nprintf "\\n%s %d %s\\n" "{marker.decode()}" '
            f'"$__oht_ec" "$PWD"\n'.encode()
        )
        await process.stdin.drain()
        output = self._output = _Output(self.max_output_bytes)
        while True:
            chunk = await process.stdout.read(_READ_SIZE)
            if not chunk:  # the command ran `exit` (or killed the shell)
                code = await process.wait()
                return CommandResult(
                    output.render(), code, self.cwd, omitted_bytes=output.omitted, shell_restarted=True
                )
            output.add(chunk)
            found = output.buffer.find(marker, max(0, len(output.buffer) - len(chunk) - len(marker)))
            if found < 0:
                continue
            line_end = output.buffer.find(b"\n", found)
            while line_end < 0:
                more = await process.stdout.read(_READ_SIZE)
                if not more:
                    line_end = len(output.buffer)
                    break
                output.buffer += more
                line_end = output.buffer.find(b"\n", found)
            status_line = bytes(output.buffer[found + len(marker) : line_end]).decode(errors="replace").strip()
            code_text, _, cwd = status_line.partition(" ")
            self.cwd = cwd or self.cwd
            end = found
            while end and output.buffer[end - 1 : end] == b"\n":
                end -= 1  # the newline our sentinel printed first, and the command's own last ones
            script.unlink(missing_ok=True)
            exit_code = int(code_text) if code_text.lstrip("-").isdigit() else None
            return CommandResult(output.render(end), exit_code, self.cwd, omitted_bytes=output.omitted)

    async def _kill(self) -> None:
        process, self._process = self._process, None
        if process is None or process.returncode is not None:
            return
        with contextlib.suppress(ProcessLookupError, PermissionError):
            os.killpg(process.pid, signal.SIGKILL)
        with contextlib.suppress(ProcessLookupError):
            process.kill()
        with contextlib.suppress(Exception):
            await asyncio.wait_for(process.wait(), 5)

    async def close(self) -> None:
        await self._kill()
        shutil.rmtree(self._scratch, ignore_errors=True)


def _quote(text: str) -> str:
    return "'" + text.replace("'", "'\\''") + "'"


def _clean(data: bytes) -> str:
    """Decode, drop colour codes, and keep what a terminal would show after carriage returns."""
    text = _ANSI.sub(b"", data).decode("utf-8", errors="replace")
    if "\r" in text:
        text = "\n".join(line.rsplit("\r", 1)[-1] if line.strip("\r") else "" for line in text.split("\n"))
    return text
