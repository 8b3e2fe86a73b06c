"""`tui --demo`: the whole product against a built-in scripted model, with no API key.

The waterfall strategy runs a canned multi-agent session: the root delegates a design, then
the implementation (whose task mentions pytest, so the testing microagent fires for the
coder), the coder edits files and asks to run a HIGH-risk command (you approve or reject
it), and the root verifies. The scripted server runs in-process and the workspace is a fresh
temporary directory, so trying it touches none of your files and costs nothing.
"""

from __future__ import annotations

import tempfile
from pathlib import Path

from openhands_tui.testing import Script, ScriptedLLMServer, ScriptedToolCall, Turn

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
"""
_DESIGN = (
    "## Design: todos\n\n"
    "- `todos.py`: `add(title)` and `complete(id)` over an in-memory list.\n"
    "- `test_todos.py`: one pytest test covering add then complete.\n"
    "- Errors: completing an unknown id raises `StopIteration` (acceptable for a demo)."
)


def _call(name: str, **arguments: object) -> ScriptedToolCall:
    return ScriptedToolCall(name=name, arguments=arguments)


def demo_scripts() -> list[Script]:
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
                Turn(
                    tool_calls=[
                        _call("terminal", command="python3 -m pytest -q 2>&1 | tail -3", security_risk="MEDIUM")
                    ]
                ),
                Turn(
                    text="Done.",
                    tool_calls=[
                        _call(
                            "finish",
                            message=(
                                "Built `todos.py` and `test_todos.py`; the tests pass. "
                                "This was a scripted DEMO: no model was called."
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
                            command="rm -rf build && python3 -m pytest -q 2>&1 | tail -3",
                            security_risk="LOW",
                        )
                    ],
                ),
                Turn(tool_calls=[_call("finish", message="Implemented todos.py with a pytest test.")]),
            ],
        ),
    ]


def start_demo_server() -> ScriptedLLMServer:
    return ScriptedLLMServer(demo_scripts(), record=False).start()


def demo_workspace() -> Path:
    return Path(tempfile.mkdtemp(prefix="openhands-tui-demo-"))
