"""Reading and writing the files the editor works on, within bounds, and keeping undo history
on disk.

One tool result must never be able to freeze the engine or fill the model's context: only
regular files are read (a FIFO would block forever, `/dev/zero` never ends), reads are
bounded, editing stops at a size where a whole-file rewrite is the wrong tool, and the
versions `undo_edit` restores are kept in a scratch directory, not in memory. A file's line
endings are kept: an edit of a CRLF file writes CRLF.
"""

from __future__ import annotations

import contextlib
import errno
import hashlib
import os
import secrets
import select
import shutil
import stat
import tempfile
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import BinaryIO

#: Largest file the editor reads whole or edits (bigger ones: view a range, or use the terminal).
MAX_EDIT_BYTES = 4 * 1024 * 1024
#: How many earlier versions of one file `undo_edit` can go back through.
MAX_UNDO_DEPTH = 10


class EditorError(Exception):
    """A request the editor refuses; the message is written for the model to act on."""


def check_regular(target: Path) -> os.stat_result:
    """The file's status, or an error naming why the editor will not touch it."""
    try:
        info = os.stat(target)
    except FileNotFoundError:
        raise EditorError(f"{target} does not exist. Use `create` to make a new file.") from None
    except OSError as exc:
        raise EditorError(f"{target}: {exc.strerror or exc}") from None
    if stat.S_ISDIR(info.st_mode):
        raise EditorError(f"{target} is a directory; `view` lists it.")
    if not stat.S_ISREG(info.st_mode):
        raise EditorError(f"{target} is not a regular file (a device, pipe or socket); the editor only reads files.")
    if os.path.realpath(target) in _CONSUMED_BY_READING or not _ready_to_read(target):
        raise EditorError(
            f"{target} would block when read (a kernel file such as /proc/kmsg); the editor only reads files."
        )
    return info


#: Kernel files a read takes from (the kernel log's queue): readable at once only while messages
#: wait, and a read then steals them from the system's logger; refused whether or not any wait.
_CONSUMED_BY_READING = frozenset({"/proc/kmsg"})


def _ready_to_read(target: Path) -> bool:
    """Whether reading `target` can start at once. A disk file always can; some files that
    look regular do not (/proc/kmsg waits for the kernel's next message — for ever, in a thread
    that then holds up the process's exit and every signal's clean end)."""
    try:
        fd = os.open(target, os.O_RDONLY | os.O_NONBLOCK | os.O_CLOEXEC)
    except OSError:
        return True  # reading it says why it cannot be read
    try:
        poller = select.poll()
        poller.register(fd, select.POLLIN)
        return bool(poller.poll(0))
    finally:
        os.close(fd)


@dataclass
class TextFile:
    """A text file's content with `\\n` line endings, and how to write it back as it was."""

    text: str
    crlf: bool

    @classmethod
    def read(cls, target: Path, limit: int = MAX_EDIT_BYTES, real: str | None = None) -> TextFile:
        """`real`: where `target` pointed when the action was rated; the file there is read."""
        info = check_regular(target)
        if info.st_size > limit:
            raise EditorError(
                f"{target} is {info.st_size:,} bytes, more than the editor works on ({limit:,}). View a range "
                "with `view_range`, or change it with a command (sed, a script) in the terminal."
            )
        with open_rated(target, real) as handle:
            data = handle.read(limit + 1)
        if b"\0" in data[:8192]:
            raise EditorError(f"{target} looks binary; the editor only handles text files.")
        try:
            text = data.decode("utf-8")
        except UnicodeDecodeError:
            raise EditorError(f"{target} is not UTF-8 text; the editor only handles UTF-8.") from None
        crlf = 0 < text.count("\r\n") == text.count("\n")  # every line ends in CRLF (mixed files stay as they are)
        return cls(text.replace("\r\n", "\n") if crlf else text, crlf)

    def encode(self, text: str) -> bytes:
        """`text` (with `\\n` endings) as the file's bytes: CRLF again if the file used it."""
        if self.crlf:
            text = text.replace("\r\n", "\n").replace("\n", "\r\n")
        return text.encode("utf-8", errors="surrogateescape")


