"""A persistent bash session: `cd` and `export` carry over from one command to the next.

Each command is written to a file and sourced (`. file </dev/null`) by a long-lived bash,
then a sentinel line with a per-command nonce reports the exit code and working directory.
Sourcing keeps a syntax error (an unbalanced quote) inside that one command instead of
desynchronising the shell; `</dev/null` keeps commands from eating our input. The shell is
its own process group, so a timeout or an interrupt kills everything the command started;
the shell is then restarted in the last known directory.

After every command, shell state that would run code later — traps, `PROMPT_COMMAND`, `PS4`
with `set -x`, aliases, functions, `BASH_ENV`, `LD_PRELOAD`, git's config, pager and ssh
variables — is reset, so an innocent-looking later command cannot fire something an earlier
one planted (whatever fires while that command itself winds down is part of that command,
and was rated with it). With a jail (the sandbox), the shell runs inside bubblewrap. A command the
user allowed more than the sandbox gives runs once in its own wider jail, with the shell's
directory and exported variables.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import secrets
import shutil
import signal
import tempfile
from pathlib import Path

from openhands_tui.executors.base import CommandResult, Shell
from openhands_tui.executors.local.jobs import Job, JobTable
from openhands_tui.executors.local.output import BoundedOutput
from openhands_tui.executors.local.processes import descendants as _descendants
from openhands_tui.executors.local.shell_reset import NON_INTERACTIVE, reset_script
from openhands_tui.executors.local.shell_reset import shell_quote as _quote
from openhands_tui.jail import evidence
from openhands_tui.jail.jail import Jail
from openhands_tui.jail.shell_binary import bash_binary
from openhands_tui.sdk.sandbox import SandboxGrant

_READ_SIZE = 65536
#: A copy of the shell's output pipe, made when it starts: a command that redirects the shell's
#: own output (`exec >/dev/null`) would otherwise swallow the sentinel, and the tool would wait
#: for it until the timeout. After each command, output goes back to the pipe.
_SAVED_OUTPUT = 19
_RESTORE_OUTPUT = f"exec 1>&{_SAVED_OUTPUT} 2>&{_SAVED_OUTPUT} || exit 125  # closed too: restart"


class BashSession(Shell):
    def __init__(
        self,
        workspace: Path,
        *,
        max_output_bytes: int = 30_000,
        jail: Jail | None = None,
        environment: dict[str, str] | None = None,
    ) -> None:
        self.cwd = str(workspace)
        self.max_output_bytes = max_output_bytes
        self.jail = jail
        self.environment = dict(os.environ if environment is None else environment)
        self._process: asyncio.subprocess.Process | None = None
        self._scratch_dir: Path | None = None
        self._lock = asyncio.Lock()
        self._counter = 0
        self._output: BoundedOutput | None = None
        #: Protected paths as the last check left them, and whether a process the command
        #: started was still running then (it could change them before the next check).
        self._settled: dict[Path, tuple[int, int] | None] | None = None
        self._lingering = False
        self._inside: tuple[int, int] | None = None
        #: Failed outbound attempts the jail's network namespace had counted after the last command.
        self._outbound = 0
        self._reset = reset_script(self._env())
        #: Commands started in the background from this shell (`start_job`).
        self.jobs = JobTable(max_output_bytes)

    @property
    def _scratch(self) -> Path:
        """Where command scripts go; made on first use, so an agent that never runs a command
        leaves no empty `oht-bash-*` directory behind."""
        if self._scratch_dir is None:
            self._scratch_dir = Path(tempfile.mkdtemp(prefix="oht-bash-"))
        return self._scratch_dir

    def _env(self) -> dict[str, str]:
        env = {**self.environment, **NON_INTERACTIVE}
        if self.jail is not None:  # the jail's /tmp is private and writable: caches go there
            env.setdefault("XDG_CACHE_HOME", "/tmp/.cache")
            env.setdefault("npm_config_cache", "/tmp/.npm")
        return env

    async def _start(self) -> asyncio.subprocess.Process:
        cwd = self.cwd if Path(self.cwd).is_dir() else str(Path.home())
        prefix = self.jail.argv(cwd, [self._scratch], scratch=self._scratch) if self.jail is not None else _LIFELINE
        self._process = await asyncio.create_subprocess_exec(
            *prefix,
            bash_binary(),
            "--noprofile",
            "--norc",
            stdin=asyncio.subprocess.PIPE,
            stdout=asyncio.subprocess.PIPE,
            stderr=asyncio.subprocess.STDOUT,
            cwd=cwd,
            env=self._env(),
            start_new_session=True,
        )
        assert self._process.stdin is not None
        self._process.stdin.write(f"exec {_SAVED_OUTPUT}>&1\n".encode())  # where the sentinel goes back to
        return self._process

    def _undo_background_changes(self) -> list[str]:
        """What a process left running by an earlier command did to protected paths since the
        last check (between commands, while the model thinks): undone like a command's own."""
        if self.jail is None or not self._lingering or self._settled is None:
            return []
        return self.jail.protected.check(self._settled, spare_editor=True)

    def _settle(self) -> None:
        if self.jail is None:
            return
        self._settled = dict(self.jail.protected.settled)  # as the check just left them
        process = self._process
        self._lingering = process is not None and process.returncode is None and _jailed_processes(process.pid) > 1

    async def run(self, command: str, timeout: float) -> CommandResult:
        async with self._lock:
            earlier = self._undo_background_changes()
            # One look at the protected paths serves twice: whether the jail is stale, and what
            # they were before the command (each look is ~0.7 ms on a real project).
            before = self.jail.protected.snapshot() if self.jail is not None else {}
            if self.jail is not None and (
                self.jail.protected.stale(before) or self.jail.view_outdated() or self.jail.mode_changed()
            ):
                await self._rebuild()  # a protected file appeared, or plan mode switched: new binds
                before = self.jail.protected.snapshot()
            restarted = self._process is not None and self._process.returncode is not None
            process = self._process if self._process and self._process.returncode is None else await self._start()
            inside = self._inside_pid(process)
            # as the last command left them (one read per command); a new shell's start at 0
            outbound = self._outbound if self._inside is not None and self._inside[0] == process.pid else 0
            try:
                result = await asyncio.wait_for(self._exchange(process, command), timeout)
            except TimeoutError:
                await self._kill()
                partial = self._output.render() if self._output is not None else ""
                result = CommandResult(partial, None, self.cwd, timed_out=True, shell_restarted=True)
            except asyncio.CancelledError:
                await self._kill()
                raise
            finally:
                if self.jail is not None:
                    undone = earlier + self.jail.protected.check(before) + self.jail.undo_new_startup_files()
                    self._settle()
            result.shell_restarted = result.shell_restarted or restarted
            if self.jail is not None:
                result.undone = undone
                inside = inside or self._inside_pid(process)  # a new shell: its counters started at 0
                if inside is not None and process.returncode is None and self._process is process:
                    result.jail_pid = inside
                    self._outbound = evidence.failed_outbound(inside)
                    result.failed_outbound = self._outbound - outbound
            return result

    def _inside_pid(self, process: asyncio.subprocess.Process) -> int | None:
        """The shell's pid inside the jail (found once per shell; the first command may find it
        still starting, and then looks again)."""
        if self.jail is None:
            return None
        if self._inside is None or self._inside[0] != process.pid:
            found = evidence.inside_pid(process.pid)
            if found is None:
                return None
            self._inside = (process.pid, found)
        return self._inside[1]

    async def run_granted(self, command: str, timeout: float, grant: SandboxGrant) -> CommandResult:
        """Run one command in a wider jail (`grant`), where the shell is and with its exported
        variables; `cd` and `export` inside it do not carry over."""
        assert self.jail is not None, "a grant widens a sandbox; there is none"
        async with self._lock:
            state = self._scratch / "state.sh"
            state.unlink(missing_ok=True)
            if self._process is not None and self._process.returncode is None:
                with contextlib.suppress(TimeoutError):
                    await asyncio.wait_for(self._exchange(self._process, f"export -p > {_quote(str(state))}"), 10)
            self._counter += 1
            script = self._scratch / f"granted{self._counter}.sh"
            script.write_text(command + "\n")
            lines = [f". {_quote(str(state))} 2>/dev/null", self._reset, f"cd {_quote(self.cwd)} 2>/dev/null"]
            body = "\n".join([*lines, f". {_quote(str(script))} </dev/null", ""])
            earlier = self._undo_background_changes()
            before = self.jail.protected.snapshot()
            process = await asyncio.create_subprocess_exec(
                *self.jail.argv(self.cwd, [self._scratch], grant, scratch=self._scratch),
                bash_binary(),
                "--noprofile",
                "--norc",
                "-c",
                body,
                stdin=asyncio.subprocess.DEVNULL,
                stdout=asyncio.subprocess.PIPE,
                stderr=asyncio.subprocess.STDOUT,
                env=self._env(),
                start_new_session=True,
            )
            output = BoundedOutput(self.max_output_bytes)
            try:
                code = await asyncio.wait_for(_collect(process, output), timeout)
                timed_out = False
            except TimeoutError:
                code, timed_out = None, True
            finally:
                await _kill_group(process)
            undone = earlier + self.jail.protected.check(before) + self.jail.undo_new_startup_files()
            self._settle()
            shown = _as_bash(output.render(), script)
            return CommandResult(
                shown, code, self.cwd, timed_out=timed_out, omitted_bytes=output.omitted, undone=undone
            )

    async def _rebuild(self) -> None:
        """Restart the jailed shell (new binds), keeping its directory and exported variables."""
        state = self._scratch / "state.sh"
        state.unlink(missing_ok=True)
        if self._process is not None and self._process.returncode is None:
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self._exchange(self._process, f"export -p > {_quote(str(state))}"), 10)
        await self._kill()
        process = await self._start()
        if state.exists():
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self._exchange(process, f". {_quote(str(state))} 2>/dev/null"), 10)

    async def _exchange(self, process: asyncio.subprocess.Process, command: str) -> CommandResult:
        assert process.stdin is not None and process.stdout is not None
        self._counter += 1
        script = self._scratch / f"cmd{self._counter}.sh"
        script.write_text(command + "\n")
        nonce = secrets.token_hex(8)
        marker = f"__OHT_DONE_{nonce}__".encode()
        process.stdin.write(
            f". {_quote(str(script))} </dev/null\n__oht_ec=$?\n{_RESTORE_OUTPUT}\n{self._reset}\n"
            f'printf "\\n%s %d %s\\0\\n" "{marker.decode()}" '  # NUL ends the folder: a path may hold a newline
            f'"$__oht_ec" "$PWD"\n'.encode()
        )
        await process.stdin.drain()
        output = self._output = BoundedOutput(self.max_output_bytes)
        while True:
            chunk = await process.stdout.read(_READ_SIZE)
            if not chunk:  # the command ran `exit` (or killed the shell)
                code = await process.wait()
                shown = _as_bash(output.render(), script)
                return CommandResult(shown, code, self.cwd, omitted_bytes=output.omitted, shell_restarted=True)
            output.add(chunk)
            found = output.buffer.find(marker, max(0, len(output.buffer) - len(chunk) - len(marker)))
            if found < 0:
                continue
            line_end = output.buffer.find(b"\0\n", found)
            while line_end < 0:
                more = await process.stdout.read(_READ_SIZE)
                if not more:
                    line_end = len(output.buffer)
                    break
                output.buffer += more
                line_end = output.buffer.find(b"\0\n", found)
            status_line = bytes(output.buffer[found + len(marker) + 1 : line_end]).decode(errors="surrogateescape")
            code_text, _, cwd = status_line.partition(" ")
            self.cwd = cwd or self.cwd
            end = found
            while end and output.buffer[end - 1 : end] == b"\n":
                end -= 1  # the newline our sentinel printed first, and the command's own last ones
            script.unlink(missing_ok=True)
            exit_code = int(code_text) if code_text.lstrip("-").isdigit() else None
            return CommandResult(
                _as_bash(output.render(end), script), exit_code, self.cwd, omitted_bytes=output.omitted
            )

    async def _kill(self) -> None:
        process, self._process = self._process, None
        if process is None:
            return
        if self.jail is None:  # no PID namespace to take them along: find what the shell started
            for pid in _descendants(process.pid):
                with contextlib.suppress(ProcessLookupError, PermissionError):
                    os.kill(pid, signal.SIGKILL)
        await _kill_group(process)

    async def start_job(self, command: str) -> tuple[Job | None, CommandResult]:
        """Launch `command` in the background from the shell itself: its jail, namespaces and
        environment (`jobs.py`). None and the launch's result when it could not start."""
        job, line = self.jobs.prepare(command, self._scratch)
        result = await self.run(line, 30)
        return (job if self.jobs.started(job, result.output) else None), result

    @property
    def shell_pid(self) -> int | None:
        process = self._process
        return process.pid if process is not None and process.returncode is None else None

    async def close(self) -> None:
        await asyncio.to_thread(self.jobs.stop_all, self.shell_pid)
        await self._kill()
        self.jobs.release_readers()
        self._undo_background_changes()  # nothing runs any more: what it left must not outlive us
        if self._scratch_dir is not None:
            shutil.rmtree(self._scratch_dir, ignore_errors=True)
            self._scratch_dir = None


