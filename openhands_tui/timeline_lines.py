"""One line for each step a session takes through its own history (a checkpoint that could not
be taken or left files out, a rewind, an undone rewind, a fork), and for the turns a rewind can
go back to. Plain text: the paths come from the workspace and the tasks from the user, so every
piece is put on one line with no escape sequence or control character; the front end decides
how to draw it (never as markup)."""

from __future__ import annotations

from collections import Counter
from datetime import datetime
from typing import TYPE_CHECKING

from openhands_tui.sdk.facts.event import CheckpointEvent, RewindEvent, SessionForkedEvent
from openhands_tui.sdk.terminal_text import one_line

if TYPE_CHECKING:
    from openhands_tui.sdk.timeline.history import Turn

#: How a restored path's status (git's name-status, from the files as they were to the
#: checkpoint's) is said, in the order the counts are listed.
_DONE = {"M": "restored", "T": "restored", "A": "brought back", "D": "removed"}
_ORDER = ("restored", "brought back", "removed")
#: Hint on the rewind the next /rewind can take back.
UNDO_HINT = " — /rewind again to undo"
#: How many skipped files a checkpoint's notice names.
NAMED = 3


def restored_what(code: bool, conversation: bool) -> str:
    """`files and conversation`, `conversation only`, `files only`."""
    if code and conversation:
        return "files and conversation"
    return "files only" if code else "conversation only"


def files_changed(changed: list[str]) -> str:
    """`3 files restored, 1 removed` from a rewind's `changed` ('M path', 'A path', 'D path')."""
    counts = Counter(_DONE.get(change.partition(" ")[0], "restored") for change in changed)
    parts = [f"{counts[done]} {done}" for done in _ORDER if counts[done]]
    if not parts:
        return "no file changed"
    first, _, done = parts[0].partition(" ")  # "3 files restored, 1 removed": the noun said once
    parts[0] = f"{first} {'file' if first == '1' else 'files'} {done}"
    return ", ".join(parts)


def rewind_line(event: RewindEvent, *, undoable: bool = False) -> str:
    """`↶ Rewound to before turn 2 (files and conversation): 3 files restored, 1 removed`, or
    `↷ Undid the last rewind (…)`; with `undoable`, how to take it back."""
    what = restored_what(event.code, event.conversation)
    line = f"↷ Undid the last rewind ({what})" if event.undoes else f"↶ Rewound to before turn {event.turn} ({what})"
    if event.code:
        line += f": {files_changed(event.changed)}" if event.changed else ": the files were already as they were"
    if event.problem:
        line += f"; not every file was restored: {one_line(event.problem)}"
    return line + (UNDO_HINT if undoable else "")


def checkpoint_problem_line(event: CheckpointEvent) -> str:
    """Said once a session: files cannot be restored, but the conversation still can."""
    return f"No checkpoint of the files: {one_line(event.problem)}; rewind can restore the conversation only"


def checkpoint_skipped_line(event: CheckpointEvent) -> str:
    """`Checkpoint left out 2 files: big.bin (over 10 MB); …`: a rewind leaves them as they are."""
    count = len(event.skipped)
    named = "; ".join(one_line(path) for path in event.skipped[:NAMED])
    more = f"; and {count - NAMED} more" if count > NAMED else ""
    return f"Checkpoint left out {count} {'file' if count == 1 else 'files'}: {named}{more}"


def fork_origin(event: SessionForkedEvent) -> str:
    """`⑂ fork of 20250101-120000-ab12 at turn 2` (or `… of all of it`): the tree's root says it."""
    at = f" at turn {event.turn}" if event.turn is not None else ""
    return f"⑂ fork of {one_line(event.origin)}{at}"


def fork_line(event: SessionForkedEvent) -> str:
    """The transcript's first line in a fork: where it came from, and what of it was copied."""
    title = f" ({one_line(event.origin_title)[:60]})" if event.origin_title else ""
    upto = f"its turns before turn {event.turn}" if event.turn is not None else "all of its history"
    return f"⑂ Forked from session {one_line(event.origin)}{title}: {upto}; the original goes on unchanged"


def turn_time(timestamp: str) -> str:
    """`03-14 09:26`, in the user's time zone (events are stamped in UTC)."""
    try:
        return datetime.fromisoformat(timestamp).astimezone().strftime("%m-%d %H:%M")
    except ValueError:
        return one_line(timestamp)[:11]


def turn_row(turn: Turn) -> str:
    """` 2  03-14 09:26  files ✓   the task's first line`: one turn a rewind can go back to."""
    files = "files ✓ " if turn.tree else "no files"
    return f"{turn.number:>3}  {turn_time(turn.timestamp)}  {files}  {one_line(turn.text)[:100]}"


def undo_row(event: RewindEvent) -> str:
    """The choice that takes back the last rewind (or the last undo, which rewinds again)."""
    what = restored_what(event.code, event.conversation)
    if event.undoes:
        return f"  ↶ Take back the last undo: rewind again ({what})"
    return f"  ↷ Undo the last rewind (to before turn {event.turn}, {what})"
