"""What a user's message carried besides its text: images, and the files it mentioned.

An image's bytes are not in the event: they are stored once in the session's folder
(`attachments/<sha256>.<ext>`, see `sdk/context/attachment_store.py`) and the event names them
by hash. The log stays small (an event is re-read and re-redacted as a JSON line; megabytes of
base64 in it would be scanned at every publish and every resume) and an image sent twice is
stored once. A mentioned file's text is in the message's `context` (what the model reads);
`AttachedFile` only says which file it was and how big, for the transcript.
"""

from __future__ import annotations

from pydantic import Field

from openhands_tui.sdk.model import Model

#: The folder of a session's directory that holds its messages' images.
ATTACHMENTS_FOLDER = "attachments"


def size_text(size: int) -> str:
    """`34 KB`, `2.1 KB`, `812 B`: a size as the transcript shows it."""
    if size < 1024:
        return f"{size} B"
    if size < 10 * 1024:
        return f"{size / 1024:.1f} KB"
    if size < 1024 * 1024:
        return f"{size // 1024} KB"
    return f"{size / (1024 * 1024):.1f} MB"


class AttachedImage(Model):
    """An image on a user's message, by reference to the stored bytes."""

    name: str = Field(description="What the user knows it as: the file's name, or `image-1.png`.")
    media_type: str = Field(description="image/png, image/jpeg, image/gif or image/webp (from its magic bytes).")
    sha256: str = Field(description="The stored bytes' hash: `attachments/<sha256>.<ext>` in the session folder.")
    size: int = Field(description="Bytes.")

    def label(self) -> str:
        return f"📎 {self.name} ({size_text(self.size)})"


class AttachedFile(Model):
    """A text file a user's message mentioned (`@path`) or an editor attached: its text went into
    the message's context."""

    path: str = Field(description="As the user named it, relative to the workspace.")
    size: int = Field(description="The file's size in bytes.")
    cut: bool = Field(default=False, description="Only the first part was sent (it was over the cap).")

    def label(self) -> str:
        return f"@{self.path} ({size_text(self.size)}{', cut' if self.cut else ''})"