def write_atomically(target: Path, data: bytes, real: str | None = None) -> None:
    """Write to a temporary file beside `target`, then rename it over: a crash or a full disk
    leaves the old content, never half of the new one. Keeps the file's permission bits, and
    writes through a symlink to the file it points at (as the risk rules judged it).

    `real` is where `target` pointed when the change was rated. The write happens in that very
    directory or not at all: a link swapped in since (by a process the agent left running) makes
    it fail instead of sending the change into `.git/hooks` or a home directory nobody judged."""
    with pinned_parent(target, real) as (directory, name):
        mode = None
        with contextlib.suppress(FileNotFoundError):
            mode = stat.S_IMODE(os.stat(name, dir_fd=directory).st_mode)
        if mode is not None and not os.access(name, os.W_OK, dir_fd=directory):  # renaming over it
            code = errno.EROFS if _on_read_only_mount(Path(os.path.realpath(target))) else errno.EACCES
            raise OSError(code, os.strerror(code), str(target))  # would succeed, and take it over
        temporary = f".{name}.{secrets.token_hex(4)}.tmp"
        handle, named = _new_file(directory, temporary)
        try:
            with os.fdopen(handle, "wb", closefd=False) as out:
                out.write(data)
                if mode is not None:
                    os.fchmod(out.fileno(), mode)
            if not named:  # given a name only now that it is whole: a kill -9 above leaves nothing
                os.link(f"/proc/self/fd/{handle}", temporary, dst_dir_fd=directory, follow_symlinks=True)
            os.replace(temporary, name, src_dir_fd=directory, dst_dir_fd=directory)
        except BaseException:
            with contextlib.suppress(OSError):
                os.unlink(temporary, dir_fd=directory)
            raise
        finally:
            os.close(handle)


def _new_file(directory: int, temporary: str) -> tuple[int, bool]:
    """A new file in `directory` to write the content into, and whether it already has a name.
    An unnamed one (O_TMPFILE) where the filesystem and /proc allow: `tui` killed while writing a
    2 MB file left a named `.*.tmp` of it in the workspace for good; else `temporary`."""
    if os.path.isdir("/proc/self/fd"):
        with contextlib.suppress(OSError):  # not on every filesystem (and not on old kernels)
            return os.open(".", os.O_TMPFILE | os.O_WRONLY | os.O_CLOEXEC, 0o600, dir_fd=directory), False
    flags = os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW | os.O_CLOEXEC
    return os.open(temporary, flags, 0o600, dir_fd=directory), True


def open_rated(target: Path, real: str | None = None) -> BinaryIO:
    """`target` opened for reading in the directory it was rated in (as `write_atomically`
    writes there): a link raced in since, to `~/.netrc` say, makes it fail instead of showing
    the model a file nobody judged."""
    with pinned_parent(target, real) as (directory, name):
        flags = os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK | os.O_CLOEXEC
        handle = os.open(name, flags, dir_fd=directory)
    if not stat.S_ISREG(os.fstat(handle).st_mode):
        os.close(handle)
        raise OSError(errno.EINVAL, "not a regular file", str(target))
    return os.fdopen(handle, "rb")


def remove_pinned(target: Path, real: str | None = None) -> None:
    """Remove `target` (undoing its creation) from the directory it was rated in, as above."""
    with pinned_parent(target, real) as (directory, name), contextlib.suppress(FileNotFoundError):
        os.unlink(name, dir_fd=directory)


def make_parents_pinned(target: Path, real: str | None = None) -> None:
    """Create the folders `target` needs where it was rated (`real`, else where it points now),
    one at a time from the root, never through a link: `mkdir -p` through a link swapped in
    since the rating (`docs` -> `/etc`) made folders outside the workspace, unconfined, before
    the write itself was refused. A link on the way now makes it fail, having made nothing."""
    parent = os.path.dirname(real if real is not None else os.path.realpath(target))
    directory = os.open("/", _DIRECTORY_ONLY)
    try:
        for part in [p for p in parent.split(os.sep) if p]:
            try:
                inner = os.open(part, _DIRECTORY_ONLY | os.O_NOFOLLOW, dir_fd=directory)
            except FileNotFoundError:
                os.mkdir(part, 0o777, dir_fd=directory)
                inner = os.open(part, _DIRECTORY_ONLY | os.O_NOFOLLOW, dir_fd=directory)
            os.close(directory)
            directory = inner
    finally:
        os.close(directory)


#: A directory opened only to be walked through (`O_PATH`: no read permission needed).
_DIRECTORY_ONLY = getattr(os, "O_PATH", os.O_RDONLY) | os.O_DIRECTORY | os.O_CLOEXEC


