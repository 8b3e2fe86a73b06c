"""Images in a tool's result (an MCP server's screenshot, an SDK-style tool's `ImageContent`):
checked, capped and stored like a user's `--image`, then sent to the model in a user message after
the response's tool results (providers take images only from users), when the model takes images.

A tool is as untrusted as a command, so its images get the checks a user's do and more: the
format is read from the bytes (a "PNG" that is a shell script is refused, whatever the tool
declared), each is capped in size before it is even decoded, and a result carries at most
MAX_RESULT_IMAGES. The bytes go to the session's attachment store (`attachments/<sha256>`),
the event names them by hash, so the log stays small and a resumed session rebuilds the same
message. A model known not to take images (litellm's list) reads a note instead, as does one
whose image was refused, with the reason.
"""

from __future__ import annotations

import base64
import binascii

from openhands_tui.sdk.context.attachment_store import AttachmentStore
from openhands_tui.sdk.context.images import EXTENSIONS, MAX_IMAGE_BYTES, ImageData, ImageRefused, checked_image
from openhands_tui.sdk.facts.attachment import AttachedImage, size_text
from openhands_tui.sdk.llm.message import ImageContent
from openhands_tui.sdk.tool import Observation

#: Images one tool result may carry to the model (the rest are noted).
MAX_RESULT_IMAGES = 4
#: Base64 text longer than this is refused before decoding (what MAX_IMAGE_BYTES encodes to).
_MAX_ENCODED = (MAX_IMAGE_BYTES * 4) // 3 + 4


def result_images(observation: Observation) -> list[str]:
    """The image URLs of a result's content (none for a text result)."""
    if isinstance(observation.content, str):
        return []
    return [url for part in observation.content if isinstance(part, ImageContent) for url in part.image_urls]


def keep_images(observation: Observation, store: AttachmentStore, takes_images: bool | None, tool: str) -> Observation:
    """`observation` with its images stored and listed in `images` (for the model), and a line
    in its text for each: attached, or why not."""
    urls = result_images(observation)
    if not urls:
        return observation
    kept: list[AttachedImage] = []
    notes: list[str] = []
    for number, url in enumerate(urls, 1):
        name = f"{tool}-image-{number}"
        if takes_images is False:
            notes.append(f"[{name} returned by the tool; this model does not take images, so it is not shown]")
            continue
        if len(kept) >= MAX_RESULT_IMAGES:
            notes.append(f"[{name} returned by the tool; not shown: over {MAX_RESULT_IMAGES} images in one result]")
            continue
        try:
            image = checked_image(name, *_decoded(name, url))
        except ImageRefused as refused:
            notes.append(f"[an image returned by the tool was not shown: {refused}]")
            continue
        named = ImageData(f"{name}.{EXTENSIONS[image.media_type]}", image.media_type, image.data)
        attached = store.put(named)
        kept.append(attached)
        notes.append(
            f"[{attached.name} ({size_text(attached.size)}) returned by the tool; shown after the tool results]"
        )
    text = "\n".join(part for part in (observation.text, *notes) if part)
    return observation.model_copy(update={"text": text, "images": kept})


def _decoded(name: str, url: str) -> tuple[bytes, str | None]:
    """The bytes of a `data:` URL and the media type it declares; ImageRefused for anything else
    (a tool's http URL is not fetched: that would be a request nobody approved)."""
    if not url.startswith("data:") or "," not in url:
        raise ImageRefused(f"{name}: only inline (data:) images are shown, not {url[:60]!r}")
    header, encoded = url[5:].split(",", 1)
    if not header.endswith(";base64"):
        raise ImageRefused(f"{name}: not base64-encoded")
    if len(encoded) > _MAX_ENCODED:
        raise ImageRefused(f"{name}: over the {size_text(MAX_IMAGE_BYTES)} image limit")
    try:
        data = base64.b64decode(encoded, validate=True)
    except (binascii.Error, ValueError):
        raise ImageRefused(f"{name}: its base64 data is broken") from None
    declared = header[: -len(";base64")].strip() or None
    return data, declared
