"""A background job's start and end: the fact the app's jobs panel, `/jobs` and the
headless printer read (they never look at the shell that runs it).

Only the start and the end are stored in the session log — a job's output goes to the model
when it reads it, not into the log chunk by chunk; the end carries the exit code and the last
lines, redacted like every other event."""

from __future__ import annotations

from typing import Literal

from pydantic import Field

from openhands_tui.sdk.facts.event_base import EventBase


class JobEvent(EventBase):
    """`state`: "running" when it starts, "exited" when it ends by itself, "stopped" when
    stopped (by the agent, the user or the end of its session)."""

    kind: Literal["job"] = "job"
    job_id: str
    command: str
    state: Literal["running", "exited", "stopped"]
    exit_code: int | None = None
    runtime: float = Field(default=0.0, description="Seconds it had run when this was said.")
    tail: str = Field(default="", description="Its last lines, when it ends.")

    def line(self) -> str:
        """One line for a transcript: `job1 started: $ cmd`, `job1 exited (code 0) after 3s: $ cmd`."""
        command = " ".join(self.command.split())
        command = command if len(command) <= 100 else command[:97] + "..."
        if self.state == "running":
            return f"⚙ {self.job_id} started in the background: $ {command}"
        code = f", exit code {self.exit_code}" if self.exit_code is not None else ""
        return f"⚙ {self.job_id} {self.state}{code} after {self.runtime:.0f}s: $ {command}"
