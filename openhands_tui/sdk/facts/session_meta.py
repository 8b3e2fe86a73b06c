"""A session's metadata (`meta.json`): what is needed to rebuild its agent, kept twice.

The event log is the session; the metadata only says how to run it again (strategy, model,
workspace). An empty or cut `meta.json` (a disk that lost its last blocks, a hand edit, a
crash on a filesystem that does not order renames after writes) used to make an intact
session unresumable and hide it from `tui sessions`. So every save writes a backup copy
first and then `meta.json`, each replaced whole and fsynced with its folder; a reader takes the
backup when `meta.json` cannot be read, and says so.
"""

from __future__ import annotations

from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from pydantic import Field

from openhands_tui.sdk.files.private import replace_privately
from openhands_tui.sdk.files.read import read_regular
from openhands_tui.sdk.model import Model

META = "meta.json"
#: Written before `meta.json` on every save, so one of the two is always whole.
META_BACKUP = "meta.backup.json"
_MAX_META_BYTES = 1 << 20


class SessionMeta(Model):
    """What is needed to rebuild a session's agent; never holds secrets."""

    id: str
    created: str = Field(default_factory=lambda: datetime.now(UTC).isoformat(timespec="seconds"))
    strategy: str = "builtin:solo"
    params: dict[str, Any] = Field(default_factory=dict)
    model: str | None = None
    base_url: str | None = None
    reasoning_effort: str | None = None
    workspace: str = "."
    #: The sandbox mode of the last run (read-only, workspace-write, off).
    sandbox: str | None = None
    #: Where its agents ran when not here (`agent-server:URL`, never the key): a resume goes
    #: back there unless `--executor` says otherwise.
    executor: str | None = None
    title: str = ""
    status: str = "idle"
    #: The agent file run as the root agent (`--agent NAME`), None: the strategy's.
    agent: str | None = None
    #: The session this one was forked from, and before which of its turns (None: all of it).
    forked_from: str | None = None
    forked_at: int | None = None


def write_meta(directory: Path, meta: SessionMeta) -> None:
    """Save `meta` in `directory`: the backup, then `meta.json` (OSError if either fails)."""
    text = meta.model_dump_json(indent=2)
    for name in (META_BACKUP, META):
        replace_privately(directory / name, text)


def read_meta(directory: Path) -> tuple[SessionMeta, str | None]:
    """A session's metadata and, when `meta.json` could not be read and its backup was, a
    warning that says so. OSError or ValueError (about `meta.json`) when neither can be read."""
    try:
        return _parse(directory / META), None
    except (OSError, ValueError) as exc:
        try:
            meta = _parse(directory / META_BACKUP)
        except (OSError, ValueError):
            raise exc from None
        return meta, f"{directory / META}: unreadable ({describe_problem(exc)}); used its backup {META_BACKUP}"


def describe_problem(exc: OSError | ValueError) -> str:
    if isinstance(exc, OSError):
        return str(exc.strerror or exc)
    return " ".join(str(exc).split())[:300]


def _parse(path: Path) -> SessionMeta:
    return SessionMeta.model_validate_json(read_regular(path, _MAX_META_BYTES))
