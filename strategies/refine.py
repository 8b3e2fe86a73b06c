"""Refine: one coder, and an adversarial reviewer that sends it back until the diff passes.

When to use it: a change you would otherwise review yourself before merging. The coder works
alone; each time it says it is done, a reviewing agent (a fresh context, shown under it in the
tree) reads the task, the coder's report and the workspace's git diff, and answers pass or not
pass. "Not pass" sends the coder back with the review, at most `rounds` times per message.
This is the RFC's adversarial review, built from the SDK's primitives: a critic
(`AgentReviewCritic`) with `IterativeRefinementConfig`. The workspace should be a git
repository (the reviewer judges its diff).

    tui --strategy strategies/refine.py --param rounds=2 --task "Add input validation to cli.py"

Param `rounds`: refinement rounds at most per message. Param `style`: `roasted` (a demanding
reviewer) or `standard`.
"""

from __future__ import annotations

from typing import Any

from openhands_tui.sdk import LLM, Agent, AgentContext
from openhands_tui.sdk.critic import AgentReviewCritic, IterativeRefinementConfig
from openhands_tui.sdk.strategy import Strategy, StrategyParam
from openhands_tui.tools.preset.default import get_default_tools

CODER_PROMPT = """\
Make the change you are asked for, with tests, and run them. When you are done, finish with \
what you changed and how you checked it: a reviewer reads that and your diff, and may send you \
back with findings. Address every finding before you finish again."""


class Refine(Strategy):
    """A coder, sent back by a reviewing agent until the diff passes review."""

    name = "refine"
    description = "Coder + adversarial review critic: refine until the diff passes"
    params = [
        StrategyParam(name="rounds", type="integer", default=2, description="Most review rounds per message"),
        StrategyParam(name="style", type="string", default="roasted", description="roasted or standard"),
    ]

    def build_agent(self, llm: LLM, params: dict[str, Any] | None = None) -> Agent:
        params = params or {}
        style = "standard" if params.get("style") == "standard" else "roasted"
        critic = AgentReviewCritic(
            review_style=style,
            iterative_refinement=IterativeRefinementConfig(
                success_threshold=1.0, max_iterations=max(1, int(params.get("rounds", 2)))
            ),
        )
        return Agent(
            llm=llm,
            name="coder",
            tools=get_default_tools(),
            agent_context=AgentContext(system_message_suffix=CODER_PROMPT),
            critic=critic,
        )
