"""Sessions on disk: an append-only `events.jsonl` per session plus a small `meta.json`.

Layout: `$XDG_STATE_HOME/openhands-tui/sessions/<id>/` (default `~/.local/state/...`).
Each event is one line, `JSON<TAB>crc32`, flushed when written; `sync()` fsyncs and is called
before any tool runs, so an action is durable before its side effects start. The checksum
makes a torn or corrupted line impossible to mistake for data, even one that happens to be
valid JSON (a cut just before the tab, or blocks of a page lost in a power cut). A process
killed mid-write leaves at most one torn last line: loading drops it with a warning (and
truncates it away before appending again); a bad line anywhere else means real damage and is
an error. Files written before checksums existed (no tab on any line) still load.
"""

from __future__ import annotations

import contextlib
import errno
import fcntl
import os
import secrets
import zlib
from datetime import datetime
from pathlib import Path
from typing import Any, BinaryIO

from pydantic import Field, ValidationError

from openhands_tui.sdk.errors import SessionError, StorageError
from openhands_tui.sdk.facts.event import Event
from openhands_tui.sdk.facts.log_recovery import recover_damaged
from openhands_tui.sdk.facts.session_meta import META, META_BACKUP, SessionMeta, describe_problem, read_meta, write_meta
from openhands_tui.sdk.facts.stored_event import UnknownEventKind, parse_stored_event
from openhands_tui.sdk.files.read import read_regular
from openhands_tui.sdk.files.xdg import state_base
from openhands_tui.sdk.model import Model

__all__ = ["LoadResult", "SessionLog", "SessionMeta", "SessionStore", "encode_line", "new_session_id"]

#: The largest session log read back (it is read whole, once, on resume).
MAX_LOG_BYTES = 2 * 1024 * 1024 * 1024


def state_home() -> Path:
    return state_base() / "openhands-tui"


class LoadResult(Model):
    events: list[Event]
    warnings: list[str] = Field(default_factory=list)


def new_session_id() -> str:
    return datetime.now().strftime("%Y%m%d-%H%M%S-") + secrets.token_hex(2)


