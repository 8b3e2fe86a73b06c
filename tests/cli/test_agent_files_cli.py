"""`tui agents` lists the agents from files, the default solo agent delegates to them, and
`tui --agent NAME` runs one as the root agent."""

from __future__ import annotations

import json
from pathlib import Path

from openhands_tui.testing import Script, Turn
from tests.conftest import model_args, run_tui
from tests.context.conftest import write

REVIEWER = """---
name: reviewer
description: Reviews code; never changes it
tools: Read, Grep, WebFetch
---
ROLE:reviewer. Report problems, most severe first.
"""
OPENCODE_PLANNER = """---
description: Plans the work before anyone codes
mode: primary
tools:
  bash: false
---
ROLE:planner. Make a plan; write no code.
"""


def _project(workspace: Path) -> None:
    write(workspace / ".claude/agents/reviewer.md", REVIEWER)
    write(workspace / ".opencode/agent/planner.md", OPENCODE_PLANNER)
    write(workspace / ".gemini/agents/broken.md", "---\nname: [broken\n---\nBody\n")


def test_tui_agents_lists_each_agent_with_source_tools_model_and_problems(workspace: Path) -> None:
    _project(workspace)
    listed = run_tui("agents", "--workspace", str(workspace))
    assert listed.returncode == 0, listed.stderr
    lines = listed.stdout.splitlines()
    assert lines[:7] == [
        "reviewer: Reviews code; never changes it",
        f"    claude-code, workspace: {workspace}/.claude/agents/reviewer.md",
        "    tools: file_editor (view only); model: inherit",
        "    problem: tool WebFetch: no equivalent here; left out",
        "planner (--agent only): Plans the work before anyone codes",
        f"    opencode, workspace: {workspace}/.opencode/agent/planner.md",
        "    tools: file_editor, task_tracker; model: inherit",
    ]
    assert lines[7].startswith(f"warning: {workspace}/.gemini/agents/broken.md: skipped, broken YAML frontmatter")
    assert len(lines) == 8
    as_json = json.loads(run_tui("agents", "--json", "--workspace", str(workspace)).stdout)
    assert [(a["name"], a["format"], a["delegable"]) for a in as_json["agents"]] == [
        ("reviewer", "claude-code", True),
        ("planner", "opencode", False),
    ]
    assert as_json["agents"][0]["problems"] == ["tool WebFetch: no equivalent here; left out"]


def test_the_solo_agent_delegates_to_a_file_agent_and_the_unknown_tool_is_a_notice(
    serve, workspace: Path, isolated_home: Path
) -> None:
    _project(workspace)
    server = serve(
        [
            Script(name="reviewer", match="ROLE:reviewer", turns=[Turn.finish("two problems")]),
            Script(name="root", turns=[Turn.call("delegate", agent="reviewer", task="review it"), Turn.finish("ok")]),
        ]
    )
    result = run_tui("--headless", "--task", "review", "--workspace", str(workspace), *model_args(server))
    assert result.returncode == 0, result.stderr
    assert "warning: " + f"{workspace}/.claude/agents/reviewer.md: tool WebFetch: no equivalent here; left out" in (
        result.stderr.splitlines()
    )
    root_tools = {t["function"]["name"] for t in server.requests_for("root")[0].body["tools"]}
    assert {"terminal", "file_editor", "task_tracker", "delegate"} <= root_tools  # solo gained the delegate tool
    delegate = next(t for t in server.requests_for("root")[0].body["tools"] if t["function"]["name"] == "delegate")
    assert delegate["function"]["parameters"]["properties"]["agent"]["enum"] == ["reviewer"]  # planner: --agent only
    assert server.requests_for("reviewer") and "two problems" in server.requests_for("root")[-1].messages[-1]["content"]


def test_agent_runs_a_file_agent_as_the_root_agent(serve, workspace: Path) -> None:
    _project(workspace)
    server = serve([Script(name="planner", match="ROLE:planner", turns=[Turn.finish("the plan")])])
    result = run_tui(
        "--headless", "--agent", "planner", "--task", "plan", "--workspace", str(workspace), *model_args(server)
    )
    assert result.returncode == 0, result.stderr
    (request,) = server.requests_for("planner")
    assert "Make a plan; write no code." in request.messages[0]["content"]
    tools = {t["function"]["name"] for t in request.body["tools"]}
    assert "terminal" not in tools and "file_editor" in tools  # bash: false


def test_agent_with_no_such_agent_is_one_line_naming_those_that_exist(workspace: Path) -> None:
    _project(workspace)
    result = run_tui(
        "--headless", "--agent", "nobody", "--task", "x", "--workspace", str(workspace), "--model", "openai/none"
    )
    assert result.returncode == 2
    assert result.stderr.strip().splitlines() == ["tui: --agent nobody: no such agent (have: reviewer, planner)"]
