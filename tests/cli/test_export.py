"""`tui export`: real sessions, run headless by the engine against the scripted model server,
written out as Markdown, HTML and JSON, with every agent, secrets redacted again, and nothing a
model or a command wrote able to break out of where it is shown. In-process (`cli.main`), but
the write that fails part way, which needs a file size limit of its own process."""

from __future__ import annotations

import json
import os
import resource
import signal
import subprocess
import sys
from html.parser import HTMLParser
from pathlib import Path

import pytest
from markdown_it import MarkdownIt

from openhands_tui.cli import main
from openhands_tui.export.collect import collect
from openhands_tui.export.entries import MESSAGE_LIMIT
from openhands_tui.export.model import Said
from openhands_tui.sdk.facts.event import MessageEvent, RewindEvent, SessionForkedEvent, SystemPromptEvent
from openhands_tui.sdk.facts.store import SessionMeta, SessionStore, encode_line
from openhands_tui.sdk.security.secrets import Redactor
from openhands_tui.testing import Script, ScriptedToolCall, Turn
from tests.conftest import model_args

THREE_LEVELS = Path(__file__).resolve().parents[1] / "fixtures" / "three_levels.py"

#: What a hostile model might write: markup, a script, and an attribute that runs one.
SCRIPT_PAYLOAD = '<script>alert("owned")</script><img src=x onerror="alert(1)"> & </pre></details>'
#: A file whose content tries to close the fences around it.
FENCE_PAYLOAD = "before\n```\nnot code any more\n````\n`` inline ``\n~~~\n# not a heading\nafter"
#: A message that opens a fence and never closes it, then pretends to be a heading.
UNCLOSED_FENCE = "Here is a fence that never closes:\n```python\n## root › fake section"
#: Escape sequences that would set the window title, write the clipboard (OSC 52), clear the
#: screen, and a bidi override that reorders what follows it.
TERMINAL_PAYLOAD = "look\x1b]0;pwned\x07 and\x1b]52;c;ZXZpbA==\x07 then\x1b[2J done \u202etxt.exe"
#: Not in the environment while the session runs (so it is stored as it is); set before export.
LATE_SECRET = "export-late-secret-q8Zt3vLkW2"
DOTENV_SECRET = "dotenv-db-password-7hK2mPq9"


def _call(name: str, **arguments: object) -> ScriptedToolCall:
    return ScriptedToolCall(name=name, arguments=arguments)


def _delegating_session(serve, workspace: Path, task: str = "build it", root_text: str = "I will delegate.") -> str:
    """Run root -> coder -> tester headless for real; the coder runs a command on a file of
    hostile text and writes an unclosed fence. Returns the session id."""
    (workspace / "payload.txt").write_text(FENCE_PAYLOAD)
    server = serve(
        [
            Script(
                name="root",
                match="ROLE:root",
                turns=[
                    Turn(text=root_text, tool_calls=[_call("delegate", agent="coder", task="code it")]),
                    Turn.finish("root done"),
                ],
            ),
            Script(
                name="coder",
                match="ROLE:coder",
                turns=[
                    Turn(text=UNCLOSED_FENCE, tool_calls=[_call("terminal", command="cat payload.txt")]),
                    Turn.call("terminal", command="seq 1 3000"),
                    Turn.call("delegate", agent="tester", task="test it"),
                    Turn.finish("coded"),
                ],
            ),
            Script(
                name="tester",
                match="ROLE:tester",
                turns=[Turn(text=SCRIPT_PAYLOAD, tool_calls=[_call("finish", message="tested")])],
            ),
        ]
    )
    argv = ["--headless", "-t", task, "--strategy", str(THREE_LEVELS), "--workspace", str(workspace)]
    assert main([*argv, *model_args(server)]) == 0
    return SessionStore().list_sessions()[0].id


def _export(capsys, *args: str) -> tuple[int, str, str]:
    capsys.readouterr()  # what the session's run printed
    code = main(["export", *args])
    captured = capsys.readouterr()
    return code, captured.out, captured.err