class SessionLog:
    """One session's directory: the event log and its metadata."""

    def __init__(self, directory: Path, meta: SessionMeta, meta_warning: str | None = None) -> None:
        self.directory = directory
        self.meta = meta
        #: Said when the log is loaded: the metadata came from its backup copy.
        self.meta_warning = meta_warning
        self.events_path = directory / "events.jsonl"
        self._file: BinaryIO | None = None
        self._lock: BinaryIO | None = None
        #: Set once a write failed: later events are no longer written (the run is stopping).
        self.failure: str | None = None
        self._good_size: int | None = None  # the log's length after the last complete event

    @property
    def id(self) -> str:
        return self.meta.id

    def lock(self) -> None:
        """Become this session's only writer: a second `tui --resume` of it would interleave
        two conversations into one history that providers reject."""
        path = self.directory / "lock"
        try:
            handle = open(path, "a+b")  # noqa: SIM115 - held for the session's lifetime
        except OSError as exc:
            raise SessionError(f"{path}: cannot lock the session ({exc.strerror or exc})") from None
        try:
            fcntl.flock(handle.fileno(), fcntl.LOCK_EX | fcntl.LOCK_NB)
        except OSError:
            handle.seek(0)
            holder = handle.read().decode(errors="replace").strip() or "unknown"
            handle.close()
            raise SessionError(
                f"session {self.id} is in use by another tui (pid {holder}); wait for it to end, or start a new session"
            ) from None
        with contextlib.suppress(OSError):  # the pid only names the holder: a full disk keeps the lock
            os.ftruncate(handle.fileno(), 0)  # unbuffered: nothing left to fail again at close
            os.pwrite(handle.fileno(), str(os.getpid()).encode(), 0)
        self._lock = handle

    def append(self, event: Event, line: str | None = None) -> None:
        """Append one event (`line` is its JSON when the caller already has it). A failed write
        (disk full...) leaves the log as it was before this event and raises StorageError once;
        after that nothing more is written."""
        if self.failure is not None:
            return
        try:
            if self._file is None:
                self._file = open(self.events_path, "ab")  # noqa: SIM115 - kept open for the session
                self._good_size = self._file.tell()
            self._file.write(encode_line((line or event.model_dump_json()).encode()))
            self._file.flush()
            self._good_size = self._file.tell()
        except OSError as exc:
            self._fail(exc)

    def sync(self) -> None:
        if self._file is not None and self.failure is None:
            try:
                os.fsync(self._file.fileno())
            except OSError as exc:
                self._fail(exc)

    def _fail(self, exc: OSError) -> None:
        self.failure = _storage_problem(exc, self.events_path)
        file, self._file = self._file, None
        if file is not None:
            with contextlib.suppress(OSError):  # the unflushed rest is what could not be written
                file.close()
        if self._good_size is not None:
            with contextlib.suppress(OSError):  # a torn last line is dropped on load anyway
                os.truncate(self.events_path, self._good_size)  # no torn line left behind
        raise StorageError(self.failure)

    def close(self) -> None:
        if self._file is not None:
            with contextlib.suppress(StorageError):
                self.sync()
            if self._file is not None:
                self._file.close()
                self._file = None
        if self._lock is not None:
            self._lock.close()  # closing the descriptor releases the lock
            self._lock = None

    def save_meta(self, **changes: Any) -> None:
        self.meta = self.meta.model_copy(update=changes)
        if self.failure is not None:
            return
        try:
            write_meta(self.directory, self.meta)
        except OSError as exc:
            raise StorageError(_storage_problem(exc, self.directory / META)) from None

    def load(self, repair: bool = True, recover: bool = False) -> LoadResult:
        """Read every event back. Truncates a torn last line so later appends stay clean;
        `repair=False` only reads (the log may be another process's, being written: a fork or
        an export must not cut off the line it is in the middle of writing). A damaged line
        before the last refuses the log, unless `recover`: then the events before it are kept
        and the whole damaged log is set aside beside it (`recover_damaged`)."""
        warnings = [self.meta_warning] if self.meta_warning else []
        try:
            data = read_regular(self.events_path, MAX_LOG_BYTES)
        except FileNotFoundError:
            data = b""
        except OSError as exc:
            raise SessionError(f"{self.events_path}: cannot read the session log ({exc.strerror or exc})") from None
        if not data.strip() and self.meta.title:  # a first message was given: there was a history
            what = "empty" if self.events_path.exists() else "missing"
            warnings.append(f"{self.events_path}: {what}; the session's history is lost and it goes on without it")
        if not data:
            return LoadResult(events=[], warnings=warnings)
        lines = data.split(b"\n")
        if lines[-1] == b"":
            lines.pop()  # the file ends with a newline, as it should
        checksummed = any(b"\t" in line for line in lines)
        events: list[Event] = []
        good_end = 0
        for number, line in enumerate(lines, start=1):
            if line.strip():
                try:
                    events.append(decode_line(line, checksummed))
                except UnknownEventKind as exc:
                    raise SessionError(
                        f"{self.events_path}: line {number} is {exc}: the session was written by a newer "
                        "version; upgrade tui to resume it"
                    ) from None
                except (ValidationError, DamagedLine) as exc:
                    if number != len(lines) and recover:
                        warnings.append(recover_damaged(self.events_path, data, good_end, number, _why(exc)))
                        return LoadResult(events=events, warnings=warnings)
                    if number != len(lines):
                        raise SessionError(
                            f"{self.events_path}: line {number} is damaged ({_why(exc)}); refusing to guess "
                            f"what happened after it (`tui --resume {self.id} --recover` goes on from the "
                            f"{len(events)} events before it and keeps the damaged log)"
                        ) from None
                    warnings.append(f"{self.events_path}: dropped a torn last line ({number}: {_why(exc)})")
                    break
            good_end = min(good_end + len(line) + 1, len(data))
        if repair and (good_end < len(data) or (good_end and not data.endswith(b"\n"))):
            self._truncate(good_end, data)
        return LoadResult(events=events, warnings=warnings)

    def _truncate(self, good_end: int, data: bytes) -> None:
        with open(self.events_path, "r+b") as f:
            f.truncate(good_end)
            if good_end and not data[:good_end].endswith(b"\n"):
                f.seek(0, os.SEEK_END)
                f.write(b"\n")
            os.fsync(f.fileno())


def _storage_problem(exc: OSError, path: Path) -> str:
    if exc.errno in (errno.ENOSPC, errno.EDQUOT):
        return f"disk full: {path}"
    return f"cannot write {path}: {exc.strerror or exc}"


class DamagedLine(ValueError):
    pass


def encode_line(payload: bytes) -> bytes:
    """`payload<TAB>crc32 in hex<LF>`: JSON never holds a raw tab, so the last tab splits."""
    return b"%s\t%08x\n" % (payload, zlib.crc32(payload))


def decode_line(line: bytes, checksummed: bool = True) -> Event:
    """One stored line back to its event; `checksummed=False` reads pre-checksum files."""
    payload, tab, checksum = line.rpartition(b"\t")
    if not tab:
        if checksummed:
            raise DamagedLine("no checksum")
        payload = line
    elif len(checksum) != 8 or checksum != b"%08x" % zlib.crc32(payload):
        raise DamagedLine("checksum mismatch")
    return parse_stored_event(payload)


def _why(exc: Exception) -> str:
    if isinstance(exc, ValidationError):
        errors = exc.errors()
        if not errors:
            return "invalid JSON"
        where = ".".join(str(part) for part in errors[0]["loc"][1:])  # [0] is the event kind
        return f"{where}: {errors[0]['msg']}" if where else errors[0]["msg"]
    return str(exc)


