"""Plan, then execute: a read-only planner writes the plan, an executor carries it out.

When to use it: a change that touches several files, where looking first pays (a refactor, a
feature in an unfamiliar codebase). The root agent gives the task to `planner`, which is held
read-only by the engine (`Agent(read_only=True)`: it is offered only reads, its edits are
refused, its commands run in a read-only sandbox, and so would any agent it delegated to), so
its plan is all it can produce. The root then hands the whole plan to `executor`, which has the
default tools, and finishes with what was done and how it was verified.

    tui --strategy strategies/plan_execute.py --param max_turns=15 --task "Split utils.py into modules"

The same split in one agent is plan mode (`--plan`, shift+tab in the app, the `plan` mode in
an editor), where you approve the plan yourself before it is carried out.

Param `max_turns`: how many model calls each phase's agent may make.
"""

from __future__ import annotations

from typing import Any

from openhands_tui.sdk import LLM, Agent, AgentContext
from openhands_tui.sdk.strategy import Strategy, StrategyParam
from openhands_tui.sdk.tool import Tool
from openhands_tui.tools.delegate import register_agent
from openhands_tui.tools.preset.default import get_default_tools

PLANNER_PROMPT = """\
You are the planner. Read what you need of the repository (view files, run commands that only \
read: you cannot change anything). Finish with a plan another engineer can follow without you: \
the goal, each file to change and how, new files, the commands to run, how to verify the result, \
and risks or open questions."""

EXECUTOR_PROMPT = """\
You are the executor. Carry out the plan you are given, step by step, keeping to the repository's \
conventions. Verify the result as the plan says (run the tests). Report what you changed, where, \
how you verified it, and any step you could not do and why."""


class PlanExecute(Strategy):
    """A read-only planner, then an executor with the plan; the root verifies and reports."""

    name = "plan_execute"
    description = "Read-only planner → executor carries out the plan"
    params = [StrategyParam(name="max_turns", type="integer", default=12, description="Max turns per phase")]

    def __init__(self) -> None:
        self.max_turns = 12

    def setup(self) -> None:
        register_agent("planner", self._planner, "Planner: reads the repository (read-only), writes a plan")
        register_agent("executor", self._executor, "Executor: carries out a plan it is given, and verifies it")

    def _planner(self, llm: LLM) -> Agent:
        return Agent(
            llm=llm,
            name="planner",
            tools=get_default_tools(),
            read_only=True,  # held by the engine and the sandbox, not by asking
            agent_context=AgentContext(system_message_suffix=PLANNER_PROMPT),
            max_iterations=self.max_turns,
        )

    def _executor(self, llm: LLM) -> Agent:
        return Agent(
            llm=llm,
            name="executor",
            tools=get_default_tools(),
            agent_context=AgentContext(system_message_suffix=EXECUTOR_PROMPT),
            max_iterations=self.max_turns,
        )

    def build_agent(self, llm: LLM, params: dict[str, Any] | None = None) -> Agent:
        self.max_turns = int((params or {}).get("max_turns", 12))
        return Agent(
            llm=llm,
            name="plan_execute",
            tools=[Tool(name="DelegateTool", params={"agents": ["planner", "executor"]}), Tool(name="TaskTrackerTool")],
            agent_context=AgentContext(
                system_message_suffix="""\
Run a plan-then-execute process:
1. Delegate the whole task to 'planner'. It only reads; its report is the plan.
2. Delegate to 'executor': give it the task and the planner's full plan, verbatim.
3. Finish with what was done, how it was verified, and anything left open."""
            ),
        )