async def _collect(process: asyncio.subprocess.Process, output: BoundedOutput) -> int:
    assert process.stdout is not None
    while chunk := await process.stdout.read(_READ_SIZE):
        output.add(chunk)
    return await process.wait()


async def _kill_group(process: asyncio.subprocess.Process) -> None:
    """Kill the process and everything in its group (a jail takes its namespace with it)."""
    if process.returncode is not None:
        return
    with contextlib.suppress(ProcessLookupError, PermissionError):
        os.killpg(process.pid, signal.SIGKILL)
    with contextlib.suppress(ProcessLookupError):
        process.kill()
    with contextlib.suppress(Exception):
        await asyncio.wait_for(process.wait(), 5)


#: Without the sandbox: the shell is killed if `tui` dies, even by SIGKILL (util-linux setpriv).
_LIFELINE = ["setpriv", "--pdeathsig", "KILL"] if shutil.which("setpriv") else []


def _jailed_processes(root: int) -> int:
    """How many processes run in the jail under `root` (bwrap itself not counted): 1 is the
    idle shell; more means a command left something running in the background."""
    count, frontier = 0, [root]
    while frontier:  # each process's own children list: a few small reads, not a scan of /proc
        pid = frontier.pop()
        try:
            tasks = os.listdir(f"/proc/{pid}/task")
            children = [int(c) for t in tasks for c in Path(f"/proc/{pid}/task/{t}/children").read_text().split()]
        except (OSError, ValueError):
            return sum(_name(p) != "bwrap" for p in _descendants(root))  # no children files here
        for child in children:
            count += _name(child) != "bwrap"
            frontier.append(child)
    return count


def _name(pid: int) -> str:
    try:
        return Path(f"/proc/{pid}/comm").read_text().strip()
    except OSError:
        return ""


def _as_bash(text: str, script: Path) -> str:
    """Bash names our scratch file in its errors (`/tmp/oht-bash-x/cmd3.sh: line 1: ...`); the
    model wrote a command, not that file: say `bash: line 1: ...` as an interactive shell would."""
    return text.replace(f"{script}: ", "bash: ")
