"""The run loop, and `Conversation`, which wires a root agent to the log and the confirmer.

`run_agent` is the only loop in the engine: step until something ends the run. Every ending
(finished, limit, stuck, model failure, interrupt) arrives as an exception and is turned into
a RunOutcome here, in one place, for root agents and delegated children alike.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Iterable
from pathlib import Path

from openhands_tui.sdk.agent import Agent
from openhands_tui.sdk.agent_run import AgentRun
from openhands_tui.sdk.bus import EventBus, Subscriber
from openhands_tui.sdk.confirmation import ApproveAll, ConfirmationMode, ConfirmationPolicy, Confirmer
from openhands_tui.sdk.context.loader import LoadedMicroagents, load_microagents
from openhands_tui.sdk.context.tasks import find_task_command
from openhands_tui.sdk.errors import LLMAuthError, LLMError, SessionError
from openhands_tui.sdk.event import (
    DelegationClosedEvent,
    DelegationOpenedEvent,
    Event,
    MicroagentsLoadedEvent,
    PolicyChangedEvent,
    Risk,
    Status,
)
from openhands_tui.sdk.outcome import Finished, RunEnded, RunOutcome
from openhands_tui.sdk.runtime import Limits, Runtime
from openhands_tui.sdk.security import RiskAnalyzer, RuleAnalyzer
from openhands_tui.sdk.security.permissions import PermissionSet
from openhands_tui.sdk.security.secrets import Redactor
from openhands_tui.sdk.store import SessionLog

logger = logging.getLogger(__name__)

INTERRUPTED = 130


async def run_agent(run: AgentRun) -> RunOutcome:
    """Step `run` until it ends; return how it ended. Never raises for a run that ended."""
    run.set_status(Status.RUNNING)
    result = ""
    try:
        while True:
            await run.step()
    except Finished as end:
        status, code, detail, result = end.status, end.exit_code, "", end.result
    except RunEnded as end:
        status, code, detail = end.status, end.exit_code, end.detail
    except LLMAuthError as exc:
        status, code, detail = Status.ERROR, 1, f"the model provider refused the credentials: {exc}"
    except LLMError as exc:
        status, code, detail = Status.ERROR, 1, f"the model call failed: {exc}"
    except asyncio.CancelledError:
        if run.depth > 0:  # a child: record it, then let the interrupt reach the root
            run.set_status(Status.PAUSED, "interrupted")
            raise
        task = asyncio.current_task()
        if task is not None:
            task.uncancel()  # handled here: the session stays usable and resumable
        status, code, detail = Status.PAUSED, INTERRUPTED, "interrupted"
    except Exception as exc:  # an engine bug: record it, keep the session resumable
        logger.exception("agent %s crashed", run.agent_id)
        status, code, detail = Status.ERROR, 1, f"internal error: {type(exc).__name__}: {exc}"
    run.set_status(status, detail)
    return RunOutcome(agent_id=run.agent_id, status=status, exit_code=code, result=result, detail=detail)


class Conversation:
    """A root agent working in a workspace. Construct, `await run(task)`, `await close()`."""

    def __init__(
        self,
        agent: Agent,
        *,
        workspace: Path,
        log: SessionLog | None = None,
        confirmer: Confirmer | None = None,
        policy: ConfirmationPolicy | None = None,
        analyzer: RiskAnalyzer | None = None,
        limits: Limits | None = None,
        history: list[Event] | None = None,
        subscribers: Iterable[Subscriber] = (),
        permissions: PermissionSet | None = None,
        rules_file: Path | None = None,
        redactor: Redactor | None = None,
        microagents: LoadedMicroagents | None = None,
    ) -> None:
        self.bus = EventBus(log, redactor if redactor is not None else Redactor.from_environment())
        for subscriber in subscribers:
            self.bus.subscribe(subscriber)
        self.runtime = Runtime(
            bus=self.bus,
            workspace=workspace.resolve(),
            confirmer=confirmer or ApproveAll(),
            policy=policy or ConfirmationPolicy(),
            analyzer=analyzer or RuleAnalyzer(),
            limits=limits or Limits(),
            permissions=permissions or PermissionSet(workspace=workspace.resolve()),
            rules_file=rules_file,
            microagents=microagents
            if microagents is not None
            else load_microagents(workspace.resolve(), strategy_skills=agent.context.skills),
        )
        self.root = AgentRun(agent, self.runtime, agent_id="root")
        self.log = log
        self._history = history or []
        self._opened = False

    @property
    def status(self) -> Status:
        return self.root.status

    def set_policy(self, mode: ConfirmationMode, threshold: Risk | None = None) -> None:
        """Switch when to ask, mid-session; the switch is recorded as an event."""
        policy = ConfirmationPolicy(mode=mode, threshold=threshold or self.runtime.policy.threshold)
        self.runtime.policy = policy
        self.bus.publish(
            PolicyChangedEvent(agent_id=self.root.agent_id, mode=policy.mode.value, threshold=policy.threshold)
        )

    async def open(self) -> None:
        if not self._opened:
            self._opened = True
            self._close_orphaned_delegations()
            await self.root.open(self._history)
            loaded = self.runtime.microagents
            self.bus.publish(
                MicroagentsLoadedEvent(
                    agent_id=self.root.agent_id,
                    microagents=[skill.info() for skill in loaded.skills],
                    warnings=loaded.warnings,
                    shadowed=loaded.shadowed,
                )
            )

    def _close_orphaned_delegations(self) -> None:
        """Children that were running when the session stopped are not resumed: close them
        as interrupted (their parent's delegate call is reported interrupted too)."""
        opened = {e.agent_id: e for e in self._history if isinstance(e, DelegationOpenedEvent)}
        closed = {e.agent_id for e in self._history if isinstance(e, DelegationClosedEvent)}
        self.runtime.agents_started = len(opened)
        for child_id, event in opened.items():
            if child_id not in closed:
                self.bus.publish(
                    DelegationClosedEvent(
                        agent_id=child_id,
                        parent_agent_id=event.parent_agent_id,
                        agent_name=event.agent_name,
                        status="interrupted",
                        reason="the session stopped while it ran",
                    )
                )

    async def run(self, task: str | None = None, inputs: dict[str, str] | None = None) -> RunOutcome:
        """Run until the root agent ends. Without `task`, continue a resumed session.
        A task starting with `/name` runs that task microagent with `inputs`."""
        await self.open()
        if task is not None and task.strip():
            command = find_task_command(task, self.runtime.microagents)
            if command is None:
                self.root.add_user_message(task)
            else:
                self.root.add_user_message(command.render(inputs or {}), task=command.skill)
        elif not self.root.has_work:
            raise SessionError("nothing to continue: the session has finished; give a new --task")
        outcome = await run_agent(self.root)
        if self.log is not None:
            self.log.save_meta(status=outcome.status.value)
        return outcome

    async def close(self) -> None:
        await self.root.close()
        if self.log is not None:
            self.log.close()


__all__ = ["Conversation", "Finished", "RunOutcome", "run_agent"]
