"""`tui --demo`: the whole product against a built-in scripted model, with no API key.

The demo starts the scripted OpenAI-compatible server in-process, points the run at it and
uses a fresh temporary workspace, so trying it never touches the user's files or money.
"""

from __future__ import annotations

import tempfile
from pathlib import Path

from openhands_tui.testing import Script, ScriptedLLMServer, ScriptedToolCall, Turn

DEMO_TASK = "DEMO: write a tiny greeting script, run it, and report what it printed."
DEMO_MODEL = "openai/scripted-demo"

_GREETING = 'import sys\n\nname = sys.argv[1] if len(sys.argv) > 1 else "world"\nprint(f"hello, {name}!")\n'


def demo_scripts() -> list[Script]:
    def call(name: str, **arguments: object) -> ScriptedToolCall:
        return ScriptedToolCall(name=name, arguments=arguments)

    return [
        Script(
            name="demo",
            turns=[
                Turn(
                    text="I'll plan the work, then write and run the script.",
                    tool_calls=[
                        call(
                            "task_tracker",
                            command="plan",
                            task_list=[
                                {"title": "write greet.py", "status": "in_progress"},
                                {"title": "run it", "status": "todo"},
                            ],
                        )
                    ],
                    chunk_delay=0.01,
                ),
                Turn(
                    tool_calls=[
                        call(
                            "file_editor",
                            command="create",
                            path="greet.py",
                            file_text=_GREETING,
                            security_risk="MEDIUM",
                        )
                    ]
                ),
                Turn(tool_calls=[call("terminal", command="python3 greet.py demo", security_risk="MEDIUM")]),
                Turn(
                    tool_calls=[
                        call(
                            "file_editor",
                            command="str_replace",
                            path="greet.py",
                            old_str='print(f"hello, {name}!")',
                            new_str='print(f"Hello, {name}!")',
                            security_risk="MEDIUM",
                        )
                    ]
                ),
                Turn(
                    tool_calls=[call("terminal", command="python3 greet.py demo && ls", security_risk="LOW")]
                ),
                Turn(
                    text="Done.",
                    tool_calls=[
                        call(
                            "finish",
                            message=(
                                "Wrote greet.py, ran it (`python3 greet.py demo` prints `Hello, demo!`) and "
                                "capitalised the greeting. This was a scripted demo: no model was called."
                            ),
                        )
                    ],
                ),
            ],
        )
    ]


def start_demo_server() -> ScriptedLLMServer:
    return ScriptedLLMServer(demo_scripts(), record=False).start()


def demo_workspace() -> Path:
    return Path(tempfile.mkdtemp(prefix="openhands-tui-demo-"))
