"""Before an agent's run ends: its Stop hooks, then its critic, may send it back to work.

An agent ends by calling `finish` or by answering without a tool call. First the session's
Stop hooks run (SubagentStop for a delegated child): one that blocks — exit 2, or
`decision: "block"` — sends the agent on with the hook's reason, once per user message (a
hook that always blocks cannot keep an agent going for ever; the input's `stop_hook_active`
tells a hook it already did). Then the agent's critic, if it has one, judges the work; with
iterative refinement configured, a score under the threshold sends the agent on with the
critic's follow-up prompt, up to `max_iterations` rounds per user message. Each verdict is a
`CriticResultEvent`. A critic that fails is recorded and the agent ends as it would have.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Protocol

from openhands_tui.sdk.agent import Agent
from openhands_tui.sdk.critic.base import CriticBase, CriticContext
from openhands_tui.sdk.critic.result import CriticResult
from openhands_tui.sdk.executor import ExecutorSpec
from openhands_tui.sdk.facts.event import CriticResultEvent, Event
from openhands_tui.sdk.files.workspace_diff import MAX_PATCH_CHARS, WorkspacePatch, workspace_patch
from openhands_tui.sdk.llm.client import LLM
from openhands_tui.sdk.run.actor import Actor
from openhands_tui.sdk.run.hook_points import fire, hook_input
from openhands_tui.sdk.run.runtime import Runtime
from openhands_tui.sdk.tool import ChildSpawner, ToolContext

#: What a follow-up message says it came from (MessageEvent.source).
FROM_STOP_HOOK = "stop hook"
FROM_CRITIC = "critic"


class Judged(Actor, Protocol):
    """The view of an agent its ending review needs."""

    agent: Agent
    runtime: Runtime
    #: Where it works, and on which executor (its critics judge the changes there).
    workspace: Path
    executor: ExecutorSpec
    tool_context: ToolContext
    depth: int
    events: list[Event]
    #: Real user messages (and delegated tasks) so far: rounds are counted per one of these.
    turn: int
    latest_task: str

    async def ask_model(self, llm: LLM, messages: list[dict[str, Any]]) -> str: ...

    def child_runs(self) -> ChildSpawner | None: ...


@dataclass
class FollowUp:
    text: str
    source: str


class EndingReview:
    """One agent's Stop-hook and refinement rounds, counted per user message."""

    def __init__(self) -> None:
        self._turn = -1
        self._stop_blocked = False
        self._rounds = 0

    def _new_turn(self, turn: int) -> None:
        if turn != self._turn:
            self._turn, self._stop_blocked, self._rounds = turn, False, 0

    async def follow_up(self, run: Judged, result: str) -> FollowUp | None:
        """What the agent is to go on with, or None: it may end with `result`."""
        self._new_turn(run.turn)
        blocked = await self._stop_hooks(run, result)
        if blocked is not None:
            return blocked
        critic = run.agent.critic
        if critic is None:
            return None
        verdict = await judge(run, critic, final=result, ending=True, rounds=self._rounds)
        if verdict is None or not verdict.refine:
            return None
        self._rounds += 1
        return FollowUp(verdict.follow_up, FROM_CRITIC)

    async def _stop_hooks(self, run: Judged, result: str) -> FollowUp | None:
        event = "Stop" if run.depth == 0 else "SubagentStop"
        if not run.runtime.hooks_for(run.agent_id).has(event):
            return None
        fields = {"stop_hook_active": self._stop_blocked, "last_assistant_message": result}
        if run.depth > 0:
            fields.update(agent_id=run.agent_id, agent_name=run.agent.name)
        outcome = await fire(run, run.runtime, hook_input(run.runtime, event, fields=fields))
        if outcome.decision != "deny" or self._stop_blocked:
            return None
        self._stop_blocked = True
        reason = outcome.reason or outcome.context or "a Stop hook asks you to go on"
        return FollowUp(f"You are not done yet. {reason}", FROM_STOP_HOOK)


