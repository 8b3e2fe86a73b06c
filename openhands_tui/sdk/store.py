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

import os
import secrets
import zlib
from datetime import UTC, datetime
from pathlib import Path
from typing import Any, BinaryIO

from pydantic import Field, ValidationError

from openhands_tui.sdk.errors import SessionError
from openhands_tui.sdk.event import Event, parse_event
from openhands_tui.sdk.model import Model


def state_home() -> Path:
    base = os.environ.get("XDG_STATE_HOME") or str(Path.home() / ".local" / "state")
    return Path(base) / "openhands-tui"


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
    title: str = ""
    status: str = "idle"


class LoadResult(Model):
    events: list[Event]
    warnings: list[str] = Field(default_factory=list)


def new_session_id() -> str:
    return datetime.now().strftime("%Y%m%d-%H%M%S-") + secrets.token_hex(2)


class SessionLog:
    """One session's directory: the event log and its metadata."""

    def __init__(self, directory: Path, meta: SessionMeta) -> None:
        self.directory = directory
        self.meta = meta
        self.events_path = directory / "events.jsonl"
        self._file: BinaryIO | None = None

    @property
    def id(self) -> str:
        return self.meta.id

    def append(self, event: Event, line: str | None = None) -> None:
        """Append one event (`line` is its JSON when the caller already has it)."""
        if self._file is None:
            self._file = open(self.events_path, "ab")  # noqa: SIM115 - kept open for the session
        self._file.write(encode_line((line or event.model_dump_json()).encode()))
        self._file.flush()

    def sync(self) -> None:
        if self._file is not None:
            os.fsync(self._file.fileno())

    def close(self) -> None:
        if self._file is not None:
            self.sync()
            self._file.close()
            self._file = None

    def save_meta(self, **changes: Any) -> None:
        self.meta = self.meta.model_copy(update=changes)
        tmp = self.directory / "meta.json.tmp"
        tmp.write_text(self.meta.model_dump_json(indent=2))
        os.replace(tmp, self.directory / "meta.json")

    def load(self) -> LoadResult:
        """Read every event back. Truncates a torn last line so later appends stay clean."""
        if not self.events_path.exists():
            return LoadResult(events=[])
        data = self.events_path.read_bytes()
        lines = data.split(b"\n")
        if lines[-1] == b"":
            lines.pop()  # the file ends with a newline, as it should
        checksummed = any(b"\t" in line for line in lines)
        events: list[Event] = []
        warnings: list[str] = []
        good_end = 0
        for number, line in enumerate(lines, start=1):
            if line.strip():
                try:
                    events.append(decode_line(line, checksummed))
                except (ValidationError, DamagedLine) as exc:
                    if number != len(lines):
                        raise SessionError(
                            f"{self.events_path}: line {number} is damaged ({_why(exc)}); "
                            "refusing to guess what happened after it"
                        ) from None
                    warnings.append(f"{self.events_path}: dropped a torn last line ({number}: {_why(exc)})")
                    break
            good_end = min(good_end + len(line) + 1, len(data))
        if good_end < len(data) or (good_end and not data.endswith(b"\n")):
            self._truncate(good_end, data)
        return LoadResult(events=events, warnings=warnings)

    def _truncate(self, good_end: int, data: bytes) -> None:
        with open(self.events_path, "r+b") as f:
            f.truncate(good_end)
            if good_end and not data[:good_end].endswith(b"\n"):
                f.seek(0, os.SEEK_END)
                f.write(b"\n")
            os.fsync(f.fileno())


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
    return parse_event(payload)


def _why(exc: Exception) -> str:
    if isinstance(exc, ValidationError):
        errors = exc.errors()
        return errors[0]["msg"] if errors else "invalid JSON"
    return str(exc)


class SessionStore:
    """All sessions under one root directory."""

    def __init__(self, root: Path | None = None) -> None:
        self.root = (root or state_home()) / "sessions"

    def create(self, meta: SessionMeta) -> SessionLog:
        directory = self.root / meta.id
        directory.mkdir(parents=True, exist_ok=False)
        log = SessionLog(directory, meta)
        log.save_meta()
        return log

    def open(self, ref: str) -> SessionLog:
        """Open a session by id, unique id prefix, or `last` (the most recently written)."""
        directory = self._find(ref)
        try:
            meta = SessionMeta.model_validate_json((directory / "meta.json").read_text())
        except (OSError, ValidationError) as exc:
            raise SessionError(f"{directory / 'meta.json'}: unreadable session metadata ({exc})") from None
        return SessionLog(directory, meta)

    def list_sessions(self) -> list[SessionMeta]:
        metas = []
        for directory in self._directories_newest_first():
            try:
                metas.append(SessionMeta.model_validate_json((directory / "meta.json").read_text()))
            except (OSError, ValidationError):
                continue
        return metas

    def _directories_newest_first(self) -> list[Path]:
        if not self.root.is_dir():
            return []
        dirs = [d for d in self.root.iterdir() if (d / "meta.json").exists()]

        def last_write(d: Path) -> float:
            events = d / "events.jsonl"
            return (events if events.exists() else d / "meta.json").stat().st_mtime

        return sorted(dirs, key=last_write, reverse=True)

    def _find(self, ref: str) -> Path:
        if ref == "last":
            dirs = self._directories_newest_first()
            if not dirs:
                raise SessionError(f"--resume last: no sessions stored in {self.root}")
            return dirs[0]
        exact = self.root / ref
        if (exact / "meta.json").exists():
            return exact
        matches = [d for d in self._directories_newest_first() if d.name.startswith(ref)]
        if len(matches) == 1:
            return matches[0]
        if not matches:
            raise SessionError(f"--resume {ref}: no such session in {self.root}")
        names = ", ".join(d.name for d in matches[:5])
        raise SessionError(f"--resume {ref}: ambiguous, matches {names}")
