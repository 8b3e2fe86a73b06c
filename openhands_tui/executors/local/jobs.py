"""Background jobs: commands the agent's shell started and did not wait for.

A job is launched *by the persistent shell itself* (`guard ... > fifo &`), so it runs in the
same jail — the same PID and network namespaces (a server it starts answers the next
command on loopback), the same view, limits and secret-free environment — and is rated as
the same command run in the foreground.

Each job runs under a small bash guard (`_GUARD`), started with `setpriv --pdeathsig TERM`:
the job itself is a process group of its own (`setsid`), and when the shell that started the
guard dies — the session closed, `tui` killed even by SIGKILL (the shell has its own
parent-death signal, or the jail's `--die-with-parent` takes the whole PID namespace) — the
guard's trap sends SIGTERM to that group and SIGKILL after a grace. With the sandbox the PID
namespace already guarantees it; with `--sandbox off` the guard is what does.

Output goes through a FIFO in our scratch folder to a reader thread here, into a bounded
buffer per job (`BoundedOutput`: head and tail kept); nothing is written to disk and memory
stays capped however much a job prints. The guard's last line (a marker with a per-job
nonce) carries the exit code.
"""

from __future__ import annotations

import contextlib
import os
import secrets
import shutil
import signal
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

from openhands_tui.executors.local.output import BoundedOutput, clean_output
from openhands_tui.executors.local.processes import descendants as _descendants
from openhands_tui.executors.local.shell_reset import shell_quote

#: Seconds between SIGTERM and SIGKILL when a job is stopped.
GRACE_SECONDS = 3
#: How much of a job's last output is kept for its end (the observation and the event).
_TAIL_BYTES = 2048

#: $1 the job's script, $2 the end marker, $3 the grace in seconds. The job is its own session
#: and process group; on TERM/HUP/INT (our stop, or the shell's death via the parent-death
#: signal) the guard ends that group and every process below it (a `setsid` escapee is still
#: its descendant while the tree stands), politely first.
_GUARD = """\
marker=$2 grace=$3
below() { for c in $(pgrep -P "$1" 2>/dev/null); do below "$c"; echo "$c"; done; }
end() {
  tree=$(below $$); kill -TERM -- -"$pg" $tree 2>/dev/null; n=0
  while [ "$n" -lt $((grace * 10)) ] && kill -0 -- -"$pg" 2>/dev/null; do sleep 0.1; n=$((n + 1)); done
  kill -KILL -- -"$pg" $tree $(below $$) 2>/dev/null; printf '\\n%s %d\\n' "$marker" 143; exit 143
}
trap end TERM HUP INT
setsid bash --noprofile --norc -c '. "$1" </dev/null' job "$1" &
pg=$!
wait "$pg"
code=$?
printf '\\n%s %d\\n' "$marker" "$code"
"""


@dataclass
class Job:
    """One background command and what it printed that the model has not read yet."""

    id: str
    command: str
    fifo: Path
    marker: str
    limit: int
    started: float = field(default_factory=time.monotonic)
    ended: float | None = None
    exit_code: int | None = None
    stopped: bool = False
    #: The guard's pid as the shell saw it (inside the jail's PID namespace, if any).
    inside_pid: int | None = None
    unread: BoundedOutput = field(init=False)
    tail: bytearray = field(default_factory=bytearray)
    done: threading.Event = field(default_factory=threading.Event)
    lock: threading.Lock = field(default_factory=threading.Lock)
    new_data: threading.Event = field(default_factory=threading.Event)

    def __post_init__(self) -> None:
        self.unread = BoundedOutput(self.limit)

    @property
    def state(self) -> str:
        if self.ended is None:
            return "running"
        return "stopped" if self.stopped else "exited"

    def runtime(self) -> float:
        return (self.ended or time.monotonic()) - self.started

    def take_output(self) -> str:
        """What it printed since the last read (head and tail kept past the cap, with a note
        of how much was dropped between them)."""
        with self.lock:
            text = self.unread.render()
            self.unread = BoundedOutput(self.limit)
            self.new_data.clear()
        return text.split(self.marker, 1)[0].rstrip("\n")

    def last_lines(self) -> str:
        with self.lock:
            text = clean_output(bytes(self.tail))
        return text.split(self.marker, 1)[0].rstrip("\n")

    def _read(self, on_end: Callable[[Job], None]) -> None:
        """The reader thread: blocks until the job opens the FIFO, then copies until EOF."""
        try:
            with open(self.fifo, "rb", buffering=0) as pipe:
                while chunk := pipe.read(65536):
                    with self.lock:
                        self.unread.add(chunk)
                        self.tail += chunk
                        del self.tail[:-_TAIL_BYTES]
                    self.new_data.set()
        except OSError:
            pass
        text = bytes(self.tail).decode(errors="replace")
        at = text.rfind(self.marker)
        if at >= 0:
            code = text[at + len(self.marker) :].split()[:1]
            self.exit_code = int(code[0]) if code and code[0].lstrip("-").isdigit() else None
        self.ended = time.monotonic()
        with contextlib.suppress(OSError):
            self.fifo.unlink()
        self.done.set()
        self.new_data.set()
        on_end(self)