def test_a_delegating_session_exports_every_agent_in_all_three_formats(serve, workspace: Path, capsys) -> None:
    session = _delegating_session(serve, workspace)

    code, md, err = _export(capsys, session)
    assert (code, err) == (0, "")
    tokens = MarkdownIt("commonmark").parse(md)
    assert _headings(tokens) == [
        f"Session {session}: build it",
        "Agents",
        "root",
        "root › coder (coder-1)",
        "root › coder › tester (tester-2)",
    ]
    for said in ("build it", "I will delegate.", "root done", "code it", "coded", "test it", "tested"):
        assert said in md
    fences = [t.content for t in tokens if t.type == "fence"]
    assert any("command: cat payload.txt" in fence for fence in fences)
    assert any(fence.startswith(FENCE_PAYLOAD + "\n[exit code 0") for fence in fences)  # the file, whole, in one fence

    code, page, err = _export(capsys, session, "--format", "html")
    assert (code, err) == (0, "")
    text = _Page.read(page).text
    for said in ("build it", "root done", "code it", "coded", "test it", "tested", FENCE_PAYLOAD):
        assert said in text

    code, out, err = _export(capsys, session, "--format", "json")
    assert (code, err) == (0, "")
    document = json.loads(out)
    assert (document["format"], document["version"]) == ("openhands-tui-export", 1)
    assert document["session"]["id"] == session and "base_url" not in document["session"]
    agents = document["agents"]
    assert [(a["id"], a["name"], a["parent"], a["children"], a["depth"]) for a in agents] == [
        ("root", "root", None, ["coder-1"], 0),
        ("coder-1", "coder", "root", ["tester-2"], 1),
        ("tester-2", "tester", "coder-1", [], 2),
    ]
    assert [(a["task"], a["status"]) for a in agents] == [
        ("", "finished"),
        ("code it", "finished"),
        ("test it", "finished"),
    ]
    for agent, said in zip(agents, ("I will delegate.", UNCLOSED_FENCE, SCRIPT_PAYLOAD), strict=True):
        assert all(event["agent_id"] == agent["id"] for event in agent["events"])
        assert said in [e["content"] for e in agent["events"] if e["kind"] == "message"]
        assert agent["tokens"] > 0 and agent["unpriced_calls"] > 0  # the scripted model has no price
    assert agents[0]["subtree_tokens"] == sum(a["tokens"] for a in agents) == document["totals"]["tokens"]
    output = next(e["content"] for e in agents[1]["events"] if e["kind"] == "observation" and "2999" in e["content"])
    assert "1500\n" in output  # JSON keeps results whole


def test_a_long_result_is_shortened_with_a_note_of_what_was_cut(serve, workspace: Path, capsys) -> None:
    session = _delegating_session(serve, workspace)
    code, md, _ = _export(capsys, session)
    assert code == 0
    fence = next(t.content for t in MarkdownIt("commonmark").parse(md) if t.type == "fence" and "\n2999\n" in t.content)
    assert fence.startswith("1\n2\n3\n") and "\n1500\n" not in fence
    assert "lines, " in fence and "characters cut here …]" in fence


def test_markdown_fences_and_quotes_hold_whatever_the_model_and_commands_wrote(serve, workspace: Path, capsys) -> None:
    session = _delegating_session(serve, workspace)
    _, md, _ = _export(capsys, session)
    tokens = MarkdownIt("commonmark").parse(md)
    # the unclosed fence in the coder's message ends with its quote: the tester's section and the
    # coder's own calls are still sections and fences of the document
    assert _headings(tokens)[-2:] == ["root › coder (coder-1)", "root › coder › tester (tester-2)"]
    quoted_fences = [t for t in tokens if t.type == "fence" and t.level > 0]
    assert [t.content for t in quoted_fences] == ["## root › fake section\n"]
    holding = next(t.content for t in tokens if t.type == "fence" and FENCE_PAYLOAD in t.content)
    assert holding.startswith(FENCE_PAYLOAD)


def test_html_is_one_inert_page_that_shows_hostile_text_as_text(serve, workspace: Path, capsys) -> None:
    session = _delegating_session(serve, workspace, root_text=SCRIPT_PAYLOAD)
    _, page, _ = _export(capsys, session, "--format", "html")
    assert "<script" not in page.lower() and "<img" not in page.lower()  # as text only: &lt;script&gt;
    assert "&lt;script&gt;alert(&quot;owned&quot;)&lt;/script&gt;" in page
    parsed = _Page.read(page)
    assert parsed.tags <= {
        "html", "head", "meta", "title", "style", "body", "h1", "h2", "ul", "li", "b", "p", "em",
        "details", "summary", "div", "span", "pre",
    }  # fmt: skip
    assert parsed.attributes <= {"lang", "charset", "http-equiv", "content", "name", "class", "open"}
    assert parsed.text.count(SCRIPT_PAYLOAD) == 2  # the root's message and the tester's, shown as typed
    assert "http://" not in page and "https://" not in page  # nothing to fetch
    assert "default-src 'none'" in page  # and a policy that would stop a script or a fetch anyway


