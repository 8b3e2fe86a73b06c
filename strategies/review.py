"""Review: a coder and an adversarial reviewer, looping until the reviewer approves.

When to use it: changes where correctness matters more than speed — a security-sensitive fix,
a tricky refactor, a public API. The root gives the task to `coder`, then asks `reviewer` to
attack the result (bugs, missing tests, edge cases). If the reviewer requests changes, the
coder gets the review; this repeats until the reviewer answers APPROVED or `rounds` runs out.

    tui --strategy strategies/review.py --param rounds=2 --task "Fix the race in cache.py"

Param `rounds`: how many code-and-review rounds at most.
"""

from __future__ import annotations

from typing import Any

from openhands_tui.sdk import LLM, Agent, AgentContext
from openhands_tui.sdk.strategy import Strategy, StrategyParam
from openhands_tui.sdk.tool import Tool
from openhands_tui.tools.delegate import register_agent
from openhands_tui.tools.preset.default import get_default_tools

CODER_PROMPT = """\
You are the implementer in a code-review loop. Make the change you are asked for, with tests, \
and run them. If you are given review findings, address every one of them. Report exactly \
what you changed and where."""

REVIEWER_PROMPT = """\
You are an adversarial code reviewer. Assume the change is wrong until you have checked it: read \
the diff and the code around it, run the tests, look for bugs, missing tests, unhandled edge \
cases and unclear code. Do not fix anything yourself. Your report must start with APPROVED if \
nothing needs to change, or CHANGES REQUESTED followed by a numbered list of findings."""


class Review(Strategy):
    """Coder and adversarial reviewer, repeated until approval or `rounds` runs out."""

    name = "review"
    description = "Coder + adversarial reviewer loop until approved"
    params = [StrategyParam(name="rounds", type="integer", default=3, description="Most code/review rounds")]

    def setup(self) -> None:
        register_agent("coder", _coder, "Implementer: makes the change and its tests, addresses review findings")
        register_agent("reviewer", _reviewer, "Adversarial reviewer: answers APPROVED or CHANGES REQUESTED")

    def build_agent(self, llm: LLM, params: dict[str, Any] | None = None) -> Agent:
        rounds = max(1, int((params or {}).get("rounds", 3)))
        delegate = Tool(
            name="DelegateTool",
            params={"agents": ["coder", "reviewer"], "max_delegations_per_pair_per_turn": rounds},
        )
        return Agent(
            llm=llm,
            name="review",
            tools=[delegate, Tool(name="TaskTrackerTool")],
            agent_context=AgentContext(
                system_message_suffix=f"""\
Run a code-review loop of at most {rounds} rounds:
1. Delegate the task to 'coder' (in later rounds, include the reviewer's findings verbatim).
2. Delegate to 'reviewer': say what was asked and what the coder reported.
3. If the review starts with APPROVED, stop. Otherwise start the next round.
Finish with the final state: approved or not, what changed, and any findings left open."""
            ),
        )


def _coder(llm: LLM) -> Agent:
    return Agent(
        llm=llm,
        name="coder",
        tools=get_default_tools(),
        agent_context=AgentContext(system_message_suffix=CODER_PROMPT),
    )


def _reviewer(llm: LLM) -> Agent:
    return Agent(
        llm=llm,
        name="reviewer",
        tools=[Tool(name="TerminalTool"), Tool(name="FileEditorTool")],
        agent_context=AgentContext(system_message_suffix=REVIEWER_PROMPT),
    )
