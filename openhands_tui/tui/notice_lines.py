"""The one-line notices the app's transcripts get from events that are not the conversation
itself: what a hook or a critic decided, a background job, what a child's working copy brought
back, and the session's own timeline (checkpoints, rewinds, forks). Mixed into `SessionView`
(state.py), which routes each event here by its type."""

from __future__ import annotations

from typing import Literal

from openhands_tui.sdk.facts.event import (
    CheckpointEvent,
    ChildChangesEvent,
    CriticResultEvent,
    HookRanEvent,
    JobEvent,
    RewindEvent,
    SessionForkedEvent,
)
from openhands_tui.timeline_lines import (
    UNDO_HINT,
    checkpoint_problem_line,
    checkpoint_skipped_line,
    fork_line,
    rewind_line,
)
from openhands_tui.tui.entry import Entry
from openhands_tui.verdict_lines import critic_line, hook_line

#: Hook outcomes said as warnings: something was refused, or the hook did not work.
_HOOK_WARNINGS = frozenset({"denied", "blocked", "asked", "failed", "timed out", "skipped", "stopped the run"})


class NoticeLines:
    """The notice handlers of `SessionView`; it provides these attributes."""

    jobs: dict[tuple[str, str], JobEvent]
    _undoable: Entry | None
    _checkpoints_said: tuple[bool, list[str]]

    def _add(self, entry: Entry) -> Entry:
        raise NotImplementedError

    def _hook(self, event: HookRanEvent) -> set[str]:
        """Which hook said what: a line in the agent's transcript (a hook that ran and said nothing
        stays in the log only)."""
        if event.outcome == "ran" and not event.said:
            return set()
        level: Literal["info", "warning"] = "warning" if event.outcome in _HOOK_WARNINGS else "info"
        self._add(Entry("notice", event.agent_id, hook_line(event), {"hook": event}, level=level))
        return {event.agent_id}

    def _critic(self, event: CriticResultEvent) -> set[str]:
        failed = event.score is None or event.refine
        self._add(
            Entry("notice", event.agent_id, critic_line(event), {"critic": event}, "warning" if failed else "info")
        )
        return {event.agent_id}

    def _child_changes(self, event: ChildChangesEvent) -> set[str]:
        """What a child that worked in its own copy brought back: a line in its parent's
        transcript (a warning when something conflicted), and in its own."""
        level: Literal["info", "warning"] = "warning" if event.conflicts or event.problem else "info"
        shown = {event.agent_id, event.parent_agent_id or "root"}
        for agent_id in shown:
            self._add(Entry("notice", agent_id, event.line(), {"child_changes": event}, level=level))
        return shown

    def _job(self, event: JobEvent) -> set[str]:
        """A background job started or ended: a line in its agent's transcript, the jobs count."""
        self.jobs[(event.agent_id, event.job_id)] = event
        level: Literal["info", "warning"] = "warning" if event.exit_code not in (None, 0) else "info"
        self._add(Entry("notice", event.agent_id, event.line(), {"job": event}, level=level))
        return {event.agent_id}

    @property
    def running_jobs(self) -> list[JobEvent]:
        return [job for job in self.jobs.values() if job.state == "running"]

    # -- the session's own timeline: checkpoints, rewinds, forks (`timeline_lines.py`) -----

    def _checkpoint(self, event: CheckpointEvent) -> set[str]:
        """A turn's checkpoint that could not be taken (a warning, once a session: every turn
        would say it again) or that left files out (said when the files left out change)."""
        problem_said, skipped_said = self._checkpoints_said
        if event.purpose != "turn":
            return set()
        if event.problem and not problem_said:
            self._checkpoints_said = (True, skipped_said)
            self._add(Entry("notice", event.agent_id, checkpoint_problem_line(event), level="warning"))
        elif event.skipped and not event.problem and event.skipped != skipped_said:
            self._checkpoints_said = (problem_said, list(event.skipped))
            self._add(Entry("notice", event.agent_id, checkpoint_skipped_line(event)))
        else:
            return set()
        return {event.agent_id}

    def _rewound(self, event: RewindEvent) -> set[str]:
        """What a rewind (or an undo) did; only the last one says how to take it back."""
        if self._undoable is not None:
            self._undoable.text = self._undoable.text.removesuffix(UNDO_HINT)
            self._undoable.touch()
        level: Literal["info", "warning"] = "warning" if event.problem else "info"
        self._undoable = self._add(Entry("notice", event.agent_id, rewind_line(event, undoable=True), level=level))
        return {event.agent_id}

    def _forked(self, event: SessionForkedEvent) -> set[str]:
        self._add(Entry("notice", event.agent_id, fork_line(event)))
        return {event.agent_id}
