"""What a user's message attaches: `@file` mentions, typed or dropped image paths, and how the
images are stored, sent, estimated and rebuilt (no model involved: the engine's own parts)."""

from __future__ import annotations

import base64
import os
import stat
import struct
import zlib
from pathlib import Path

import pytest

from openhands_tui.sdk.context.attachment_store import AttachmentStore
from openhands_tui.sdk.context.attachments import MAX_FILE_BYTES, AttachmentRefused, Given, attach
from openhands_tui.sdk.context.condenser import approx_tokens
from openhands_tui.sdk.context.images import MAX_IMAGE_BYTES, ImageData, ImageRefused, checked_image, read_image
from openhands_tui.sdk.context.mentions import image_paths, mentions
from openhands_tui.sdk.facts.event import MessageEvent
from openhands_tui.sdk.llm.provider import CACHE_CONTROL, with_breakpoints
from openhands_tui.sdk.run.messages import MessageBuilder


def tiny_png(red: int = 255) -> bytes:
    """A valid 1x1 RGB PNG, built here (no binary fixtures)."""

    def chunk(kind: bytes, data: bytes) -> bytes:
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data) & 0xFFFFFFFF)

    header = struct.pack(">IIBBBBB", 1, 1, 8, 2, 0, 0, 0)
    pixels = zlib.compress(bytes([0, red, 0, 0]))
    return b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", header) + chunk(b"IDAT", pixels) + chunk(b"IEND", b"")


def test_mentions_are_at_paths_quoted_or_bare_and_an_email_is_not_one() -> None:
    found = mentions('see @src/app.py, @"with space.txt" and write to me@host.com or @x.')
    assert [m.path for m in found] == ["src/app.py", "with space.txt", "x."]
    assert found[2].candidates() == ["x.", "x"]


def test_dropped_image_paths_are_found_quoted_bare_or_with_escaped_spaces() -> None:
    text = "what is in /tmp/My\\ Shot.png and '/x/y z.jpg' or shot.webp? not notes.txt"
    assert image_paths(text) == ["/x/y z.jpg", "/tmp/My Shot.png", "shot.webp"]


def test_an_image_is_judged_by_its_bytes_and_its_size_not_its_name(tmp_path: Path) -> None:
    assert checked_image("a.png", tiny_png()).media_type == "image/png"
    fake = tmp_path / "fake.png"
    fake.write_text("not an image")
    with pytest.raises(ImageRefused, match="not a PNG, JPEG, GIF or WebP"):
        read_image(fake)
    big = tmp_path / "big.png"
    big.write_bytes(tiny_png() + b"\0" * MAX_IMAGE_BYTES)
    with pytest.raises(ImageRefused, match=r"over the 5\.0 MB image limit"):
        read_image(big)
    with pytest.raises(ImageRefused, match="said to be image/jpeg but its contents are image/png"):
        checked_image("x", tiny_png(), declared="image/jpeg")


def test_a_mentioned_text_file_goes_as_context_and_is_capped(workspace: Path) -> None:
    (workspace / "src").mkdir()
    (workspace / "src" / "app.py").write_text("print('hi')\n")
    (workspace / "huge.txt").write_text("x" * (MAX_FILE_BYTES + 10))
    attached = attach("fix @src/app.py and @huge.txt please", workspace, AttachmentStore())
    assert attached.notes == []
    assert "<FILE path=\"src/app.py\">\nprint('hi')\n\n</FILE>" in attached.context[0]
    assert "cut: only the first 100 KB" in attached.context[1]
    assert [f.label() for f in attached.files] == ["@src/app.py (12 B)", "@huge.txt (100 KB, cut)"]


