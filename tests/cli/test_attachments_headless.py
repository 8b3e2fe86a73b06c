"""`tui --headless --image FILE` and `@file` in the task: what reaches the model server (real
litellm over HTTP to the scripted servers), what is refused in one line, and what a resumed
session sends again."""

from __future__ import annotations

import base64
from pathlib import Path
from typing import Any

from openhands_tui.testing import Script, Turn
from tests.conftest import model_args, run_tui
from tests.context.test_attachments import tiny_png


def _parts(message: dict[str, Any]) -> list[dict[str, Any]]:
    content = message["content"]
    return content if isinstance(content, list) else [{"type": "text", "text": content}]


def _text(message: dict[str, Any]) -> str:
    return "".join(part.get("text", "") for part in _parts(message))


def test_an_image_given_with_image_reaches_the_server_as_an_image_part_again_on_resume_and_in_a_fork(
    serve, workspace: Path, tmp_path: Path
) -> None:
    shot = tmp_path / "shot.png"
    shot.write_bytes(tiny_png())
    server = serve([Script(turns=[Turn.finish("a red pixel"), Turn.finish("still red"), Turn.finish("forked")])])
    flags = [*model_args(server), "--workspace", str(workspace), "--headless"]
    done = run_tui(*flags, "--task", "what is this?", "--image", str(shot))
    assert done.returncode == 0, done.stderr
    assert "📎 shot.png (69 B)" in done.stdout
    url = "data:image/png;base64," + base64.b64encode(tiny_png()).decode()
    first = server.requests[0].messages[1]
    assert {"type": "image_url", "image_url": {"url": url}} in _parts(first)
    assert _text(first).startswith("what is this?")

    again = run_tui(*flags, "--resume", "last", "--task", "and now?")
    assert again.returncode == 0, again.stderr
    resent = server.requests[1].messages[1]
    assert {"type": "image_url", "image_url": {"url": url}} in _parts(resent)

    forked = run_tui(*flags, "--resume", "last", "--fork", "--task", "and in a fork?")
    assert forked.returncode == 0, forked.stderr
    assert {"type": "image_url", "image_url": {"url": url}} in _parts(server.requests[2].messages[1])


def test_a_missing_fake_or_too_big_image_is_refused_in_one_line_naming_the_flag(
    serve, workspace: Path, tmp_path: Path
) -> None:
    server = serve([Script(turns=[Turn.finish("never")])])
    flags = [*model_args(server), "--workspace", str(workspace), "--headless", "--task", "look"]
    fake = tmp_path / "fake.png"
    fake.write_text("hello")
    big = tmp_path / "big.png"
    big.write_bytes(tiny_png() + b"\0" * (5 * 1024 * 1024))
    for path, cause in [
        (fake, "not a PNG, JPEG, GIF or WebP image"),
        (big, "over the 5.0 MB image limit"),
        (tmp_path / "gone.png", "no such file"),
    ]:
        refused = run_tui(*flags, "--image", str(path))
        assert refused.returncode == 2, refused.stderr
        lines = refused.stderr.strip().splitlines()
        assert len(lines) == 1 and f"--image {path}" in lines[0] and cause in lines[0]
    assert server.requests == []


def test_at_file_sends_the_files_text_and_outside_or_secret_mentions_are_refused_with_a_note(
    serve, workspace: Path, tmp_path: Path
) -> None:
    (workspace / "src").mkdir()
    (workspace / "src" / "app.py").write_text("def answer():\n    return 42\n")
    (workspace / ".env").write_text("API_KEY=sk-very-secret-value\n")
    (tmp_path / "outside.txt").write_text("far away text\n")
    server = serve([Script(turns=[Turn.finish("read it")])])
    task = "explain @src/app.py, @../outside.txt and @.env (mail me@host.com)"
    done = run_tui(*model_args(server), "--workspace", str(workspace), "--headless", "--task", task)
    assert done.returncode == 0, done.stderr
    sent = _text(server.requests[0].messages[1])
    assert '<FILE path="src/app.py">\ndef answer():\n    return 42' in sent
    assert "far away text" not in sent and "sk-very-secret-value" not in sent
    assert "@../outside.txt was not attached: outside the workspace" in sent
    assert "@.env was not attached: .env holds secrets" in done.stdout
    assert "@src/app.py (28 B)" in done.stdout


def test_the_anthropic_api_receives_an_image_block_through_litellm(serve, workspace: Path, tmp_path: Path) -> None:
    shot = tmp_path / "shot.png"
    shot.write_bytes(tiny_png())
    server = serve([Script(turns=[Turn.finish("a pixel")])], api="anthropic")
    done = run_tui(
        *model_args(server), "--workspace", str(workspace), "--headless", "--task", "see", "--image", str(shot)
    )
    assert done.returncode == 0, done.stderr
    assert server.refusals == []
    blocks = server.requests[0].messages[0]["content"]
    image = next(block for block in blocks if block["type"] == "image")
    assert image["source"] == {
        "type": "base64",
        "media_type": "image/png",
        "data": base64.b64encode(tiny_png()).decode(),
    }
    assert blocks[-1].get("cache_control") == {"type": "ephemeral"}  # the breakpoint survived the list
