"""The `jobs` tool: list, read and stop the background jobs the terminal started.

One tool with an `action` keeps the model's tool list short. Each call touches only the
agent's own jobs (a process group its shell started), so its subject says exactly that —
"other", changing nothing outside, category "jobs" — and the rules rate it LOW.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable
from typing import TYPE_CHECKING, Literal

from pydantic import Field

from openhands_tui.executors.local.jobs import Job
from openhands_tui.sdk.facts.event import Event
from openhands_tui.sdk.facts.job_event import JobEvent
from openhands_tui.sdk.facts.subject import OtherSubject
from openhands_tui.sdk.tool import Action, Observation, ToolDefinition

if TYPE_CHECKING:
    from openhands_tui.executors.local.shell import BashSession

#: How long a background start waits for the first output (an immediate failure is seen).
FIRST_OUTPUT_SECONDS = 1.0


class JobsAction(Action):
    action: Literal["list", "read", "stop"] = Field(
        description=(
            "`list`: every background job with its state, exit code and runtime; `read`: the job's "
            "output since the last read; `stop`: SIGTERM to the job's processes, SIGKILL after a grace."
        )
    )
    job_id: str = Field(default="", description="The job (e.g. `job1`); needed for read and stop.")


class JobsTool(ToolDefinition[JobsAction]):
    name = "jobs"
    description = (
        "Manage background jobs started with the terminal's `background: true`: list them, read "
        "their new output, stop one."
    )
    action_type = JobsAction
    reads_only = True  # offered in plan mode: it touches only the agent's own jobs

    def __init__(self, session: BashSession) -> None:
        self.session = session

    def subject(self, action: JobsAction) -> OtherSubject:
        return OtherSubject(tool=self.name, changes=False, category="jobs")

    def summarize(self, action: JobsAction) -> str:
        return f"jobs {action.action}" + (f" {action.job_id}" if action.job_id else "")

    async def run(self, action: JobsAction) -> Observation:
        table = self.session.jobs
        if action.action == "list":
            if not table.jobs:
                return Observation(text="No background jobs.")
            return Observation(text="\n".join(describe(job) for job in table.jobs.values()))
        job = table.jobs.get(action.job_id)
        if job is None:
            known = ", ".join(table.jobs) or "none"
            return Observation(text=f"No job {action.job_id!r} (jobs: {known}).", is_error=True)
        if action.action == "stop":
            if job.ended is not None:
                return Observation(text=f"{describe(job)}\nIt had already ended.")
            await asyncio.to_thread(table.stop, job, self.session.shell_pid)
        return Observation(text=report(job))

    async def stop_job(self, job_id: str) -> str | None:
        """The user's stop (`/jobs stop`, through the engine): the job's line after it, or None
        if this tool has no such job."""
        job = self.session.jobs.jobs.get(job_id)
        if job is None:
            return None
        await asyncio.to_thread(self.session.jobs.stop, job, self.session.shell_pid)
        return describe(job)


def describe(job: Job) -> str:
    """One line: id, state (with the exit code once ended), runtime, command."""
    state = job.state if job.exit_code is None else f"{job.state}, exit code {job.exit_code}"
    command = " ".join(job.command.split())
    if len(command) > 120:
        command = command[:117] + "..."
    return f"{job.id} [{state}] {job.runtime():.0f}s  $ {command}"


def report(job: Job) -> str:
    """The job's line and its output since the last read."""
    output = job.take_output()
    shown = output if output else "(no new output)"
    return f"{describe(job)}\n{shown}"


async def start_in_background(session: BashSession, command: str) -> Observation:
    """Launch `command` as a job and wait briefly for its first output (or its end)."""
    job, launch = await session.start_job(command)
    if job is None:
        return Observation(text=f"The job could not be started:\n{launch.output}".rstrip(), is_error=True)
    await asyncio.to_thread(_first_output, job)
    text = report(job)
    hint = "" if job.ended is not None else f"\nIt runs in the background: `jobs` reads or stops {job.id}."
    failed = job.ended is not None and job.exit_code not in (0, None) and not job.stopped
    return Observation(text=f"Started {text}{hint}", is_error=failed)


def job_reporter(report: Callable[[Event], None], agent_id: str) -> Callable[[Job], None]:
    """Tells `report` a job's start and its end (with its exit code and last lines)."""

    def changed(job: Job) -> None:
        tail = job.last_lines() if job.ended is not None else ""
        runtime = round(job.runtime(), 1)
        report(
            JobEvent(
                agent_id=agent_id,
                job_id=job.id,
                command=job.command,
                state=job.state,
                tail=tail,
                exit_code=job.exit_code,
                runtime=runtime,
            )
        )

    return changed


def _first_output(job: Job) -> None:
    """Up to FIRST_OUTPUT_SECONDS: until it ends, or a moment after its first output."""
    deadline = time.monotonic() + FIRST_OUTPUT_SECONDS
    while time.monotonic() < deadline and not job.done.is_set():
        if job.new_data.wait(max(0.0, deadline - time.monotonic())) and not job.done.is_set():
            job.done.wait(min(0.2, max(0.0, deadline - time.monotonic())))  # the rest of a first burst
            return
