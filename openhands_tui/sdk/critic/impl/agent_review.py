"""Adversarial review: another agent reads the diff and says pass or not pass.

The RFC names adversarial review as a pattern strategies should share. The reviewer runs as a
child of the agent it judges, so it shows in the tree and its cost is counted; by default it
has no tools but think and finish (it judges the patch it is given), and an `agent_factory`
can give it more (a file viewer, say). It ends with a JSON block
`{"decision": "pass" | "not_pass", "summary": "..."}`, as the SDK's reviewer does; a plain
`VERDICT: PASS` line is read too. No changes at all is a pass: there is nothing to review.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from typing import Any, Literal

from pydantic import Field

from openhands_tui.sdk.critic.base import CriticBase, CriticContext
from openhands_tui.sdk.critic.impl.llm_critic import review_material
from openhands_tui.sdk.critic.result import CriticResult
from openhands_tui.sdk.llm.client import LLM

_STYLES = {
    "roasted": (
        "Be a demanding reviewer: look for what is wrong, missing, untested or overcomplicated, "
        "and do not pass work that only looks finished."
    ),
    "standard": "Review it as a careful colleague would before merging.",
}
_JSON_BLOCK = re.compile(r"\{[^{}]*\"decision\"[^{}]*\}", re.DOTALL)
_VERDICT = re.compile(r"verdict\s*[:=]\s*(pass|not[_ ]pass|fail)", re.IGNORECASE)


class AgentReviewCritic(CriticBase):
    """A reviewing agent says pass (1.0) or not pass (0.0) about the workspace's changes."""

    llm: LLM | None = Field(default=None, description="The reviewer's model (None: the judged agent's own).")
    agent_factory: Callable[[LLM], Any] | None = Field(
        default=None, exclude=True, description="Builds the reviewer (default: no tools but think and finish)."
    )
    review_style: Literal["roasted", "standard"] = "roasted"
    max_diff_chars: int = Field(default=100_000, ge=0)
    workspace_dir: str | None = Field(
        default=None, description="Accepted for the SDK's signature; the session's workspace is reviewed."
    )

    async def review(self, context: CriticContext) -> CriticResult:
        if context.git_patch is not None and not context.git_patch.strip():
            return CriticResult(score=1.0, message="no changes to review (the workspace's git diff is empty)")
        llm = self.llm or context.llm
        if llm is None or context.run_agent is None:
            raise RuntimeError("AgentReviewCritic needs a model: give it llm=LLM(...)")
        said = await context.run_agent("reviewer", self.agent_factory, self.task(context), llm)
        return parse_verdict(said)

    def task(self, context: CriticContext) -> str:
        return (
            "You are reviewing another agent's work before it is handed back to the user. "
            f"{_STYLES[self.review_style]}\n\n{review_material(context, self.max_diff_chars)}\n"
            "End by calling finish with your review, whose last part is a JSON block: "
            '```json\n{"decision": "pass" or "not_pass", "summary": "what must change, or why it passes"}\n```'
        )


def parse_verdict(text: str) -> CriticResult:
    """pass → 1.0, anything else → 0.0, with the reviewer's summary (or its whole answer)."""
    for block in reversed(_JSON_BLOCK.findall(text)):
        try:
            data = json.loads(block)
        except ValueError:
            continue
        if isinstance(data, dict):
            decision = str(data.get("decision", "")).strip().lower()
            summary = str(data.get("summary") or "").strip() or decision
            return CriticResult(score=1.0 if decision == "pass" else 0.0, message=summary[:2000])
    match = _VERDICT.search(text)
    if match is not None:
        passed = match.group(1).lower() == "pass"
        return CriticResult(score=1.0 if passed else 0.0, message=text.strip()[:2000])
    return CriticResult(score=0.0, message=f"the reviewer gave no verdict: {text.strip()[:500]}")