class JobTable:
    """The background jobs of one shell session. `on_change(job)` is told when one starts or ends."""

    def __init__(self, limit: int = 30_000) -> None:
        self.limit = limit
        self.jobs: dict[str, Job] = {}
        self._count = 0
        self.on_change: Callable[[Job], None] = lambda job: None

    def prepare(self, command: str, scratch: Path) -> tuple[Job, str]:
        """A new job and the line the shell runs to launch it (it prints the guard's pid)."""
        self._count += 1
        nonce = secrets.token_hex(8)
        job = Job(
            id=f"job{self._count}",
            command=command,
            fifo=scratch / f"job{self._count}-{nonce}.out",
            marker=f"__OHT_JOB_END_{nonce}__",
            limit=self.limit,
        )
        script = scratch / f"job{self._count}.sh"
        script.write_text(command + "\n")
        guard = scratch / "job-guard.sh"
        if not guard.exists():
            guard.write_text(_GUARD)
        os.mkfifo(job.fifo, 0o600)
        threading.Thread(target=job._read, args=(self._ended,), name=f"oht-{job.id}", daemon=True).start()
        lifeline = "setpriv --pdeathsig TERM " if _has_setpriv() else ""
        line = (
            f"{lifeline}bash --noprofile --norc {_q(guard)} {_q(script)} {job.marker} {GRACE_SECONDS}"
            f" >{_q(job.fifo)} 2>&1 </dev/null &\nprintf '__OHT_JOB_PID %d\\n' \"$!\""
        )
        return job, line

    def started(self, job: Job, launch_output: str) -> bool:
        """Record the guard's pid from the launch's output; False if the launch failed."""
        for line in launch_output.splitlines():
            if line.startswith("__OHT_JOB_PID "):
                job.inside_pid = int(line.split()[1])
        if job.inside_pid is None:
            self.abandon(job)
            return False
        self.jobs[job.id] = job
        self.on_change(job)
        return True

    def abandon(self, job: Job) -> None:
        """A job whose launch failed: its reader is released (it waits for a writer)."""
        _release(job.fifo)
        job.done.wait(2)

    def _ended(self, job: Job) -> None:
        if job.id in self.jobs:
            self.on_change(job)

    def running(self) -> list[Job]:
        return [job for job in self.jobs.values() if job.ended is None]

    def stop(self, job: Job, shell_pid: int | None, grace: float = GRACE_SECONDS) -> None:
        """SIGTERM to the job's process group (through its guard), SIGKILL after `grace`."""
        if job.ended is not None:
            return
        job.stopped = True
        guard = _host_pid(shell_pid, job.inside_pid) if shell_pid is not None else None
        if guard is not None:
            with contextlib.suppress(ProcessLookupError, PermissionError):
                os.kill(guard, signal.SIGTERM)
        if job.done.wait(grace + 2) or guard is None:
            return
        for pid in [guard, *_descendants(guard)]:
            with contextlib.suppress(ProcessLookupError, PermissionError):
                os.kill(pid, signal.SIGKILL)
        job.done.wait(2)

    def stop_all(self, shell_pid: int | None, grace: float = 1.0) -> None:
        """Every running job, stopped at once (the session ends)."""
        threads = [
            threading.Thread(target=self.stop, args=(job, shell_pid, grace), daemon=True) for job in self.running()
        ]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join(grace + 5)

    def release_readers(self) -> None:
        """Readers still waiting for a job that never opened its output (the shell died first)."""
        for job in self.jobs.values():
            if not job.done.is_set():
                _release(job.fifo)


def _release(fifo: Path) -> None:
    with contextlib.suppress(OSError):
        os.close(os.open(fifo, os.O_WRONLY | os.O_NONBLOCK))


def _host_pid(root: int, inside: int | None) -> int | None:
    """The host pid of the process below `root` that its own PID namespace calls `inside`."""
    if inside is None:
        return None
    for pid in _descendants(root):
        try:
            for line in Path(f"/proc/{pid}/status").read_text().splitlines():
                if line.startswith("NSpid:") and int(line.split()[-1]) == inside:
                    return pid
        except (OSError, ValueError):
            continue
    return None


def _has_setpriv() -> bool:
    return shutil.which("setpriv") is not None


def _q(path: Path) -> str:
    return shell_quote(str(path))
