"""What reaches the user's terminal is text, never escape sequences: every word a repository or a
prompt-injected model chose (a microagent's name and triggers, a session's title, the model's
own text, a command's output, a project's MCP servers) is shown without them, in `tui sessions`,
`tui microagents`, `tui mcp list` and a headless run, and `--json` output stays one valid JSON
document a line."""

from __future__ import annotations

import json
from pathlib import Path

from openhands_tui.testing import Script, Turn
from tests.conftest import model_args, run_tui

KEY = "sk-shown-text"
#: A window title, an OSC 8 link, a screen clear, a bidi override, an 8-bit CSI and a bell.
HOSTILE = "\x1b]0;pwned\x07\x1b]8;;https://evil.example\x1b\\click\x1b]8;;\x1b\\\x1b[2J\u202e\x9b31m\x07"


def _repository(workspace: Path) -> None:
    folder = workspace / ".openhands" / "microagents"
    folder.mkdir(parents=True)
    name = json.dumps("deploy" + HOSTILE)  # a YAML double-quoted string holds the escapes
    (folder / "deploy.md").write_text(f"---\nname: {name}\ntriggers: [{json.dumps('ship' + HOSTILE)}, ship]\n---\nx\n")


def _no_escapes(text: str) -> None:
    assert "\x1b" not in text and "\x9b" not in text and "\x07" not in text and "\u202e" not in text, repr(text)


def test_a_headless_run_shows_no_escape_the_model_or_repository_wrote(serve, workspace: Path) -> None:
    _repository(workspace)
    server = serve([Script(turns=[Turn(text="working" + HOSTILE), Turn.finish("done" + HOSTILE)])])
    task = "ship it" + HOSTILE
    result = run_tui("--headless", "--task", task, "--workspace", str(workspace), *model_args(server, KEY))
    assert result.returncode == 0, result.stderr
    _no_escapes(result.stdout)
    _no_escapes(result.stderr)

    listing = run_tui("sessions")
    assert listing.returncode == 0 and "ship it" in listing.stdout
    _no_escapes(listing.stdout)

    shown = run_tui("microagents", "--workspace", str(workspace))
    assert "deploy" in shown.stdout
    _no_escapes(shown.stdout)


def test_headless_json_stays_one_valid_document_a_line(serve, workspace: Path) -> None:
    _repository(workspace)
    server = serve([Script(turns=[Turn(text="a\u2028b" + HOSTILE), Turn.finish("done\r\n" + HOSTILE)])])
    args = ["--headless", "--json", "--task", "ship" + HOSTILE, "--workspace", str(workspace)]
    result = run_tui(*args, *model_args(server, KEY))
    assert result.returncode == 0, result.stderr
    lines = result.stdout.split("\n")[:-1]  # a JSON Lines reader splits at \n only
    assert all(json.loads(line) for line in result.stdout.splitlines())  # and no \u2028 splits one
    events = [json.loads(line) for line in lines]
    assert any(e.get("kind") == "microagent_triggered" for e in events)
    assert any("a\u2028b" in str(e.get("content")) for e in events)  # the value itself is kept
    _no_escapes(result.stdout)  # json.dumps escapes them as \u001b: valid, and inert on a terminal


def test_mcp_list_shows_a_projects_servers_without_their_escapes(workspace: Path) -> None:
    """`tui mcp list` is where a user reviews a cloned project's servers before trusting them:
    an escape in a name or command must not rewrite the line or the window title."""
    servers = {"mcpServers": {"docs" + HOSTILE: {"command": "npx" + HOSTILE, "args": ["docs-server"]}}}
    (workspace / ".mcp.json").write_text(json.dumps(servers))
    listing = run_tui("mcp", "list", "--workspace", str(workspace))
    assert listing.returncode == 0 and "docs" in listing.stdout and "docs-server" in listing.stdout
    _no_escapes(listing.stdout)
    assert "<U+202E>" in listing.stdout  # the bidi override is named, not obeyed
    as_json = run_tui("mcp", "list", "--json", "--workspace", str(workspace))
    assert json.loads(as_json.stdout)[0]["name"] == "docs" + HOSTILE  # JSON keeps the value, escaped
    _no_escapes(as_json.stdout)
