"""`tui --demo`: the whole product against a built-in scripted model, with no API key.

The waterfall strategy runs a canned multi-agent session: the root delegates a design, then
the implementation (whose task mentions pytest, so the testing microagent fires for the
coder), the coder edits files and asks to run a HIGH-risk command (you approve or reject
it), and the root runs the test again. The scripted server runs in-process and the workspace
is a fresh temporary directory, removed when the demo ends, so trying it touches none of your
files and costs nothing.

The messages are canned, but the commands really run, so they must work on a fresh install
(plain `python3`, no pytest) and the canned words claim nothing the commands did not show:
a failing test is a red exit code on screen, not a hidden one behind a pipe.
"""

from __future__ import annotations

import shutil
import tempfile
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:  # the scripted server is imported only when the demo runs
    from openhands_tui.testing import Script, ScriptedLLMServer, ScriptedToolCall

DEMO_TASK = "DEMO: build a tiny todo module with tests"
DEMO_MODEL = "openai/scripted-demo"
DEMO_STRATEGY = "builtin:waterfall"

_TODOS = '''"""A tiny in-memory todo list."""

TODOS: list[dict] = []


def add(title: str) -> dict:
    item = {"id": len(TODOS) + 1, "title": title, "done": False}
    TODOS.append(item)
    return item


def complete(item_id: int) -> dict:
    item = next(t for t in TODOS if t["id"] == item_id)
    item["done"] = True
    return item
'''
_TESTS = """from todos import TODOS, add, complete


def test_add_and_complete():
    TODOS.clear()
    item = add("write tests")
    assert complete(item["id"])["done"] is True


if __name__ == "__main__":  # runs without pytest too
    test_add_and_complete()
    print("test_add_and_complete passed")
"""
#: The check both agents run: works with plain python3, and fails loudly (exit 1) if the test does.
CHECK = "python3 test_todos.py"
_DESIGN = (
    "## Design: todos\n\n"
    "- `todos.py`: `add(title)` and `complete(id)` over an in-memory list.\n"
    "- `test_todos.py`: one pytest test covering add then complete (also runs as a script).\n"
    "- Errors: completing an unknown id raises `StopIteration` (acceptable for a demo)."
)


def _call(name: str, **arguments: object) -> ScriptedToolCall:
    from openhands_tui.testing import ScriptedToolCall

    return ScriptedToolCall(name=name, arguments=arguments)


def demo_scripts() -> list[Script]:
    from openhands_tui.testing import Script, Turn

    streaming = 0.02
    return [
        Script(
            name="root",
            match="Orchestrate a waterfall process",
            turns=[
                Turn(
                    text="I'll get a design first, then have it implemented, then check it.",
                    tool_calls=[_call("delegate", agent="designer", task="Design a tiny todo module with tests.")],
                    chunk_delay=streaming,
                ),
                Turn(
                    tool_calls=[
                        _call("delegate", agent="coder", task=f"Implement this design, with pytest tests:\n\n{_DESIGN}")
                    ]
                ),
                Turn(tool_calls=[_call("terminal", command=CHECK, security_risk="MEDIUM")]),
                Turn(
                    text="The check above ran; its exit code is the verdict.",
                    tool_calls=[
                        _call(
                            "finish",
                            message=(
                                f"Built `todos.py` and `test_todos.py` and ran `{CHECK}` (result above). "
                                "This was a scripted DEMO: the messages are canned and no model was called; "
                                "the files and commands were real."
                            ),
                        )
                    ],
                ),
            ],
        ),
        Script(
            name="designer",
            match="You are a system architect",
            turns=[
                Turn(tool_calls=[_call("file_editor", command="view", path=".")]),
                Turn(text="Here is the design.", tool_calls=[_call("finish", message=_DESIGN)], chunk_delay=streaming),
            ],
        ),
        Script(
            name="coder",
            match="You are an implementation engineer",
            turns=[
                Turn(
                    tool_calls=[
                        _call(
                            "file_editor", command="create", path="todos.py", file_text=_TODOS, security_risk="MEDIUM"
                        )
                    ]
                ),
                Turn(
                    tool_calls=[
                        _call(
                            "file_editor",
                            command="create",
                            path="test_todos.py",
                            file_text=_TESTS,
                            security_risk="MEDIUM",
                        )
                    ]
                ),
                Turn(
                    text="Cleaning old build output before running the tests.",
                    tool_calls=[
                        _call(
                            "terminal",
                            command=f"rm -rf build && {CHECK}",
                            security_risk="LOW",
                        )
                    ],
                ),
                Turn(
                    tool_calls=[
                        _call(
                            "finish",
                            message=(
                                f"Implemented todos.py with a pytest test and asked to run `{CHECK}`; "
                                "whether it ran is above."
                            ),
                        )
                    ]
                ),
            ],
        ),
    ]


def start_demo_server() -> ScriptedLLMServer:
    from openhands_tui.testing import ScriptedLLMServer

    return ScriptedLLMServer(demo_scripts(), record=False).start()


def demo_workspace() -> Path:
    return Path(tempfile.mkdtemp(prefix="openhands-tui-demo-"))


def remove_demo_workspace(workspace: Path) -> None:
    """The demo's own temporary workspace goes when the demo ends (one given with --workspace stays)."""
    shutil.rmtree(workspace, ignore_errors=True)


def resume_hint(session_id: str, model: str | None) -> str:
    """How to continue a session: a demo one needs the scripted model back (`--demo`)."""
    demo = " --demo" if model == DEMO_MODEL else ""
    return f"tui{demo} --resume {session_id}"
