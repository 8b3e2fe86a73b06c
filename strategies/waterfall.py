"""Waterfall: design, then code, then verify — each phase done by a fresh specialist.

When to use it: a well-specified feature or service (a REST API, a CLI command, a module)
where a short written design before coding saves rework. The root agent delegates the
design to `designer`, hands the design to `coder`, then checks the result itself (reads the
code, runs the tests) and reports.

    tui --strategy strategies/waterfall.py --param max_turns=12 --task "Build a REST API for todos"

Param `max_turns`: how many model calls each phase's agent may make. This file is also
the built-in `builtin:waterfall` that `tui --demo` runs.
"""

from __future__ import annotations

from typing import Any

from openhands_tui.sdk import LLM, Agent, AgentContext
from openhands_tui.sdk.strategy import Strategy, StrategyParam
from openhands_tui.sdk.tool import Tool
from openhands_tui.tools.delegate import register_agent
from openhands_tui.tools.preset.default import get_default_tools

DESIGNER_PROMPT = """\
You are a system architect. Read what you need of the repository, then write a concise design \
doc: components and files, data shapes, interfaces, error cases, and how it will be tested. \
Do not write the implementation. Finish with the design doc as your report."""

CODER_PROMPT = """\
You are an implementation engineer. Implement exactly the design you are given, with tests, \
keeping to the repository's conventions. Run the tests before you finish, and report what you \
built, where, and the test results."""


class Waterfall(Strategy):
    """Design → code → verify, one specialist per phase."""

    name = "waterfall"
    description = "Design → Code → Test pipeline"
    params = [StrategyParam(name="max_turns", type="integer", default=8, description="Max turns per phase")]

    def __init__(self) -> None:
        self.max_turns = 8

    def setup(self) -> None:
        register_agent("designer", self._designer, "System architect: reads the repo, writes a design doc")
        register_agent("coder", self._coder, "Implementation engineer: implements a design, with tests")

    def _designer(self, llm: LLM) -> Agent:
        return Agent(
            llm=llm,
            name="designer",
            tools=[Tool(name="FileEditorTool")],
            agent_context=AgentContext(system_message_suffix=DESIGNER_PROMPT),
            max_iterations=self.max_turns,
        )

    def _coder(self, llm: LLM) -> Agent:
        return Agent(
            llm=llm,
            name="coder",
            tools=get_default_tools(),
            agent_context=AgentContext(system_message_suffix=CODER_PROMPT),
            max_iterations=self.max_turns,
        )

    def build_agent(self, llm: LLM, params: dict[str, Any] | None = None) -> Agent:
        self.max_turns = int((params or {}).get("max_turns", 8))
        return Agent(
            llm=llm,
            name="waterfall",
            tools=[Tool(name="DelegateTool", params={"agents": ["designer", "coder"]}), *get_default_tools()],
            agent_context=AgentContext(
                system_message_suffix=f"""\
Orchestrate a waterfall process:
1. Delegate to 'designer' for the architecture ({self.max_turns} turns max). Give it the whole task.
2. Delegate to 'coder' to implement the design: include the full design doc in the task.
3. Verify the result yourself: read the changed files and run the tests.
Finish with what was built, how it was verified, and anything left open."""
            ),
        )
