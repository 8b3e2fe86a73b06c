"""`delegate` and `delegate_parallel`: sub-agents as tools, with caps the model is told about.

`Tool(name="DelegateTool", params={...})` gives an agent both functions. The `agent`
argument is an enum of the agents it may call, each described. Caps (each configurable in
`params`) are enforced before a child starts, and a violation comes back as a tool result
naming the cap, never as a crash:

- `max_delegation_depth` (3): how deep the tree may grow below the root;
- `max_delegations_per_pair_per_turn` (2): calls from this agent to the same agent while
  working on one message (its task, for a child); a `delegate_parallel` call counts once;
- `max_parallel` (4): children of the same agent running at once from this agent.

Iteration and cost budgets are the run's (`Limits`) and so cover the whole tree. Children
are started by the engine, through the `ChildSpawner` port on the tool's context.
"""

from __future__ import annotations

import asyncio
from collections import Counter
from collections.abc import Sequence
from typing import Any, ClassVar

from pydantic import Field

from openhands_tui.sdk.facts.subject import Delegation
from openhands_tui.sdk.model import Model
from openhands_tui.sdk.tool import Action, ChildResult, ChildSpawner, Observation, ToolContext, ToolDefinition
from openhands_tui.sdk.tool.context import DelegateTarget
from openhands_tui.tools.delegate.registry import RegisteredAgent, registered_agents

DEFAULT_LIMITS = {"max_delegation_depth": 3, "max_delegations_per_pair_per_turn": 2, "max_parallel": 4}

TASK_DESCRIPTION = (
    "Everything the agent needs to do the work. It sees only this text — not your conversation "
    "— so state the goal, the relevant files and facts, and what to report back."
)


class DelegateAction(Action):
    agent: str = Field(description="The agent to hand the task to.")
    task: str = Field(description=TASK_DESCRIPTION)


class ParallelTask(Model):
    agent: str = Field(description="The agent to hand this task to.")
    task: str = Field(description=TASK_DESCRIPTION)


class DelegateParallelAction(Action):
    tasks: list[ParallelTask] = Field(
        min_length=1, description="Independent tasks to run at the same time, one agent each."
    )


class DelegationObservation(Observation):
    children: list[dict[str, str]] = Field(default_factory=list)


class Delegator:
    """Cap bookkeeping for one parent agent, shared by its two delegation functions."""

    def __init__(self, spawner: ChildSpawner, params: dict[str, Any], offered: Sequence[DelegateTarget] = ()) -> None:
        self.spawner = spawner
        self.limits = {key: int(params.get(key, default)) for key, default in DEFAULT_LIMITS.items()}
        allowed = params.get("agents")
        known = {agent.name: agent for agent in registered_agents()}
        for target in offered:  # the session's agent files; a strategy's own agent of a name wins
            known.setdefault(target.name, RegisteredAgent(target.name, target.build, target.description))
        self.agents = {name: known[name] for name in allowed if name in known} if allowed else known
        self.pair_calls: Counter[tuple[int, str]] = Counter()
        self.running: Counter[str] = Counter()

    def describe_agents(self) -> str:
        if not self.agents:
            return "No agents are registered, so there is nobody to delegate to."
        return "\n".join(f"- {a.name}: {a.description or 'no description'}" for a in self.agents.values())

    def check(self, name: str) -> str | None:
        """Why a call to `name` may not start at all (unknown agent, depth, pair cap), or None."""
        if name not in self.agents:
            valid = ", ".join(self.agents) or "none"
            return f"There is no agent named {name!r} you can delegate to. Valid agents: {valid}."
        depth, limit = self.spawner.depth + 1, self.limits["max_delegation_depth"]
        if depth > limit:
            return (
                f"Refused: delegating to {name} would start an agent {depth} levels below the root; "
                f"max_delegation_depth is {limit}. Do this part yourself."
            )
        key = (self.spawner.turn(), name)
        limit = self.limits["max_delegations_per_pair_per_turn"]
        if self.pair_calls[key] >= limit:
            return (
                f"Refused: you already delegated to {name} {self.pair_calls[key]} times for this task; "
                f"max_delegations_per_pair_per_turn is {limit}. Use the results you have."
            )
        self.pair_calls[key] += 1
        return None

    def over_parallel_cap(self, name: str) -> str | None:
        limit = self.limits["max_parallel"]
        if self.running[name] >= limit:
            return (
                f"Refused: {self.running[name]} {name} tasks are already running; max_parallel for "
                f"{name} is {limit}. Send fewer at once."
            )
        return None

    def refuse(self, name: str, task: str, reason: str) -> ChildResult:
        return self.spawner.refuse(name, task, reason)

    async def run(self, spec: RegisteredAgent, task: str) -> ChildResult:
        try:
            return await self.spawner.spawn(spec.name, spec.factory, task)
        finally:
            self.running[spec.name] -= 1

    def start(self, name: str, task: str) -> asyncio.Future[ChildResult] | ChildResult:
        """Refuse, or reserve a parallel slot and start the child (its tree node opens in order)."""
        refusal = self.over_parallel_cap(name)
        if refusal is not None:
            return self.refuse(name, task, refusal)
        self.running[name] += 1
        return asyncio.ensure_future(self.run(self.agents[name], task))