def test_secrets_known_only_at_export_are_redacted_in_every_format(
    serve, workspace: Path, capsys, monkeypatch: pytest.MonkeyPatch
) -> None:
    session = _delegating_session(
        serve, workspace, task=f"deploy with {LATE_SECRET}", root_text=f"using {LATE_SECRET} and {DOTENV_SECRET}"
    )
    log = SessionStore().open(session)
    assert LATE_SECRET in log.events_path.read_text()  # nobody knew it was one when it was stored
    monkeypatch.setenv("DEPLOY_TOKEN", LATE_SECRET)
    (workspace / ".env").write_text(f"DB_PASSWORD={DOTENV_SECRET}\n")
    for form in ("md", "html", "json"):
        code, out, _ = _export(capsys, session, "--format", form)
        assert code == 0
        assert LATE_SECRET not in out and DOTENV_SECRET not in out
        assert "[redacted DEPLOY_TOKEN]" in out and "[redacted DB_PASSWORD from .env]" in out
    assert json.loads(out)["session"]["title"] == "deploy with [redacted DEPLOY_TOKEN]"


GUARD = """#!/bin/sh
if grep -q "forbidden"; then
  echo "forbidden files are blocked by this project" >&2
  exit 2
fi
"""
JUDGED = """\
from openhands_tui.sdk import Agent
from openhands_tui.sdk.critic import EmptyPatchCritic, IterativeRefinementConfig
from openhands_tui.sdk.strategy import Strategy
from openhands_tui.tools.preset.default import get_default_tools

class Judged(Strategy):
    def build_agent(self, llm, params=None):
        critic = EmptyPatchCritic(iterative_refinement=IterativeRefinementConfig(max_iterations=1))
        return Agent(llm=llm, tools=get_default_tools(), critic=critic)
"""


def test_hook_and_critic_verdicts_are_in_the_export(serve, workspace: Path, tmp_path: Path, capsys) -> None:
    hooks = workspace / ".openhands"
    hooks.mkdir()
    (hooks / "guard.sh").write_text(GUARD)
    (hooks / "guard.sh").chmod(0o755)
    config = {"PreToolUse": [{"matcher": "Bash", "hooks": [{"type": "command", "command": ".openhands/guard.sh"}]}]}
    (hooks / "hooks.json").write_text(json.dumps(config))
    strategy = tmp_path / "judged.py"
    strategy.write_text(JUDGED)
    turns = [Turn.call("terminal", command="touch forbidden.txt"), Turn.finish("first"), Turn.finish("second")]
    argv = ["--headless", "-t", "clean", "--trust-project", "--strategy", str(strategy), "--workspace", str(workspace)]
    assert main([*argv, *model_args(serve([Script(turns=turns)]))]) == 0

    _, md, _ = _export(capsys, "last")
    denied = "PreToolUse hook .openhands/guard.sh (.openhands/hooks.json) → denied: forbidden files are blocked"
    assert f"- ⚓ {denied}" in md
    critics = [line for line in md.splitlines() if line.startswith("- ☆☆☆☆☆ critic EmptyPatchCritic 0%: ")]
    assert len(critics) == 2
    assert critics[0].endswith("(sent back: round 1 of 1)")
    assert "**user (sent by the critic) · +" in md  # with the context the model was sent
    assert md.index("> first") < md.index("(sent back: round 1 of 1)") < md.index("> second")
    _, page, _ = _export(capsys, "last", "--format", "html")
    assert denied in _Page.read(page).text