@contextlib.contextmanager
def pinned_parent(target: Path, real: str | None) -> Iterator[tuple[int, str]]:
    """An open descriptor of the directory `target` really is in, reached one component at a
    time without following any link, and the file's name there. If `target` no longer resolves
    to `real` (when given), or a component turns into a link on the way, it raises."""
    resolved = os.path.realpath(target)
    if real is not None and resolved != real:
        raise OSError(errno.ELOOP, f"it now points to {resolved}, not to {real} as when it was checked", str(target))
    parent, name = os.path.split(resolved)
    directory = os.open("/", _DIRECTORY_ONLY)
    try:
        for part in [p for p in parent.split(os.sep) if p]:
            flags = _DIRECTORY_ONLY | os.O_NOFOLLOW
            inner = os.open(part, flags, dir_fd=directory)
            os.close(directory)
            directory = inner
        yield directory, name
    finally:
        os.close(directory)


def _on_read_only_mount(path: Path) -> bool:
    try:
        return bool(os.statvfs(path).f_flag & os.ST_RDONLY)
    except OSError:
        return False


def bounded_lines(handle: BinaryIO, keep: int) -> Iterator[tuple[bytes, bool]]:
    """Each line of `handle` as (its first `keep` bytes, whether there was more). A line of any
    length (a 2 GB minified dump, a binary file without a newline) is read in pieces and its
    rest skipped, never held: iterating a file object keeps a whole line in memory."""
    while piece := handle.readline(keep):
        if piece.endswith(b"\n") or len(piece) < keep:
            yield piece, False
            continue
        more = False
        while rest := handle.readline(1 << 20):
            more = more or bool(rest.rstrip(b"\r\n"))
            if rest.endswith(b"\n"):
                break
        yield piece, more


@dataclass
class UndoStore:
    """Earlier versions of edited files, on disk, at most MAX_UNDO_DEPTH per file."""

    #: Made at the first saved version: a session (or a test) that never edits leaves no
    #: empty `oht-undo-*` directory behind if it ends without `close()` (a SIGKILL).
    _directory: Path | None = None
    versions: dict[Path, list[Path | None]] = field(default_factory=dict)
    counter: int = 0
    #: A digest of what the editor last wrote to each file: an undo over anything else (the
    #: user's own editor, another tui in the same workspace, a command) would silently lose it.
    written: dict[Path, bytes] = field(default_factory=dict)

    @property
    def directory(self) -> Path:
        if self._directory is None:
            self._directory = Path(tempfile.mkdtemp(prefix="oht-undo-"))
        return self._directory

    def wrote(self, target: Path, content: bytes | None) -> None:
        """Remember what an edit or undo left in `target` (None: the file is gone)."""
        if content is None:
            self.written.pop(target, None)
        else:
            self.written[target] = hashlib.sha256(content).digest()

    def changed_since_written(self, target: Path) -> bool:
        """Whether `target` no longer holds what the editor last wrote to it."""
        expected = self.written.get(target)
        if expected is None:
            return False
        try:
            with open(target, "rb") as handle:
                current = handle.read(MAX_EDIT_BYTES + 1)
        except OSError:
            return True
        return hashlib.sha256(current).digest() != expected

    def forget(self, target: Path) -> None:
        """Drop `target`'s history: it no longer leads to the file as it is."""
        for saved in self.versions.pop(target, []):
            if saved is not None:
                saved.unlink(missing_ok=True)
        self.written.pop(target, None)

    def push(self, target: Path, content: bytes | None) -> None:
        """Remember `content` (None: the file did not exist) as the version before an edit."""
        saved: Path | None = None
        if content is not None:
            self.counter += 1
            saved = self.directory / f"v{self.counter}"
            saved.write_bytes(content)
        stack = self.versions.setdefault(target, [])
        stack.append(saved)
        while len(stack) > MAX_UNDO_DEPTH:
            dropped = stack.pop(0)
            if dropped is not None:
                dropped.unlink(missing_ok=True)

    def pop(self, target: Path) -> tuple[bool, bytes | None]:
        """(found, content): the latest earlier version (None: the edit created the file)."""
        stack = self.versions.get(target)
        if not stack:
            return False, None
        saved = stack.pop()
        if saved is None:
            return True, None
        content = saved.read_bytes()
        saved.unlink(missing_ok=True)
        return True, content

    def close(self) -> None:
        if self._directory is not None:
            shutil.rmtree(self._directory, ignore_errors=True)
