"""Critics: judges of an agent's work, and the refinement rounds they can ask for.

The shapes are the OpenHands SDK's (`CriticBase.evaluate(events, git_patch)`, `mode`,
`iterative_refinement`, `get_followup_prompt`), so a critic written for the SDK runs here with
the import prefix renamed. The engine calls `review`, which is async and gets a
`CriticContext`: what the agent was asked, what it answered, the workspace's patch, and ways
to ask a model or run a reviewing agent through this session (so their cost is counted and the
reviewer shows in the agent tree). A critic that only implements `evaluate` is run on a worker
thread with the agent's events and the patch, so a slow one never freezes the app.
"""

from __future__ import annotations

import abc
import asyncio
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any, Literal

from pydantic import Field

from openhands_tui.sdk.critic.result import CriticResult
from openhands_tui.sdk.facts.event import SHOWN_TO_MODEL
from openhands_tui.sdk.model import StrictModel

if TYPE_CHECKING:
    from openhands_tui.sdk.llm.client import LLM

#: The SDK's name for a function that writes the follow-up prompt of a refinement round.
FollowupPromptFn = Callable[[CriticResult, int], str]


class IterativeRefinementConfig(StrictModel):
    """Send the agent back while the critic scores it under `success_threshold`, at most
    `max_iterations` times per user message."""

    success_threshold: float = Field(default=0.6, ge=0.0, le=1.0, description="Scores from here up pass.")
    max_iterations: int = Field(default=3, ge=1, description="Refinement rounds at most, per user message.")


@dataclass
class CriticContext:
    """What a critic may use to judge one ending of one agent's run."""

    #: The agent's own events so far (messages, actions, observations...).
    events: Sequence[Any]
    #: The user's request this run is answering (the latest user message).
    task: str
    #: What the agent ended with: its `finish` message or its last answer ("" after an action).
    final: str
    workspace: Path
    #: The workspace's changes as a git patch; None when there is none to be had (`patch_problem`).
    git_patch: str | None
    patch_problem: str = ""
    #: True when the agent is ending its run (finish, or a final answer); False when a critic in
    #: "all_actions" mode judges an action mid-run.
    ending: bool = True
    #: Ask a model once (its usage and cost are recorded for the agent being judged).
    ask: Callable[[LLM, list[dict[str, Any]]], Awaitable[str]] | None = None
    #: Run an agent as a child of the one being judged: (name, a builder taking the model or None
    #: for a plain agent with no tools but think and finish, its task, the model); returns what
    #: it finished with. The critic never imports the Agent class: the engine builds it.
    run_agent: Callable[[str, Callable[[LLM], Any] | None, str, LLM], Awaitable[str]] | None = None
    #: The model of the agent being judged (a default for critics that need one).
    llm: LLM | None = None
    extra: dict[str, Any] = field(default_factory=dict)


class CriticBase(StrictModel, abc.ABC):
    """A critic. Subclass it and implement `evaluate` (as in the SDK) or `review` (async)."""

    mode: Literal["finish_and_message", "all_actions"] = Field(
        default="finish_and_message",
        description="When to judge: when the agent finishes or answers (default), or after every action as well.",
    )
    iterative_refinement: IterativeRefinementConfig | None = Field(
        default=None, description="Send the agent back while the score is under a threshold."
    )

    @property
    def name(self) -> str:
        return type(self).__name__

    def evaluate(self, events: Sequence[Any], git_patch: str | None = None) -> CriticResult:
        """The SDK's synchronous entry point. Critics here implement it or `review`."""
        raise NotImplementedError(f"{self.name} implements neither evaluate() nor review()")

    async def review(self, context: CriticContext) -> CriticResult:
        """Judge one ending. By default: `evaluate` on a worker thread, given (as in the SDK) the
        events the model was shown: its system prompt, messages, tool calls and results."""
        shown = [event for event in context.events if isinstance(event, SHOWN_TO_MODEL)]
        return await asyncio.to_thread(self.evaluate, shown, context.git_patch)

    def get_followup_prompt(self, critic_result: CriticResult, iteration: int) -> str:
        """What the agent is told when it is sent back (round `iteration`, from 1)."""
        said = f"\n\nThe reviewer said: {critic_result.message.strip()}" if critic_result.message else ""
        return (
            f"A review of your work scored it {critic_result.score:.0%}, under what counts as done "
            f"(refinement round {iteration}).{said}\n\n"
            "Check each requirement of the task against what you actually did, fix what is missing "
            "or wrong, verify it, and then finish again."
        )

    def should_refine(self, critic_result: CriticResult) -> bool:
        if self.iterative_refinement is None:
            return False
        return critic_result.score < self.iterative_refinement.success_threshold
