"""`tui rewind SESSION`: list a stored session's turns, or go back to before one of them (the
files, the conversation, or both), or undo the last rewind. Registered on the `tui` app in
cli.py; cheap to import (the engine is imported inside the command)."""

from __future__ import annotations

import json
from typing import TYPE_CHECKING, Annotated

import typer

from openhands_tui.cli_usage import fail

if TYPE_CHECKING:
    from openhands_tui.sdk.facts.store import SessionLog
    from openhands_tui.sdk.timeline.history import Turn
    from openhands_tui.sdk.timeline.rewind import RewindDone

#: How `changed` entries (git's name-status, old files to the checkpoint's) are said.
_DONE = {"M": "restored", "A": "brought back", "D": "removed", "T": "restored"}


def rewind_command(
    session: Annotated[str, typer.Argument(metavar="SESSION", help="Session id (or a unique prefix), or 'last'.")],
    to: Annotated[
        int | None, typer.Option("--to", min=1, metavar="TURN", help="Go back to before this turn (1: the first).")
    ] = None,
    code: Annotated[bool, typer.Option("--code", help="Restore only the files.")] = False,
    conversation: Annotated[bool, typer.Option("--conversation", help="Rewind only the conversation.")] = False,
    both: Annotated[bool, typer.Option("--both", help="Restore the files and the conversation (the default).")] = False,
    undo: Annotated[bool, typer.Option("--undo", help="Undo the last rewind (files and conversation).")] = False,
    json_output: Annotated[bool, typer.Option("--json", help="Print JSON for scripts.")] = False,
) -> None:
    """List a session's turns, or rewind it to before one (files, conversation or both)."""
    from openhands_tui.sdk.errors import OpenHandsTUIError

    chosen = [name for name, on in (("--code", code), ("--conversation", conversation), ("--both", both)) if on]
    if len(chosen) > 1:
        raise fail(f"{' and '.join(chosen)}: choose one")
    if undo and (to is not None or chosen):
        raise fail("--undo takes back the last rewind as it was: leave out --to and --code/--conversation/--both")
    if chosen and to is None:
        raise fail(f"{chosen[0]} says what --to TURN restores: add --to")
    try:
        _rewind(session, to, code or both or not conversation, conversation or both or not code, undo, json_output)
    except OpenHandsTUIError as exc:
        raise fail(str(exc).replace(f"--resume {session}:", f"rewind {session}:", 1), exc.exit_code) from None


def _rewind(session: str, to: int | None, code: bool, conversation: bool, undo: bool, json_output: bool) -> None:
    from pathlib import Path

    from openhands_tui.launch import session_checkpoints
    from openhands_tui.sdk.facts.store import SessionStore
    from openhands_tui.sdk.timeline.history import effective_history, turns
    from openhands_tui.sdk.timeline.rewind import rewind, undo_rewind

    store = SessionStore()
    log = store.open(session)
    if to is None and not undo:  # only reading: no lock, the session may be running
        _print_turns(log, turns(effective_history(log.load(repair=False).events)), json_output)
        return
    log.lock()
    try:
        workspace = Path(log.meta.workspace)
        repo = session_checkpoints(store, log, workspace) if workspace.is_dir() else None
        done = undo_rewind(log, repo) if undo else rewind(log, repo, to or 1, code=code, conversation=conversation)
    finally:
        log.close()
    _print_done(log, done, json_output)


def _print_turns(log: SessionLog, found: list[Turn], json_output: bool) -> None:
    from openhands_tui.sdk.terminal_text import one_line

    if json_output:
        rows = [
            {"turn": t.number, "time": t.timestamp, "task": t.text, "files": bool(t.tree), "note": t.checkpoint_note}
            for t in found
        ]
        print(json.dumps({"session": log.id, "turns": rows}, indent=2))
        return
    if not found:
        print(f"session {log.id} has no turns yet")
        return
    print(f"session {log.id}: rewind to before a turn with  tui rewind {log.id} --to TURN")
    for turn in found:
        files = "files kept" if turn.tree else "no files  "
        # the task is the user's own text, perhaps pasted: no escapes reach the terminal
        print(f"{turn.number:>4}  {turn.timestamp[:19].replace('T', ' ')}  {files}  {one_line(turn.text)[:90]}")


def _print_done(log: SessionLog, done: RewindDone, json_output: bool) -> None:
    from openhands_tui.sdk.terminal_text import one_line

    event = done.event
    if json_output:
        print(json.dumps({"session": log.id, **event.model_dump(mode="json"), "turns_dropped": done.turns_dropped}))
        return
    what = " and ".join(part for part, on in (("files", event.code), ("conversation", event.conversation)) if on)
    if done.turn is None:
        print(f"Undid the last rewind of session {log.id} ({what}).")
    else:
        print(f"Rewound session {log.id} to before turn {done.turn.number} ({what}): {one_line(done.turn.text)[:80]}")
    for change in event.changed:
        status, _, path = change.partition(" ")
        print(f"  {_DONE.get(status, status):<13} {one_line(path)}")
    if event.code and not event.changed:
        print("  the files were already as they were then")
    if event.problem:
        print(f"  not all files were restored: {one_line(event.problem)}")
    if done.turn is not None:
        print(f"Undo it with: tui rewind {log.id} --undo")
    print(f"Continue with: tui --resume {log.id}")