def test_mentions_outside_the_workspace_of_secrets_or_through_a_symlink_out_are_refused_in_one_line(
    tmp_path: Path, workspace: Path
) -> None:
    (tmp_path / "outside.txt").write_text("outside secret")
    (workspace / ".env").write_text("API_KEY=abc")
    (tmp_path / "other.txt").write_text("another")
    (workspace / "link.txt").symlink_to(tmp_path / "other.txt")
    (workspace / ".git").mkdir()
    (workspace / ".git" / "config").write_text("[remote] url=https://token@host")
    text = "look at @../outside.txt @.env @link.txt @.git/config @/etc/passwd and mail me@host.com @nobody"
    attached = attach(text, workspace, AttachmentStore())
    assert attached.context == [] and attached.files == []
    assert attached.notes == [
        "@../outside.txt was not attached: outside the workspace",
        "@.env was not attached: .env holds secrets (keys, tokens or credentials)",
        "@link.txt was not attached: outside the workspace",
        "@.git/config was not attached: version control internals (they can hold credentials)",
        "@/etc/passwd was not attached: outside the workspace",
    ]


def test_a_dropped_image_path_is_attached_and_stored_once_by_hash_with_mode_600(
    tmp_path: Path, workspace: Path
) -> None:
    shot = tmp_path / "My Shot.png"
    shot.write_bytes(tiny_png())
    (workspace / "logo.png").write_text("a text file named like an image")
    (tmp_path / "session").mkdir()
    store = AttachmentStore(tmp_path / "session" / "attachments")
    text = f"what is wrong here: {str(shot).replace(' ', chr(92) + ' ')} and in logo.png, @{shot.name}"
    attached = attach(text, workspace, store)
    assert [i.label() for i in attached.images] == ["📎 My Shot.png (69 B)"]
    stored = store.directory / f"{attached.images[0].sha256}.png"  # type: ignore[operator]
    assert stored.read_bytes() == tiny_png() and stat.S_IMODE(os.stat(stored).st_mode) == 0o600
    assert attach(text, workspace, store).images == attached.images  # the same bytes: the same file


def test_a_model_known_to_take_no_images_refuses_given_ones_and_notes_found_ones(workspace: Path) -> None:
    (workspace / "a.png").write_bytes(tiny_png())
    given = Given(images=[ImageData("b.png", "image/png", tiny_png())])
    with pytest.raises(AttachmentRefused, match=r"gpt-3\.5-turbo does not accept images"):
        attach("x", workspace, AttachmentStore(), given, model="gpt-3.5-turbo", takes_images=lambda: False)
    found = attach("see @a.png", workspace, AttachmentStore(), model="gpt-3.5-turbo", takes_images=lambda: False)
    assert found.images == [] and found.notes == ["@a.png was not attached: gpt-3.5-turbo does not accept images"]


def test_a_message_with_images_is_sent_as_text_and_image_url_parts_and_a_lost_image_as_a_note(
    tmp_path: Path,
) -> None:
    store = AttachmentStore(tmp_path / "attachments")
    image = store.put(ImageData("shot.png", "image/png", tiny_png()))
    event = MessageEvent(agent_id="root", role="user", content="what is this", context=["ctx"], images=[image])
    builder = MessageBuilder("root", AttachmentStore(tmp_path / "attachments").read)  # as on resume: from disk
    builder.add(event)
    url = "data:image/png;base64," + base64.b64encode(tiny_png()).decode()
    assert builder.messages[0]["content"] == [
        {"type": "text", "text": "what is this\n\nctx"},
        {"type": "image_url", "image_url": {"url": url}},
    ]
    (tmp_path / "attachments" / f"{image.sha256}.png").unlink()
    resumed = MessageBuilder("root", AttachmentStore(tmp_path / "attachments").read)
    resumed.add(event)
    assert "shot.png" in resumed.messages[0]["content"][1]["text"]
    assert "no longer stored" in resumed.messages[0]["content"][1]["text"]


def test_token_estimates_count_an_image_as_a_fixed_cost_and_breakpoints_mark_its_last_part() -> None:
    text_only = [{"role": "user", "content": "hello"}]
    with_image = [
        {
            "role": "user",
            "content": [{"type": "text", "text": "hello"}, {"type": "image_url", "image_url": {"url": "data:x"}}],
        }
    ]
    assert approx_tokens(with_image) == approx_tokens(text_only) + 1_500
    marked, _ = with_breakpoints([{"role": "system", "content": "s"}, *with_image], None)
    assert marked[1]["content"][-1]["cache_control"] == CACHE_CONTROL and "cache_control" not in marked[1]
    assert "cache_control" not in with_image[0]["content"][-1]  # the history itself is not changed
