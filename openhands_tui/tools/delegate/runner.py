"""Running one delegated child: a fresh agent with an isolated history, inside the same run.

The child gets its own system prompt (from its factory's Agent) and the task text the
parent wrote — never the parent's conversation — its own live tools, and the run's shared
bus, confirmer, policy and budgets. `delegation_opened` / `delegation_closed` bracket it.
Whatever way the child ends, the parent gets a result it can act on: the child's `finish`
message, or its status, the reason and whatever it had said so far.
"""

from __future__ import annotations

import asyncio
import time
from dataclasses import dataclass

from openhands_tui.sdk.agent import Agent
from openhands_tui.sdk.agent_run import AgentRun
from openhands_tui.sdk.conversation import run_agent
from openhands_tui.sdk.event import DelegationClosedEvent, DelegationOpenedEvent, DelegationStatus, Status
from openhands_tui.sdk.tool.definition import CURRENT_TOOL_CALL_ID
from openhands_tui.tools.delegate.registry import RegisteredAgent

_STATUS: dict[Status, DelegationStatus] = {
    Status.FINISHED: "finished",
    Status.ERROR: "failed",
    Status.STUCK: "failed",
    Status.PAUSED: "limit",
}


@dataclass
class ChildResult:
    agent_id: str
    agent_name: str
    status: DelegationStatus
    result: str = ""
    reason: str = ""

    def text(self) -> str:
        """What the parent's model reads as the tool result."""
        if self.status == "finished":
            return f"{self.agent_name} ({self.agent_id}) finished. Its report:\n\n{self.result}"
        partial = self.result.strip() or "(nothing)"
        return (
            f"{self.agent_name} ({self.agent_id}) did not finish: {self.status} — {self.reason}.\n"
            f"What it had said so far: {partial}\nDecide whether to retry, do it yourself, or report it."
        )


def announce(parent: AgentRun, name: str, task: str) -> str:
    """Publish `delegation_opened` for a new child and return its id."""
    child_id = parent.runtime.new_agent_id(name)
    parent.runtime.bus.publish(
        DelegationOpenedEvent(
            agent_id=child_id,
            parent_agent_id=parent.agent_id,
            agent_name=name,
            task=task,
            depth=parent.depth + 1,
            tool_call_id=CURRENT_TOOL_CALL_ID.get(),
        )
    )
    return child_id


def refuse(parent: AgentRun, name: str, task: str, reason: str) -> ChildResult:
    """A delegation a cap stopped: it shows in the tree as a rejected child that never ran."""
    result = ChildResult(announce(parent, name, task), name, "rejected", reason=reason)
    close(parent, result, tokens=0, cost=0.0, started=time.monotonic())
    return result


def close(parent: AgentRun, result: ChildResult, *, tokens: int, cost: float, started: float) -> None:
    parent.runtime.bus.publish(
        DelegationClosedEvent(
            agent_id=result.agent_id,
            parent_agent_id=parent.agent_id,
            agent_name=result.agent_name,
            status=result.status,
            result=result.result,
            reason=result.reason,
            tokens=tokens,
            cost=round(cost, 6),
            elapsed_s=round(time.monotonic() - started, 3),
        )
    )


async def run_child(parent: AgentRun, child_id: str, spec: RegisteredAgent, task: str) -> ChildResult:
    """Build, run and close one child that `announce` already opened."""
    started = time.monotonic()
    try:
        agent = spec.factory(parent.agent.llm)
        if not isinstance(agent, Agent):
            raise TypeError(f"the factory returned {type(agent).__name__}, not an Agent")
    except Exception as exc:
        result = ChildResult(child_id, spec.name, "failed", reason=f"could not build it: {exc}")
        close(parent, result, tokens=0, cost=0.0, started=started)
        return result
    if agent.name == "agent":  # unnamed agents take the name they were registered under
        agent = agent.model_copy(update={"name": spec.name})
    child = AgentRun(
        agent,
        parent.runtime,
        agent_id=child_id,
        parent_id=parent.agent_id,
        chain=[*parent.chain, spec.name],
        depth=parent.depth + 1,
    )
    try:
        await child.open()
    except Exception as exc:  # e.g. the child names a tool nobody registered
        await child.close()
        result = ChildResult(child_id, spec.name, "failed", reason=f"could not start it: {exc}")
        close(parent, result, tokens=0, cost=0.0, started=started)
        return result
    try:
        child.add_user_message(task)
        outcome = await run_agent(child)
        status = _STATUS.get(outcome.status, "failed")
        text = outcome.result if status == "finished" else child.last_text
        result = ChildResult(child_id, spec.name, status, result=text, reason=outcome.detail)
    except asyncio.CancelledError:
        result = ChildResult(child_id, spec.name, "interrupted", child.last_text, "interrupted")
        close(parent, result, tokens=child.subtree_tokens, cost=child.subtree_cost, started=started)
        raise
    finally:
        await child.close()
    parent.subtree_tokens += child.subtree_tokens
    parent.subtree_cost += child.subtree_cost
    close(parent, result, tokens=child.subtree_tokens, cost=child.subtree_cost, started=started)
    return result
