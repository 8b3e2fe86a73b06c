"""A delegated child's own working copy, for the engine: made before the child opens, merged back
when it ends (`sdk/timeline/child_copy.py` does the files; this places them and tells everyone).

Copies live in the state folder's `worktrees/`, named by session and child; a child's whole change
is kept in the session's `children/` folder. The workspace's shadow repository is the session's
checkpoint repository when it keeps checkpoints, else the same one made for the copies. Merges
are one at a time (`child_copy.py`), so two children ending together never write one file at
once. What came back is a `ChildChangesEvent` (the app, headless output and the log say it),
and the parent agent reads it with the child's report.
"""

from __future__ import annotations

import asyncio
from pathlib import Path

from openhands_tui.sdk.facts.child_changes_event import ChildChangesEvent
from openhands_tui.sdk.facts.store import state_home
from openhands_tui.sdk.run.runtime import Runtime
from openhands_tui.sdk.timeline.child_copy import ChildCopy, MergeReport, sweep
from openhands_tui.sdk.timeline.shadow_repo import CheckpointError, ShadowRepo, shadow_repository


def copies_folder(state_root: Path) -> Path:
    return state_root / "worktrees"


def sweep_copies(state_root: Path) -> list[str]:
    """At start: remove the copies a crashed `tui` left behind."""
    return sweep(copies_folder(state_root))


def _places(runtime: Runtime) -> tuple[ShadowRepo, Path, Path, str]:
    """The workspace's shadow repository, the copies' folder, the patches' folder, the session id."""
    log = runtime.bus.log
    state_root = log.directory.parent.parent if log is not None else state_home()
    session = log.meta.id if log is not None else "session"
    patches = (log.directory if log is not None else state_root) / "children"
    if runtime.checkpoints is not None:
        repo = runtime.checkpoints.repo
    else:
        repository = shadow_repository(state_root, runtime.workspace)
        repo = ShadowRepo(repository, runtime.workspace, copies_folder(state_root) / f"{session}.index")
    return repo, copies_folder(state_root), patches, session


async def open_copy(runtime: Runtime, child_id: str) -> ChildCopy | str:
    """The child's copy, or why it has none (it then works in the workspace itself)."""
    repo, copies, patches, session = _places(runtime)
    try:
        return await asyncio.to_thread(ChildCopy.make, repo, copies, f"{session}-{child_id}", patches)
    except CheckpointError as exc:
        return f"no working copy of its own ({exc}): it works in the workspace"


async def bring_back(
    runtime: Runtime, copy: ChildCopy, child_id: str, name: str, parent_id: str, *, merge: bool = True
) -> ChildChangesEvent:
    """Merge the copy's changes into the workspace (or, for an interrupted child, only keep them
    as its patch), remove the copy, and record what came back."""
    try:
        if merge:
            report = await asyncio.to_thread(copy.merge_back, runtime.workspace, child_id)
        else:
            report = await asyncio.to_thread(copy.keep_only, child_id)
    except CheckpointError as exc:
        report = MergeReport(problem=f"its changes could not be merged ({exc}); they are in {copy.folder}")
    if not report.problem:
        copy.remove()
    event = ChildChangesEvent(
        agent_id=child_id,
        parent_agent_id=parent_id,
        agent_name=name,
        merged=report.merged,
        conflicts=report.conflicts,
        patch=report.patch,
        diff=report.diff,
        problem=report.problem,
    )
    runtime.bus.publish(event)
    return event


def told_to_parent(event: ChildChangesEvent) -> str:
    """What the parent agent reads about the child's changes, after its report."""
    if event.problem:
        return f"\n\nIts changes: {event.problem}"
    if not event.merged and not event.conflicts:
        return "\n\nIt worked in its own copy of the workspace and changed no files."
    lines = ["", "", "It worked in its own copy of the workspace. Its changes:"]
    if event.merged:
        lines.append(f"- merged into the workspace: {', '.join(event.merged)}")
    if event.conflicts:
        lines.append(
            f"- CONFLICTS, not merged (the workspace's version was kept): {', '.join(event.conflicts)}. "
            f"Its whole change is in {event.patch}; integrate what it did there by hand."
        )
    if event.diff:
        lines += ["", "Its diff:", event.diff]
    return "\n".join(lines)
