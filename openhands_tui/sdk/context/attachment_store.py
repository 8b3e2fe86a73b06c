"""Where a session keeps the images its messages carried: `attachments/<sha256>.<ext>`.

Stored once per content (a screenshot sent twice is one file), as regular files only the user
can read (mode 600: a screenshot shows what was on the screen). A session that is not stored
(a test, the SDK without a log) keeps them in memory. Reading back is by hash; a file that has
gone (deleted by hand, a copied session) reads as None and the message says so instead.
"""

from __future__ import annotations

import contextlib
import hashlib
import os
import re
from pathlib import Path

from openhands_tui.sdk.context.images import EXTENSIONS, ImageData
from openhands_tui.sdk.errors import StorageError
from openhands_tui.sdk.facts.attachment import ATTACHMENTS_FOLDER, AttachedImage
from openhands_tui.sdk.files.read import read_regular

FOLDER = ATTACHMENTS_FOLDER
_SHA256 = re.compile(r"[0-9a-f]{64}")


class AttachmentStore:
    """The images of one session, by hash. `directory`: the session's `attachments/` folder
    (None: memory only)."""

    def __init__(self, directory: Path | None = None) -> None:
        self.directory = directory
        self._memory: dict[str, bytes] = {}

    def put(self, image: ImageData) -> AttachedImage:
        """Store `image` (once per content) and return the reference a message carries."""
        digest = hashlib.sha256(image.data).hexdigest()
        attached = AttachedImage(name=image.name, media_type=image.media_type, sha256=digest, size=len(image.data))
        self._memory[digest] = image.data
        if self.directory is not None:
            self._write(self.directory / _file_name(attached), image.data)
        return attached

    def read(self, image: AttachedImage) -> bytes | None:
        """The bytes `image` refers to; None when they are gone or do not match their hash."""
        if not _SHA256.fullmatch(image.sha256):
            return None  # a hand-edited log: never a path out of the folder
        data = self._memory.get(image.sha256)
        if data is None and self.directory is not None:
            try:
                data = read_regular(self.directory / _file_name(image), max(image.size, 1))
            except OSError:
                return None
            if hashlib.sha256(data).hexdigest() != image.sha256:
                return None  # changed on disk: not what the message carried
            self._memory[image.sha256] = data
        return data

    @staticmethod
    def _write(path: Path, data: bytes) -> None:
        if path.is_file() and not path.is_symlink():
            return  # the same content, stored by an earlier message
        try:
            path.parent.mkdir(mode=0o700, exist_ok=True)
            temporary = path.with_suffix(path.suffix + ".part")
            fd = os.open(temporary, os.O_WRONLY | os.O_CREAT | os.O_TRUNC | os.O_NOFOLLOW | os.O_CLOEXEC, 0o600)
            with os.fdopen(fd, "wb") as handle:
                handle.write(data)
            os.replace(temporary, path)
        except OSError as exc:
            with contextlib.suppress(OSError):
                os.unlink(path.with_suffix(path.suffix + ".part"))
            raise StorageError(f"cannot store the image in {path.parent}: {exc.strerror or exc}") from None


def _file_name(image: AttachedImage) -> str:
    return f"{image.sha256}.{EXTENSIONS.get(image.media_type, 'bin')}"