@dataclass
class Judgement:
    result: CriticResult
    #: The agent is sent back with `follow_up`.
    refine: bool = False
    follow_up: str = ""


async def judge(run: Judged, critic: CriticBase, *, final: str, ending: bool, rounds: int = 0) -> Judgement | None:
    """Run `critic` on the agent's work now and record its verdict, and whether it sends the
    agent back (only at an ending, under the threshold, with rounds left). None if it failed."""
    config = critic.iterative_refinement
    record: dict[str, Any] = dict(
        critic=critic.name,
        threshold=config.success_threshold if config else None,
        max_rounds=config.max_iterations if config else 0,
        ending=ending,
    )
    try:
        context = await _context(run, final, ending)
        result = await critic.review(context)
        if not isinstance(result, CriticResult):
            raise TypeError(f"it returned {type(result).__name__}, not a CriticResult")
    except asyncio.CancelledError:
        raise
    except Exception as exc:  # a critic's bug or its model's failure: said, and the agent ends as it would
        run.record(CriticResultEvent, error=f"{type(exc).__name__}: {exc}", round=rounds, **record)
        return None
    refine = ending and config is not None and critic.should_refine(result) and rounds < config.max_iterations
    judgement = Judgement(result, refine, critic.get_followup_prompt(result, rounds + 1) if refine else "")
    round_ = rounds + 1 if refine else rounds
    run.record(
        CriticResultEvent, score=result.score, message=result.message or "", refine=refine, round=round_, **record
    )
    return judgement


async def _patch(run: Judged) -> WorkspacePatch:
    """The diff the agent's critics judge: of the session's workspace here, or of the agent's
    own on its agent-server, read there (git here would find nothing, or another folder)."""
    read_remote = run.runtime.workspace_changes
    if not run.executor.remote:
        return await asyncio.to_thread(workspace_patch, run.runtime.workspace)
    if read_remote is None:
        return WorkspacePatch(problem="the agent works on an agent-server, whose changes this session cannot read")
    try:
        text = await read_remote(run.tool_context)
    except Exception as exc:  # the server went away: the critic is told why there is no diff
        return WorkspacePatch(problem=f"the agent-server's changes could not be read ({str(exc)[:200]})")
    if text is None:
        return WorkspacePatch(
            problem=f"{run.workspace} on the agent-server is not a git repository, so there is no diff to judge"
        )
    if len(text) > MAX_PATCH_CHARS:
        text = text[:MAX_PATCH_CHARS] + f"\n[… patch cut at {MAX_PATCH_CHARS:,} of {len(text):,} characters]\n"
    return WorkspacePatch(text=text)


async def _context(run: Judged, final: str, ending: bool) -> CriticContext:
    workspace: Path = run.runtime.workspace
    patch = await _patch(run)
    spawner = run.child_runs()

    async def reviewer(name: str, build: Callable[[LLM], Any] | None, task: str, llm: LLM) -> str:
        if spawner is None:
            raise RuntimeError("this agent cannot start a reviewing agent")

        def make(_parent_llm: LLM) -> Agent:
            built = build(llm) if build is not None else Agent(llm=llm, name=name, description="Reviews work.")
            if not isinstance(built, Agent):
                raise TypeError(f"agent_factory returned {type(built).__name__}, not an Agent")
            return built

        child = await spawner.spawn(name, make, task)
        if child.status != "finished":
            raise RuntimeError(f"the reviewing agent did not finish ({child.status}: {child.reason})")
        return child.result

    events: Sequence[Event] = list(run.events)
    return CriticContext(
        events=events,
        task=run.latest_task,
        final=final,
        workspace=workspace,
        git_patch=patch.text if patch.available else None,
        patch_problem=patch.problem,
        ending=ending,
        ask=run.ask_model,
        run_agent=reviewer,
        llm=run.agent.llm,
    )
