"""Images a user gives a message: which bytes count as one, and how many and how big.

The format is read from the bytes (magic numbers), never from the name: a `.png` that is
really a text file, or a 40 MB photo, would otherwise be refused by the provider after the
whole request was sent, or worse, billed. Refusals are `ImageRefused` with one line saying
what and why; the caller adds who gave it (`--image FILE`, the editor, a path in the text).
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path

from openhands_tui.sdk.facts.attachment import size_text
from openhands_tui.sdk.files.read import read_regular

#: An image is refused past this size (Anthropic's API refuses over 5 MB; OpenAI's 20 MB).
MAX_IMAGE_BYTES = 5 * 1024 * 1024
#: Images one message may carry (Anthropic allows 20 per request with the larger sizes).
MAX_IMAGES = 10

#: File name endings a path in the text must have to be looked at as an image (its bytes decide).
IMAGE_SUFFIXES = (".png", ".jpg", ".jpeg", ".gif", ".webp")
EXTENSIONS = {"image/png": "png", "image/jpeg": "jpg", "image/gif": "gif", "image/webp": "webp"}


class ImageRefused(ValueError):
    """An image that cannot be sent; the message is one line."""


@dataclass(frozen=True)
class ImageData:
    """An image's bytes, checked, with the name it is shown by."""

    name: str
    media_type: str
    data: bytes


def media_type(data: bytes) -> str | None:
    """The image format the bytes are (PNG, JPEG, GIF, WebP), from their magic numbers."""
    if data.startswith(b"\x89PNG\r\n\x1a\n"):
        return "image/png"
    if data.startswith(b"\xff\xd8\xff"):
        return "image/jpeg"
    if data.startswith((b"GIF87a", b"GIF89a")):
        return "image/gif"
    if len(data) >= 12 and data.startswith(b"RIFF") and data[8:12] == b"WEBP":
        return "image/webp"
    return None


def checked_image(name: str, data: bytes, declared: str | None = None) -> ImageData:
    """`data` as an image, or ImageRefused. `declared`: the media type the giver claimed (an
    editor's mimeType); the bytes decide, and a mismatch is refused."""
    if len(data) > MAX_IMAGE_BYTES:
        raise ImageRefused(f"{name}: {size_text(len(data))} is over the {size_text(MAX_IMAGE_BYTES)} image limit")
    found = media_type(data)
    if found is None:
        raise ImageRefused(f"{name}: not a PNG, JPEG, GIF or WebP image (by its contents)")
    if declared and declared.lower() not in (found, "image/jpg" if found == "image/jpeg" else found):
        raise ImageRefused(f"{name}: said to be {declared} but its contents are {found}")
    return ImageData(name, found, data)


def read_image(path: str | Path) -> ImageData:
    """The image file at `path`, or ImageRefused naming the cause (missing, not a regular file,
    too big, not an image)."""
    name = os.path.basename(str(path)) or str(path)
    try:
        data = read_regular(path, MAX_IMAGE_BYTES)
    except FileNotFoundError:
        raise ImageRefused(f"{path}: no such file") from None
    except OSError as exc:
        if exc.strerror and "limit" in exc.strerror:
            raise ImageRefused(f"{path}: over the {size_text(MAX_IMAGE_BYTES)} image limit") from None
        raise ImageRefused(f"{path}: cannot read it ({exc.strerror or exc})") from None
    checked = checked_image(str(path), data)  # a refusal names the path as given
    return ImageData(name, checked.media_type, data)


def looks_like_image_name(path: str) -> bool:
    return path.lower().endswith(IMAGE_SUFFIXES)