class _DelegationTool(ToolDefinition[Any]):
    concurrent: ClassVar[bool] = True  # several delegate calls in one response run at once
    #: Offered in plan mode: a read-only agent's children are held read-only too (the engine's).
    reads_only: ClassVar[bool] = True
    #: Where the `agent` property sits in the parameters schema.
    agent_path: ClassVar[tuple[str, ...]] = ("properties",)

    def __init__(self, delegator: Delegator) -> None:
        self.delegator = delegator

    @property
    def schema(self) -> dict[str, Any]:
        """The base schema, plus the agents this agent may call: an enum, each one described."""
        schema = super().schema
        schema["function"]["description"] = (
            f"{self.description} Each agent starts fresh and sees only the task text you write. "
            f"Agents you can call:\n{self.delegator.describe_agents()}"
        )
        node = schema["function"]["parameters"]
        for key in self.agent_path:
            node = node[key]
        node["agent"] = {**node["agent"], "enum": list(self.delegator.agents)}
        return schema

    def _observation(self, results: list[ChildResult]) -> DelegationObservation:
        children = [{"agent_id": r.agent_id, "agent": r.agent_name, "status": r.status} for r in results]
        if len(results) == 1:
            text = results[0].text()
        else:
            parts = [f"## {n}. {r.agent_name}: {r.status}\n{r.text()}" for n, r in enumerate(results, start=1)]
            text = "\n\n".join(parts)
        failed = all(r.status != "finished" for r in results)
        return DelegationObservation(text=text, is_error=failed, children=children)


class DelegateTool(_DelegationTool):
    """`delegate {agent, task}`. Its spec name is `DelegateTool` (as in the RFC)."""

    name = "delegate"
    action_type = DelegateAction

    @classmethod
    def create(cls, conv_state: Any = None, **params: Any) -> list[ToolDefinition[Any]]:
        """The SDK's factory (both delegate and delegate_parallel): `register_tool(name, DelegateTool)`
        works as in the SDK."""
        return list(create_delegate_tools(params, conv_state.context))

    description = "Hand a task to another agent and wait for its report."

    def subject(self, action: DelegateAction) -> Delegation:
        # the children's own actions are what get checked and confirmed
        return Delegation(agents=[action.agent])

    def summarize(self, action: DelegateAction) -> str:
        first_line = action.task.strip().splitlines()[0][:80] if action.task.strip() else ""
        return f"delegate to {action.agent}: {first_line}"

    async def run(self, action: DelegateAction) -> Observation:
        refusal = self.delegator.check(action.agent)
        if refusal is not None:
            if action.agent not in self.delegator.agents:
                return DelegationObservation(text=refusal, is_error=True)
            return self._observation([self.delegator.refuse(action.agent, action.task, refusal)])
        started = self.delegator.start(action.agent, action.task)
        result = started if isinstance(started, ChildResult) else await started
        return self._observation([result])


class DelegateParallelTool(_DelegationTool):
    name = "delegate_parallel"
    action_type = DelegateParallelAction
    agent_path = ("properties", "tasks", "items", "properties")
    description = "Hand several independent tasks to agents that work at the same time; wait for all reports."

    def subject(self, action: DelegateParallelAction) -> Delegation:
        return Delegation(agents=[task.agent for task in action.tasks])

    def summarize(self, action: DelegateParallelAction) -> str:
        names = Counter(task.agent for task in action.tasks)
        return "delegate in parallel: " + ", ".join(f"{n}×{a}" if n > 1 else a for a, n in names.items())

    async def run(self, action: DelegateParallelAction) -> Observation:
        refusals = {name: self.delegator.check(name) for name in dict.fromkeys(t.agent for t in action.tasks)}
        pending: list[asyncio.Future[ChildResult] | ChildResult] = []
        for task in action.tasks:
            refusal = refusals[task.agent]
            if refusal is not None and task.agent not in self.delegator.agents:
                pending.append(ChildResult("-", task.agent, "rejected", reason=refusal))
            elif refusal is not None:
                pending.append(self.delegator.refuse(task.agent, task.task, refusal))
            else:
                pending.append(self.delegator.start(task.agent, task.task))
        futures = [p for p in pending if not isinstance(p, ChildResult)]
        if futures:
            await asyncio.gather(*futures)
        results = [p if isinstance(p, ChildResult) else p.result() for p in pending]
        return self._observation(results)


def create_delegate_tools(params: dict[str, Any], ctx: ToolContext) -> list[ToolDefinition[Any]]:
    if ctx.spawner is None:
        raise ValueError("DelegateTool needs an engine that can start child agents (ToolContext.spawner)")
    delegator = Delegator(ctx.spawner, params, ctx.agents)
    return [DelegateTool(delegator), DelegateParallelTool(delegator)]
