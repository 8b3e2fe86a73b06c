"""Child agents, run by the engine on behalf of a parent: the `ChildSpawner` port's implementation.

A child gets its own system prompt (from the Agent its builder returns) and the task text the
parent wrote — never the parent's conversation — its own live tools, and the run's shared bus,
confirmer, policy and budgets. `delegation_opened` / `delegation_closed` bracket it. Whatever
way the child ends, the parent gets a result it can act on: the child's `finish` message, or
its status, the reason and whatever it had said so far. Tokens and cost of the child's subtree
come from the run's delegation tree, which is folded from the same events everyone sees.
"""

from __future__ import annotations

import asyncio
import time

from openhands_tui.sdk.agent import Agent
from openhands_tui.sdk.facts.event import AgentErrorEvent, DelegationClosedEvent, DelegationOpenedEvent, Status
from openhands_tui.sdk.run.agent_run import AgentRun
from openhands_tui.sdk.run.child_workspace import bring_back, open_copy, told_to_parent
from openhands_tui.sdk.run.loop import run_agent
from openhands_tui.sdk.run.prefix_share import PrefixShare
from openhands_tui.sdk.run.runtime import Runtime
from openhands_tui.sdk.timeline.child_copy import ChildCopy
from openhands_tui.sdk.tool.context import AgentBuilder, ChildResult, ChildStatus
from openhands_tui.sdk.tool.definition import CURRENT_TOOL_CALL_ID

_STATUS: dict[Status, ChildStatus] = {
    Status.FINISHED: "finished",
    Status.ERROR: "failed",
    Status.STUCK: "failed",
    Status.PAUSED: "limit",
}


class ChildRuns:
    """Starts children for one parent agent. The engine gives one to each agent it runs."""

    def __init__(self, parent: AgentRun) -> None:
        self.parent = parent
        self.runtime: Runtime = parent.runtime
        #: Siblings of one role write their shared prompt prefix once (run/prefix_share.py).
        self.prefix_share = PrefixShare()

    @property
    def depth(self) -> int:
        return self.parent.depth

    def turn(self) -> int:
        return self.parent.user_messages

    def refuse(self, name: str, task: str, reason: str) -> ChildResult:
        result = ChildResult(self._announce(name, task), name, "rejected", reason=reason)
        self._close(result, time.monotonic())
        return result

    async def spawn(self, name: str, build: AgentBuilder, task: str) -> ChildResult:
        child_id = self._announce(name, task)
        started = time.monotonic()
        child = self._build(child_id, name, build)
        if isinstance(child, ChildResult):
            self._close(child, started)
            return child
        copy = await self._own_copy(child)
        try:
            await child.open()
        except Exception as exc:  # e.g. the child names a tool nobody registered
            await child.close()
            if copy is not None:
                copy.remove()
            result = ChildResult(child_id, name, "failed", reason=f"could not start it: {exc}")
            self._close(result, started)
            return result
        try:
            child.add_user_message(task)
            outcome = await run_agent(child)
            status = _STATUS.get(outcome.status, "failed")
            text = outcome.result if status == "finished" else child.last_text
            result = ChildResult(child_id, name, status, result=text, reason=outcome.detail)
        except asyncio.CancelledError:
            if copy is not None:  # interrupted: its changes are kept, not merged
                await asyncio.shield(bring_back(self.runtime, copy, child_id, name, self.parent.agent_id, merge=False))
            self._close(ChildResult(child_id, name, "interrupted", child.last_text, "interrupted"), started)
            raise
        finally:
            await child.close()
        if copy is not None:
            changes = await bring_back(self.runtime, copy, child_id, name, self.parent.agent_id)
            result.changes = told_to_parent(changes)
        self._close(result, started)
        return result

    async def _own_copy(self, child: AgentRun) -> ChildCopy | None:
        """The child's own working copy when its agent asks for one; else (or when none can
        be made, said in the parent's transcript) it works in the workspace itself."""
        if child.agent.isolation != "worktree":
            return None
        made = await open_copy(self.runtime, child.agent_id)
        if isinstance(made, str):
            self.runtime.bus.publish(AgentErrorEvent(agent_id=self.parent.agent_id, error=f"{child.agent_id}: {made}"))
            return None
        child.workspace = made.folder
        return made

    def _build(self, child_id: str, name: str, build: AgentBuilder) -> AgentRun | ChildResult:
        try:
            agent = build(self.parent.agent.llm)
            if not isinstance(agent, Agent):
                raise TypeError(f"the factory returned {type(agent).__name__}, not an Agent")
        except Exception as exc:
            return ChildResult(child_id, name, "failed", reason=f"could not build it: {exc}")
        if agent.name == "agent":  # unnamed agents take the name they were registered under
            agent = agent.model_copy(update={"name": name})
        child = AgentRun(
            agent,
            self.runtime,
            agent_id=child_id,
            parent_id=self.parent.agent_id,
            depth=self.parent.depth + 1,
            spawner=ChildRuns,
        )
        child.shared_prefix = self.prefix_share
        child.held_read_only = self.parent.read_only  # a planning parent's children only read too
        return child

    def _announce(self, name: str, task: str) -> str:
        child_id = self.runtime.new_agent_id(name)
        self.runtime.bus.publish(
            DelegationOpenedEvent(
                agent_id=child_id,
                parent_agent_id=self.parent.agent_id,
                agent_name=name,
                task=task,
                depth=self.parent.depth + 1,
                tool_call_id=CURRENT_TOOL_CALL_ID.get(),
            )
        )
        return child_id

    def _close(self, result: ChildResult, started: float) -> None:
        tree = self.runtime.tree
        known = result.agent_id in tree.nodes
        self.runtime.bus.publish(
            DelegationClosedEvent(
                agent_id=result.agent_id,
                parent_agent_id=self.parent.agent_id,
                agent_name=result.agent_name,
                status=result.status,
                result=result.result,
                reason=result.reason,
                tokens=tree.subtree_tokens(result.agent_id) if known else 0,
                cost=round(tree.subtree_cost(result.agent_id), 6) if known else 0.0,
                elapsed_s=round(time.monotonic() - started, 3),
            )
        )