def test_a_secret_is_redacted_before_a_long_text_is_shortened_around_it() -> None:
    """Shortening first could cut a secret in two, and neither half would match it any more."""
    secret = "cut-in-two-secret-4Rb9xQ"
    filler = "x" * (MESSAGE_LIMIT[1] * 3 // 4 - 10)  # the secret straddles where the head ends
    events = [
        SystemPromptEvent(agent_id="root", agent_name="root", model="m", content="system"),
        MessageEvent(agent_id="root", role="assistant", content=filler + secret + "y" * MESSAGE_LIMIT[1]),
    ]
    exported = collect(SessionMeta(id="s"), events, Redactor({"LONG_TOKEN": secret}))
    (said,) = exported.agents[0].entries
    assert isinstance(said, Said) and said.text.shortened
    shown = said.text.head + said.text.tail
    assert not any(secret[i : i + 6] in shown for i in range(len(secret) - 5))
    assert exported.agents[0].events[1]["content"].startswith(filler + "[redacted LONG_TOKEN]")


def test_rewinds_leave_out_what_they_went_back_from_and_a_fork_says_where_it_came_from(
    serve, workspace: Path, capsys
) -> None:
    server = serve([Script(name="root", turns=[Turn.finish("first answer")])])
    assert main(["--headless", "-t", "first turn", "--workspace", str(workspace), *model_args(server)]) == 0
    session = SessionStore().list_sessions()[0].id
    log = SessionStore().open(session)
    abandoned = MessageEvent(agent_id="root", role="user", content="second turn, abandoned")
    later = [
        abandoned,
        MessageEvent(agent_id="root", role="assistant", content="an answer that was rewound away"),
        RewindEvent(agent_id="root", to_event=abandoned.id, turn=2),
        MessageEvent(agent_id="root", role="user", content="second turn, kept"),
        MessageEvent(agent_id="root", role="assistant", content="the answer that stays"),
    ]
    for event in later:
        log.append(event)
    log.close()

    _, md, _ = _export(capsys, session)
    assert "abandoned" not in md and "rewound away" not in md
    assert "- ↶ rewound the conversation and the files to before turn 2; what followed that point is left out" in md
    assert md.index("first answer") < md.index("rewound the conversation") < md.index("the answer that stays")
    _, out, _ = _export(capsys, session, "--format", "json")
    kinds = [event["kind"] for event in json.loads(out)["agents"][0]["events"]]
    assert "rewind" in kinds and "an answer that was rewound away" not in out

    store = SessionStore()
    fork = store.create(SessionMeta(id="fork-1", workspace=str(workspace), title="first turn"))
    fork.append(SessionForkedEvent(agent_id="root", origin=session, origin_title="first turn", turn=2))
    for event in log.load().events:
        fork.append(event)
    fork.close()
    _, md, _ = _export(capsys, "fork-1")
    assert md.startswith(f"# Session fork-1: first turn\n\n*forked from session {session} (first turn) at turn 2*\n")
    _, out, _ = _export(capsys, "fork-1", "--format", "json")
    assert json.loads(out)["forked_from"] == {"session": session, "title": "first turn", "turn": 2}


def test_nothing_written_to_stdout_can_act_on_the_terminal(serve, workspace: Path, capsys) -> None:
    server = serve([Script(name="root", turns=[Turn.finish("ok")])])
    assert main(["--headless", "-t", "go", "--workspace", str(workspace), *model_args(server)]) == 0
    session = SessionStore().list_sessions()[0].id
    log = SessionStore().open(session)  # as a model's answer would be stored by an older version
    log.append(MessageEvent(agent_id="root", role="assistant", content=TERMINAL_PAYLOAD))
    log.close()
    for form in ("md", "html", "json"):
        code, out, _ = _export(capsys, session, "--format", form)
        assert code == 0
        assert not any(ch in out for ch in "\x1b\x07\x9b\u202e"), form
        assert "look" in out and "done" in out
    assert json.loads(out)["agents"][0]["events"][-1]["content"] == TERMINAL_PAYLOAD  # JSON keeps it, escaped


def test_a_session_being_written_is_read_not_repaired(serve, workspace: Path, capsys) -> None:
    server = serve([Script(name="root", turns=[Turn.finish("ok")])])
    assert main(["--headless", "-t", "go", "--workspace", str(workspace), *model_args(server)]) == 0
    session = SessionStore().list_sessions()[0].id
    events = SessionStore().open(session).events_path
    with events.open("ab") as log:
        log.write(encode_line(b'{"kind": "message"}')[:12])  # a writer part way through a line
    size = events.stat().st_size
    code, md, err = _export(capsys, session)
    assert code == 0 and "ok" in md
    assert err.startswith("warning: ") and "dropped a torn last line" in err
    assert events.stat().st_size == size  # another tui may be about to finish that line


def test_a_bad_session_is_one_line_exit_2(capsys) -> None:
    code, out, err = _export(capsys, "nosuch")
    assert (code, out) == (2, "")
    assert err.startswith("tui: export nosuch: no such session in ") and err.count("\n") == 1
    assert "--resume" not in err
    code, _, err = _export(capsys, "../etc")
    assert code == 2 and err.startswith("tui: export ../etc: not a session id") and err.count("\n") == 1


def test_export_usage_reads_like_the_command(capsys) -> None:
    assert main(["export", "--help"]) == 0
    assert (
        capsys.readouterr().out.splitlines()[0] == "Usage: tui export SESSION [--format md|html|json] [--output FILE]"
    )


def test_an_unknown_format_is_one_line_exit_2(capsys) -> None:
    code, out, err = _export(capsys, "last", "--format", "pdf")
    assert (code, out) == (2, "")
    assert err.startswith("tui: export: Invalid value for '--format'") and "'md', 'html', 'json'" in err
    assert err.count("\n") == 1


def test_output_is_written_whole_and_named(serve, workspace: Path, tmp_path: Path, capsys) -> None:
    server = serve([Script(name="root", turns=[Turn.finish("ok")])])
    assert main(["--headless", "-t", "go", "--workspace", str(workspace), *model_args(server)]) == 0
    target = tmp_path / "out" / "session.json"
    target.parent.mkdir()
    code, out, err = _export(capsys, "last", "--format", "json", "--output", str(target))
    assert (code, err) == (0, "")
    assert out.startswith(f"wrote {target}: session ") and out.endswith(" as json, 1 agent(s)\n")
    assert target.read_text() == _export(capsys, "last", "--format", "json")[1]
    assert sorted(p.name for p in target.parent.iterdir()) == ["session.json"]


def test_an_unwritable_output_is_one_line_exit_2_and_leaves_nothing(
    serve, workspace: Path, tmp_path: Path, capsys
) -> None:
    server = serve([Script(name="root", turns=[Turn.finish("ok")])])
    assert main(["--headless", "-t", "go", "--workspace", str(workspace), *model_args(server)]) == 0
    blocker = tmp_path / "a-file"
    blocker.write_text("not a directory")
    for target, why in (
        (blocker / "out.md", "Not a directory"),
        (tmp_path / "missing" / "out.md", "No such file or directory"),
        (tmp_path, "is a directory"),
    ):
        code, out, err = _export(capsys, "last", "--output", str(target))
        assert (code, out) == (2, "")
        assert err.startswith(f"tui: --output {target}: ") and why in err and err.count("\n") == 1
    assert not (tmp_path / "missing").exists() and blocker.read_text() == "not a directory"
    assert not list(tmp_path.glob(".tui-export-*"))
    events = SessionStore().open("last").events_path
    stored = events.read_bytes()
    code, _, err = _export(capsys, "last", "--output", str(events))  # an export must never replace its own session
    assert code == 2 and err == f"tui: --output {events}: that is in the session store; write the export elsewhere\n"
    assert events.read_bytes() == stored


def _limit_file_size() -> None:
    """In the child: files stop growing at 4 KB (EFBIG), as on a disk that fills up mid-write."""
    signal.signal(signal.SIGXFSZ, signal.SIG_IGN)  # else the kernel kills the writer instead
    resource.setrlimit(resource.RLIMIT_FSIZE, (4096, 4096))


def test_a_write_that_fails_part_way_is_exit_1_and_keeps_the_earlier_file(
    serve, workspace: Path, tmp_path: Path, capsys
) -> None:
    session = _delegating_session(serve, workspace)
    target = tmp_path / "export.html"
    target.write_text("an earlier export")
    result = subprocess.run(
        [sys.executable, "-m", "openhands_tui", "export", session, "--format", "html", "--output", str(target)],
        capture_output=True,
        text=True,
        env={**os.environ, "PYTHONDONTWRITEBYTECODE": "1"},
        preexec_fn=_limit_file_size,
        timeout=120,
    )
    assert result.returncode == 1, result.stderr
    assert result.stdout == ""
    assert result.stderr == f"tui: --output {target}: File too large; nothing was written\n"
    assert target.read_text() == "an earlier export"
    assert sorted(p.name for p in tmp_path.iterdir() if p.name.startswith(".")) == []


def _headings(tokens: list) -> list[str]:
    return [tokens[i + 1].content for i, token in enumerate(tokens) if token.type == "heading_open"]


class _Page(HTMLParser):
    """Every tag and attribute name of a page, and its text as a browser shows it (unescaped)."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.tags: set[str] = set()
        self.attributes: set[str] = set()
        self.chunks: list[str] = []

    @classmethod
    def read(cls, page: str) -> _Page:
        parser = cls()
        parser.feed(page)
        parser.close()
        return parser

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.tags.add(tag)
        self.attributes.update(name for name, _ in attrs)

    def handle_data(self, data: str) -> None:
        self.chunks.append(data)

    @property
    def text(self) -> str:
        return "".join(self.chunks)
