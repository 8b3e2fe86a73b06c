"""A critic that asks a model — any litellm serves, with its own prompt — to score the work.

The model is shown the task, the agent's final answer and the workspace's patch, and asked for
a line `SCORE: <0..1>` followed by its reasons. The score is read from that line (or from a
JSON `{"score": ...}`, or a percentage); an answer with no score is a failed review, scored 0
with the answer as its message, so a refinement round still has something to act on.
"""

from __future__ import annotations

import json
import re
from typing import Any

from pydantic import Field

from openhands_tui.sdk.critic.base import CriticBase, CriticContext
from openhands_tui.sdk.critic.result import CriticResult
from openhands_tui.sdk.llm.client import LLM

DEFAULT_CRITIC_PROMPT = (
    "You review the work of an AI coding agent. You are given the user's task, the agent's final "
    "answer and the changes it made to the workspace as a git patch. Judge strictly whether the task "
    "is completely and correctly done: every requirement met, nothing broken, no claims the patch "
    "does not back up.\n\n"
    "Answer with a first line `SCORE: <a number from 0 to 1>` (the probability that the task is done "
    "well), then at most a few lines saying what is missing or wrong."
)

_SCORE_LINE = re.compile(r"score\s*[:=]\s*(\d+(?:\.\d+)?|\.\d+)\s*(%?)", re.IGNORECASE)
_JSON_SCORE = re.compile(r"\{[^{}]*\"score\"[^{}]*\}", re.DOTALL)
MAX_MESSAGE_CHARS = 2000


class LLMCritic(CriticBase):
    """Scores the work with a model. Without `llm`, the judged agent's own model is asked."""

    llm: LLM | None = Field(default=None, description="The critic's model (None: the agent's own).")
    prompt: str = Field(default=DEFAULT_CRITIC_PROMPT, description="The critic's system prompt.")
    max_diff_chars: int = Field(default=60_000, ge=0, description="The most of the patch the critic is shown.")

    async def review(self, context: CriticContext) -> CriticResult:
        llm = self.llm or context.llm
        if llm is None or context.ask is None:
            raise RuntimeError("LLMCritic needs a model: give it llm=LLM(...)")
        answer = await context.ask(llm, self.messages(context))
        return parse_score(answer)

    def messages(self, context: CriticContext) -> list[dict[str, Any]]:
        return [
            {"role": "system", "content": self.prompt},
            {"role": "user", "content": review_material(context, self.max_diff_chars)},
        ]


def review_material(context: CriticContext, max_diff_chars: int) -> str:
    """The task, the final answer and the patch (cut to `max_diff_chars`), as one message."""
    if context.git_patch is None:
        patch = f"(no patch: {context.patch_problem})"
    elif not context.git_patch.strip():
        patch = "(empty: the agent changed nothing in the workspace)"
    else:
        patch = context.git_patch[:max_diff_chars]
        if len(context.git_patch) > max_diff_chars:
            patch += f"\n[… cut at {max_diff_chars:,} of {len(context.git_patch):,} characters]"
    final = context.final.strip() or "(the agent has not finished; this is a review after one of its actions)"
    return (
        f"## The task\n\n{context.task.strip()}\n\n## The agent's final answer\n\n{final}\n\n"
        f"## The workspace's changes\n\n```diff\n{patch}\n```\n"
    )


def parse_score(answer: str) -> CriticResult:
    """A score from a critic's answer: `SCORE: 0.8`, `score = 80%`, or `{"score": 0.8}`."""
    text = answer.strip()
    score = _json_score(text)
    if score is None:
        match = _SCORE_LINE.search(text)
        if match is not None:
            value = float(match.group(1))
            score = value / 100 if match.group(2) == "%" or value > 1 else value
    if score is None or not 0.0 <= score <= 1.0:
        return CriticResult(score=0.0, message=f"the critic's answer had no score from 0 to 1: {text[:500]}")
    reasons = _SCORE_LINE.sub("", text, count=1).strip() or None
    return CriticResult(score=score, message=reasons[:MAX_MESSAGE_CHARS] if reasons else None)


def _json_score(text: str) -> float | None:
    for block in reversed(_JSON_SCORE.findall(text)):
        try:
            value = json.loads(block).get("score")
        except (ValueError, AttributeError):
            continue
        if isinstance(value, int | float) and not isinstance(value, bool):
            return float(value)
    return None
