"""What a user's message carries besides its text: given images and files, `@file` mentions,
and image paths typed or dropped into it.

Called once per user message (`Conversation._submit`), before it is recorded:

- **Given** images (`--image`, an editor's image block) must all go: one that cannot (not an
  image, too big, too many, a model that takes none) refuses the message in one line
  (`AttachmentRefused`, exit 2), since the user asked for exactly those.
- **Found** ones (an `@path` or an image path in the text) are best effort: what cannot go is
  left out with a one-line note (`Attached.notes`, shown to the user and, so it does not guess,
  to the model); the text is sent as typed.

What may go: a mention names a regular text file inside the workspace (symlinks followed:
one pointing out is outside), not a secret (`.env`, keys, credential folders: the path judge's
`secret`) and not git's internals or this tool's own settings (they can hold credentials or
approvals). Other protected paths (CI files, agent instructions) are protected from *writes*;
reading them is what the agent does anyway. A mention of a path that does not exist is not a
mention (`@octocat`), and is left alone. Text is capped (`MAX_FILE_BYTES`, with a note when
cut) and so is the count (`MAX_FILES`). An image path may be outside the workspace (a file
dropped from the desktop), but not a secret's.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path

from openhands_tui.sdk.context.attachment_store import AttachmentStore
from openhands_tui.sdk.context.images import (
    MAX_IMAGES,
    ImageData,
    ImageRefused,
    looks_like_image_name,
    media_type,
    read_image,
)
from openhands_tui.sdk.context.mentions import image_paths, mentions
from openhands_tui.sdk.errors import OpenHandsTUIError
from openhands_tui.sdk.facts.attachment import AttachedFile, AttachedImage, size_text
from openhands_tui.sdk.files.read import read_head
from openhands_tui.sdk.security.paths import PathJudge, PathVerdict
from openhands_tui.sdk.security.protected_paths import VCS

#: A mentioned file's text is sent up to this many bytes (a note says when it was cut).
MAX_FILE_BYTES = 100 * 1024
#: Files one message may mention.
MAX_FILES = 10


class AttachmentRefused(OpenHandsTUIError):
    """A given image or file cannot be sent with the message (one line: which, and why)."""


@dataclass(frozen=True)
class GivenFile:
    """A file's text a front end attached itself (an editor's embedded resource)."""

    name: str
    text: str


@dataclass(frozen=True)
class Given:
    """What a front end attached to the message explicitly."""

    images: Sequence[ImageData] = ()
    files: Sequence[GivenFile] = ()


@dataclass
class Attached:
    """What goes with the message: image references, the files' context blocks, and a note per
    thing left out."""

    images: list[AttachedImage] = field(default_factory=list)
    files: list[AttachedFile] = field(default_factory=list)
    context: list[str] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)


def attach(
    text: str,
    workspace: Path,
    store: AttachmentStore,
    given: Given = Given(),
    *,
    model: str = "",
    takes_images: Callable[[], bool | None] = lambda: None,
) -> Attached:
    """What `text` and `given` attach. `takes_images` says False when the model is known to
    accept no images (None: unknown, they are sent); asked only when there is an image (it
    may load the model list)."""
    if given.images:
        if takes_images() is False:
            raise AttachmentRefused(f"{model or 'the model'} does not accept images")
        if len(given.images) > MAX_IMAGES:
            raise AttachmentRefused(f"{len(given.images)} images: at most {MAX_IMAGES} go with one message")
    attached = Attached()
    for image in given.images:
        attached.images.append(store.put(image))
    for file in given.files:
        data = file.text.encode()
        attached.context.append(file_block(file.name, data[:MAX_FILE_BYTES], len(data)))
        attached.files.append(AttachedFile(path=file.name, size=len(data), cut=len(data) > MAX_FILE_BYTES))
    _Finder(workspace, store, attached, model, takes_images).find(text)
    return attached


def file_block(name: str, data: bytes, size: int) -> str:
    """A file's text as the model reads it, with a note when only its start is there."""
    body = data.decode("utf-8", errors="replace")
    cut = (
        f"\n[... cut: only the first {size_text(len(data))} of {size_text(size)} were attached ...]"
        if size > len(data)
        else ""
    )
    return f'<FILE path="{name}">\n{body}{cut}\n</FILE>'


