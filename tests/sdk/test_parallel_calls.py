"""Side-effect-free calls of one response run side by side (OpenHive's tool partitioning):
reads overlap up to a cap, results keep the model's order, and a write stays where it was."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

from pydantic import Field

from openhands_tui.sdk import Agent
from openhands_tui.sdk.facts.subject import OtherSubject, Subject
from openhands_tui.sdk.run.actions import MAX_PARALLEL_CALLS
from openhands_tui.sdk.tool import Action, Observation, Tool, ToolContext, ToolDefinition, register_tool
from openhands_tui.testing import Script, ScriptedToolCall, Turn
from openhands_tui.tools.preset.default import get_default_tools
from tests.conftest import llm_for
from tests.sdk.helpers import run

RUNNING: list[int] = []
PEAK: list[int] = [0]


class LookAction(Action):
    key: str = Field(description="What to look up.")


class SlowLookup(ToolDefinition[LookAction]):
    """A lookup that takes half a second and changes nothing (like a read-only MCP tool)."""

    name = "lookup"
    description = "Look something up (slow, read-only)."
    action_type = LookAction

    def subject(self, action: LookAction) -> Subject:
        return OtherSubject(tool=self.name, changes=False)

    async def run(self, action: LookAction) -> Observation:
        RUNNING.append(1)
        PEAK[0] = max(PEAK[0], len(RUNNING))
        try:
            await asyncio.sleep(0.5 if not action.key.startswith("fast") else 0.01)
        finally:
            RUNNING.pop()
        return Observation(text=f"value of {action.key}")


def _lookups(params: dict[str, Any], ctx: ToolContext) -> list[SlowLookup]:
    return [SlowLookup()]


register_tool("SlowLookup", _lookups)


def _look(key: str) -> ScriptedToolCall:
    return ScriptedToolCall(name="lookup", arguments={"key": key})


def _agent(server) -> Agent:
    return Agent(llm=llm_for(server), tools=[*get_default_tools(), Tool(name="SlowLookup")])


async def test_eight_slow_reads_run_at_once(serve, workspace: Path) -> None:
    keys = [f"k{n}" for n in range(8)]
    server = serve([Script(turns=[Turn(tool_calls=[_look(k) for k in keys]), Turn.finish("done")])])
    PEAK[0] = 0
    result = await run(_agent(server), workspace, "look them up")
    assert PEAK[0] == 8  # all eight lookups were running at once (how long that took is a benchmark's)
    assert [o.content for o in result.kinds("observation")][:8] == [f"value of {k}" for k in keys]
    assert {a.parallel for a in result.kinds("action") if a.tool_name == "lookup"} == {8}
    sent = [m["content"] for m in server.requests[1].messages if m["role"] == "tool"]
    assert sent == [f"value of {k}" for k in keys]  # in the order the model asked


async def test_more_reads_than_the_cap_wait_their_turn(serve, workspace: Path) -> None:
    calls = [_look(f"fast{n}") for n in range(MAX_PARALLEL_CALLS * 2)]
    server = serve([Script(turns=[Turn(tool_calls=calls), Turn.finish("done")])])
    PEAK[0] = 0
    await run(_agent(server), workspace, "look")
    assert PEAK[0] <= MAX_PARALLEL_CALLS


async def test_a_write_keeps_its_place_among_reads(serve, workspace: Path) -> None:
    (workspace / "notes.txt").write_text("before\n")
    calls = [
        _look("k1"),
        ScriptedToolCall(name="file_editor", arguments={"command": "view", "path": "notes.txt"}),
        ScriptedToolCall(
            name="file_editor",
            arguments={"command": "str_replace", "path": "notes.txt", "old_str": "before", "new_str": "after"},
        ),
        ScriptedToolCall(name="file_editor", arguments={"command": "view", "path": "notes.txt"}),
        _look("k2"),
    ]
    server = serve([Script(turns=[Turn(tool_calls=calls), Turn.finish("done")])])
    result = await run(_agent(server), workspace, "edit")
    contents = [o.content for o in result.kinds("observation")][:5]
    assert "before" in contents[1] and "after" not in contents[1]  # the read before the write saw "before"
    assert "after" in contents[3]  # the read after it saw "after"
    assert [a.parallel for a in result.kinds("action")][:5] == [2, 2, 0, 2, 2]