class SessionStore:
    """All sessions under one root directory."""

    def __init__(self, root: Path | None = None) -> None:
        self.root = (root or state_home()) / "sessions"

    def create(self, meta: SessionMeta) -> SessionLog:
        directory = self.root / meta.id
        try:
            directory.mkdir(parents=True, exist_ok=False)
        except OSError as exc:
            blocker = next((p for p in [self.root, *self.root.parents] if _exists(p)), None)
            why = f"{blocker} is a file" if blocker is not None and not blocker.is_dir() else exc.strerror or str(exc)
            raise SessionError(f"cannot keep sessions under {self.root}: {why}") from None
        log = SessionLog(directory, meta)
        log.save_meta()
        return log

    def open(self, ref: str) -> SessionLog:
        """Open a session by id, unique id prefix, or `last` (the most recently written)."""
        directory = self._find(ref)
        try:
            meta, warning = read_meta(directory)
        except (OSError, ValueError) as exc:
            why = describe_problem(exc)
            raise SessionError(f"{directory / META}: unreadable session metadata ({why})") from None
        return SessionLog(directory, meta, warning)

    def list_sessions(self) -> list[SessionMeta]:
        metas = []
        for directory in self._directories_newest_first():
            try:
                metas.append(read_meta(directory)[0])
            except (OSError, ValueError):  # a damaged session is skipped in lists
                continue
        return metas

    def recent(self) -> list[tuple[SessionMeta, float]]:
        """Every readable session's metadata with when it was last written, newest first (for
        a list that shows update times, as an editor's session picker does)."""
        found = []
        for directory in self._directories():
            when = _last_write(directory)
            if when is None:
                continue
            try:
                found.append((read_meta(directory)[0], when))
            except (OSError, ValueError):  # a damaged session is skipped in lists
                continue
        return sorted(found, key=lambda pair: pair[1], reverse=True)

    def all_metadata(self) -> list[SessionMeta]:
        """Every readable session's metadata, in no particular order: for a question about all
        of them (which strategies earlier sessions ran), asked at every launch, the stat of each
        session's log that sorting needs is half the cost (~25 ms at 1,000 sessions)."""
        metas = []
        for directory in self._directories():
            try:
                metas.append(read_meta(directory)[0])
            except (OSError, ValueError):  # not a session, or a damaged one
                continue
        return metas

    def _directories(self) -> list[Path]:
        """Everything in the store, unsorted; a store that cannot be listed is a SessionError."""
        try:
            if not self.root.is_dir():
                return []
            return list(self.root.iterdir())
        except OSError as exc:  # e.g. the state directory is not ours (chmod 000): not a traceback
            raise SessionError(f"cannot read the sessions in {self.root} ({exc.strerror or exc})") from None

    def _directories_newest_first(self) -> list[Path]:
        """Session directories, most recently written first; one that cannot be looked into (or
        went away meanwhile) is left out, and a store that cannot be listed is a SessionError."""
        written = [(when, d) for d in self._directories() if (when := _last_write(d)) is not None]
        return [d for _, d in sorted(written, key=lambda pair: pair[0], reverse=True)]

    def _find(self, ref: str) -> Path:
        if ref == "last":
            dirs = self._directories_newest_first()
            if not dirs:
                raise SessionError(f"--resume last: no sessions stored in {self.root}")
            return dirs[0]
        if not ref or "/" in ref or ref.startswith("."):  # an id, never a path out of the store
            raise SessionError(f"--resume {ref}: not a session id (see tui sessions)")
        exact = self.root / ref
        try:
            if _meta_time(exact) is not None:
                return exact
        except PermissionError as exc:  # it is there, but not ours to look into
            raise SessionError(f"--resume {ref}: cannot read {exact} ({exc.strerror})") from None
        matches = [d for d in self._directories_newest_first() if d.name.startswith(ref)]
        if len(matches) == 1:
            return matches[0]
        if not matches:
            raise SessionError(f"--resume {ref}: no such session in {self.root}")
        names = ", ".join(d.name for d in matches[:5])
        raise SessionError(f"--resume {ref}: ambiguous, matches {names}")


def _exists(path: Path) -> bool:
    """`path.exists()`, False where a parent cannot be looked into (it raises then, in 3.11)."""
    try:
        return path.exists()
    except OSError:
        return False


def _last_write(directory: Path) -> float | None:
    """When a session was last written (its log, else its metadata); None if it is not one
    (no metadata) or cannot be looked into."""
    try:
        meta = _meta_time(directory)
    except OSError:
        return None
    if meta is None:
        return None
    try:
        return (directory / "events.jsonl").stat().st_mtime
    except OSError:
        return meta


def _meta_time(directory: Path) -> float | None:
    """When the session's metadata (or, that gone, its backup) was written; None: neither is
    there. PermissionError when the folder is not ours to look into."""
    for name in (META, META_BACKUP):
        try:
            return (directory / name).stat().st_mtime
        except PermissionError:
            raise
        except OSError:
            continue
    return None
