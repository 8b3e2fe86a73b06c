"""`session/list` for an editor: the stored sessions of one workspace, newest first, with their
titles and when each was last written, a page at a time (the cursor is where the next page
starts). Titles are cleaned of control sequences: they were written by a model or a user and
an editor shows them."""

from __future__ import annotations

from datetime import UTC, datetime
from pathlib import Path

from acp import RequestError
from acp.schema import ListSessionsResponse, SessionInfo

from openhands_tui.sdk.facts.store import SessionStore
from openhands_tui.sdk.terminal_text import strip_controls

#: Sessions per page.
PAGE = 50


def listed(state_dir: Path | None, cwd: str | None, cursor: str | None) -> ListSessionsResponse:
    """One page of the sessions stored for `cwd` (None: every workspace's)."""
    start = _start(cursor)
    where = Path(cwd).resolve() if cwd else None
    found = [
        (meta, when)
        for meta, when in SessionStore(state_dir).recent()
        if where is None or Path(meta.workspace).resolve() == where
    ]
    page = found[start : start + PAGE]
    more = start + PAGE < len(found)
    return ListSessionsResponse(
        sessions=[
            SessionInfo(
                session_id=meta.id,
                cwd=meta.workspace,
                title=strip_controls(meta.title)[:200] or None,
                updated_at=datetime.fromtimestamp(when, UTC).isoformat(timespec="seconds"),
            )
            for meta, when in page
        ],
        next_cursor=str(start + PAGE) if more else None,
    )


def _start(cursor: str | None) -> int:
    if not cursor:
        return 0
    if not cursor.isdigit():
        raise RequestError.invalid_params({"cursor": f"not a cursor this agent gave: {cursor[:40]!r}"})
    return int(cursor)