class _Finder:
    def __init__(
        self,
        workspace: Path,
        store: AttachmentStore,
        attached: Attached,
        model: str,
        takes_images: Callable[[], bool | None],
    ) -> None:
        self.judge = PathJudge(str(workspace))
        self.workspace = workspace
        self.store = store
        self.attached = attached
        self.model = model
        self.takes_images = takes_images
        self.seen: set[str] = set()

    def find(self, text: str) -> None:
        for mention in mentions(text):
            for candidate in mention.candidates():
                if self._mention(candidate):
                    break
        for path in image_paths(text):
            self._dropped(path)

    def _mention(self, path: str) -> bool:
        """Judge `@path`; False when nothing is there (then it is no mention)."""
        verdict = self.judge.judge(os.path.expanduser(path))
        if not os.path.lexists(verdict.resolved) and not os.path.lexists(os.path.join(self.workspace, path)):
            return False
        if verdict.resolved in self.seen:
            return True
        self.seen.add(verdict.resolved)
        why = _refusal(verdict) or ("outside the workspace" if not verdict.inside else None)
        if why is not None:
            self._note(f"@{path} was not attached: {why}")
        elif looks_like_image_name(path) or _starts_like_image(verdict.resolved):
            self._image(f"@{path}", verdict.resolved, os.path.basename(path))
        else:
            self._file(path, verdict.resolved)
        return True

    def _dropped(self, path: str) -> None:
        verdict = self.judge.judge(os.path.expanduser(path))
        if verdict.resolved in self.seen or not os.path.isfile(verdict.resolved):
            return  # an image name in the text that is no file here: just words
        self.seen.add(verdict.resolved)
        if not _starts_like_image(verdict.resolved):
            return  # named like an image, but is not one: the text speaks of it, nothing more
        why = _refusal(verdict)
        if why is not None:
            self._note(f"{path} was not attached: {why}")
            return
        self._image(path, verdict.resolved, os.path.basename(path))

    def _image(self, shown: str, resolved: str, name: str) -> None:
        if self.takes_images() is False:
            self._note(f"{shown} was not attached: {self.model or 'the model'} does not accept images")
            return
        if len(self.attached.images) >= MAX_IMAGES:
            self._note(f"{shown} was not attached: at most {MAX_IMAGES} images go with one message")
            return
        try:
            image = read_image(resolved)
        except ImageRefused as exc:
            self._note(f"{shown} was not attached: {str(exc).split(': ', 1)[-1]}")
            return
        self.attached.images.append(self.store.put(ImageData(name, image.media_type, image.data)))

    def _file(self, path: str, resolved: str) -> None:
        if len(self.attached.files) >= MAX_FILES:
            self._note(f"@{path} was not attached: at most {MAX_FILES} files go with one message")
            return
        if os.path.isdir(resolved):
            self._note(f"@{path} was not attached: it is a directory")
            return
        try:
            size = os.stat(resolved).st_size
            data = read_head(resolved, MAX_FILE_BYTES)
        except OSError as exc:
            self._note(f"@{path} was not attached: {exc.strerror or exc}")
            return
        if b"\0" in data[:8192]:
            self._note(f"@{path} was not attached: not a text file")
            return
        name = os.path.relpath(resolved, self.judge.workspace)
        self.attached.context.append(file_block(name, data, size))
        self.attached.files.append(AttachedFile(path=path, size=size, cut=size > len(data)))

    def _note(self, note: str) -> None:
        self.attached.notes.append(note)


def _refusal(verdict: PathVerdict) -> str | None:
    """Why a file may not go to the model whatever the user asked: it holds secrets, or
    credentials and approvals live there."""
    if verdict.device:
        return "a device, not a file"
    if verdict.secret is not None:
        return verdict.secret
    if verdict.sensitive == VCS or (verdict.sensitive or "").startswith("this tool's own"):
        return f"{verdict.sensitive} (they can hold credentials)"
    return None


def _starts_like_image(path: str) -> bool:
    try:
        return media_type(read_head(path, 16)) is not None
    except OSError:
        return False
