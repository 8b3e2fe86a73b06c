"""`Conversation`: a root agent wired to the session log, the confirmer, the policy and the
run's shared state. It opens the root agent (fresh or from a stored history), publishes what
the session starts with (microagents, the confirmation policy), and runs the loop.
"""

from __future__ import annotations

import contextlib
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from openhands_tui.sdk.agent import Agent
from openhands_tui.sdk.context.attachment_store import FOLDER, AttachmentStore
from openhands_tui.sdk.context.attachments import Given, attach
from openhands_tui.sdk.context.loader import LoadedMicroagents, load_microagents
from openhands_tui.sdk.context.tasks import find_task_command
from openhands_tui.sdk.errors import SessionError, StorageError
from openhands_tui.sdk.executor import LOCAL, ExecutorSpec
from openhands_tui.sdk.facts.event import (
    DelegationClosedEvent,
    DelegationOpenedEvent,
    Event,
    MicroagentsLoadedEvent,
    PlanProposedEvent,
    PolicyChangedEvent,
    Risk,
    Status,
)
from openhands_tui.sdk.facts.store import SessionLog
from openhands_tui.sdk.hooks.config import HookConfig
from openhands_tui.sdk.hooks.sources import LoadedHooks, code_source, paths_to_protect
from openhands_tui.sdk.mcp_config import MCPServerConfig, session_servers
from openhands_tui.sdk.mcp_port import MCPToolSource, new_mcp_client
from openhands_tui.sdk.run.agent_run import AgentRun
from openhands_tui.sdk.run.bus import EventBus, Subscriber
from openhands_tui.sdk.run.confirmation import ApproveAll, ConfirmationMode, ConfirmationPolicy, Confirmer
from openhands_tui.sdk.run.delegation import ChildRuns
from openhands_tui.sdk.run.hook_points import fire, hook_input
from openhands_tui.sdk.run.loop import INTERRUPTED, run_agent
from openhands_tui.sdk.run.mcp_host import SessionMCPHost
from openhands_tui.sdk.run.mcp_turn import mcp_turn
from openhands_tui.sdk.run.midsession import MidSessionCalls
from openhands_tui.sdk.run.outcome import Finished, RunOutcome, StoppedByHook
from openhands_tui.sdk.run.plan_mode import approved_task, planning_when_stored
from openhands_tui.sdk.run.runtime import Limits, Runtime
from openhands_tui.sdk.run.sdk_calls import SDKCalls
from openhands_tui.sdk.sandbox import SandboxPolicy
from openhands_tui.sdk.security import RiskAnalyzer, RuleAnalyzer
from openhands_tui.sdk.security.permissions import PermissionSet
from openhands_tui.sdk.security.secrets import Redactor
from openhands_tui.sdk.security.trust import TrustRequest
from openhands_tui.sdk.security.trusted import RUNS_AS_HOOK, TrustedFiles
from openhands_tui.sdk.terminal_text import one_line
from openhands_tui.sdk.timeline.checkpointer import Checkpoints
from openhands_tui.sdk.timeline.history import child_ids_taken
from openhands_tui.sdk.timeline.shadow_repo import ShadowRepo
from openhands_tui.sdk.tool.context import DelegateTarget, WorkspaceChanges


@dataclass(frozen=True, kw_only=True)
class ConversationParts:
    """Everything a Conversation can be given besides its agent and workspace, each part left
    out being the default named beside it. Whoever starts a session builds one (launch.py for
    the app, headless and the ACP agent; a test with the few parts it needs) and passes it as
    `Conversation(agent, workspace=..., parts=...)`. Build one per conversation: a `limits`
    given here counts what that conversation spends."""

    # -- the record: where events go, and what they start from
    #: The session's log on disk (None: nothing is stored).
    log: SessionLog | None = None
    #: A stored session's events, to continue it (empty: a fresh session).
    history: Sequence[Event] = ()
    #: Called with every event as it is published: the app, a transcript printer, a test's list.
    subscribers: Sequence[Subscriber] = ()
    #: What hides secrets in every event (None: the environment's secrets).
    redactor: Redactor | None = None

    # -- approvals: who answers, when to ask, and what needs no asking
    #: Who answers a confirmation (None: ApproveAll).
    confirmer: Confirmer | None = None
    #: When to ask (None: risky, from HIGH).
    policy: ConfirmationPolicy | None = None
    #: Who rates an action's risk (None: the rule-based RuleAnalyzer).
    analyzer: RiskAnalyzer | None = None
    #: Remembered allow/deny rules (None: none, for this workspace).
    permissions: PermissionSet | None = None
    #: Where an "always allow" answer is written (None: such an answer is not remembered).
    rules_file: Path | None = None
    #: The user vouched for the project (--trust-project): its microagents may start servers.
    trust_project: bool = False
    #: Plan mode (`sdk/run/plan_mode.py`): True or False; None: as a resumed session last was
    #: (off for a new one).
    plan_mode: bool | None = None

    # -- confinement
    #: The files this session trusts outside the sandbox, as the launcher found them (its
    #: strategy and what that imported...; None: none yet). The session's analyzer, MCP client
    #: and tools all get this one record: give an `analyzer` built with the same one.
    trusted: TrustedFiles | None = None
    #: How commands are confined (None: SandboxPolicy(), workspace-write).
    sandbox: SandboxPolicy | None = None
    #: Where agents' commands and file edits run unless an Agent says otherwise (sdk/executor.py).
    executor: ExecutorSpec = LOCAL
    #: Reads a remote agent's changes where it works, for its critics (`executors.workspace_changes`).
    workspace_changes: WorkspaceChanges | None = None
    #: The sandbox mode a resumed session last ran with (None: unknown).
    earlier_sandbox: str | None = None

    # -- what the agents start with
    #: Microagents already loaded (None: loaded from the workspace, with the agent's own skills).
    microagents: LoadedMicroagents | None = None
    #: The MCP servers the root agent gets.
    mcp_servers: Mapping[str, MCPServerConfig] = field(default_factory=dict)
    #: The session's MCP client (None: a new one for this workspace and sandbox).
    mcp: MCPToolSource | None = None
    #: Agents any delegating agent may call besides its strategy's own (agent files).
    agents: Sequence[DelegateTarget] = ()

    #: Where the workspace's checkpoints are kept (None: none are taken).
    checkpoints: ShadowRepo | None = None

    # -- budgets
    #: Model calls and dollars for the whole delegation tree (None: Limits(), 200 calls).
    limits: Limits | None = None

    # -- automation
    #: Hooks found in the user's and the project's files (None: none are read). A project's
    #: hooks wait in it until trusted (`Conversation.trust`).
    hooks: LoadedHooks | None = None


class Conversation(SDKCalls, MidSessionCalls):
    """A root agent working in a workspace. Construct, `await run(task)`, `await close()`.

    `Conversation(agent=agent, workspace=path)` is the OpenHands SDK's call; everything else
    a session is wired to comes as one `ConversationParts`. The SDK's own arguments
    (`callbacks`, `visualizer`, `max_iteration_per_run`...) and its synchronous calls
    (`send_message`, `run()` from plain code, `state`...) are `SDKCalls`'; the user's changes
    mid-session (`set_model`, `compact`, `context_usage`) are `MidSessionCalls`'."""

    def __init__(
        self,
        agent: Agent,
        *,
        workspace: Path | str = ".",
        parts: ConversationParts | None = None,
        hook_config: HookConfig | None = None,
        **sdk_arguments: Any,
    ) -> None:
        parts = parts or ConversationParts()
        workspace = Path(workspace).resolve()
        self.bus = EventBus(parts.log, parts.redactor if parts.redactor is not None else Redactor.from_environment())
        for subscriber in parts.subscribers:
            self.bus.subscribe(subscriber)
        sandbox = parts.sandbox or SandboxPolicy()
        trusted = parts.trusted if parts.trusted is not None else TrustedFiles()
        self.runtime = Runtime(
            bus=self.bus,
            workspace=workspace,
            confirmer=parts.confirmer or ApproveAll(),
            policy=parts.policy or ConfirmationPolicy(),
            analyzer=parts.analyzer or RuleAnalyzer(trusted=trusted),
            limits=parts.limits or Limits(),
            permissions=parts.permissions or PermissionSet(workspace=workspace),
            rules_file=parts.rules_file,
            sandbox=sandbox,
            earlier_sandbox=parts.earlier_sandbox,
            microagents=parts.microagents
            if parts.microagents is not None
            else load_microagents(workspace, strategy_skills=agent.context.skills),
            mcp=parts.mcp if parts.mcp is not None else new_mcp_client(workspace, sandbox, trusted),
            mcp_servers=dict(parts.mcp_servers),
            agents=list(parts.agents),
            trust_project=parts.trust_project,
            trusted=trusted,
            checkpoints=Checkpoints(parts.checkpoints, self.bus.publish) if parts.checkpoints is not None else None,
            attachments=AttachmentStore(parts.log.directory / FOLDER if parts.log is not None else None),
            executor=parts.executor,
            workspace_changes=parts.workspace_changes,
        )
        if self.runtime.mcp is not None:  # what servers ask of the session: progress, the user, the model
            self.runtime.mcp.serve(SessionMCPHost(self.runtime))
        self._hooks = parts.hooks or LoadedHooks()
        for source in self._hooks.sources:
            self.runtime.hooks.add(source)
        if hook_config is not None and not hook_config.is_empty():  # the SDK's Conversation(hook_config=...)
            self.runtime.hooks.add(code_source(hook_config, "Conversation(hook_config=...)", workspace))
        scripts = self._hooks.scripts() + [s for source in self.runtime.hooks.sources for s in source.scripts]
        for path in paths_to_protect(scripts, workspace):
            trusted.note(path, RUNS_AS_HOOK)  # what runs unconfined is not the agent's to rewrite
        self.root = AgentRun(agent, self.runtime, agent_id="root", spawner=ChildRuns)
        self.log = parts.log
        self._history = list(parts.history)
        self._opened = False
        wanted = parts.plan_mode
        self.runtime.plan_mode = planning_when_stored(self._history) if wanted is None else wanted
        self._sdk_setup(**sdk_arguments)

    @property
    def status(self) -> Status:
        return self.root.status

    @property
    def checkpoints(self) -> ShadowRepo | None:
        """Where this session's checkpoints of the workspace are kept (None: none are taken):
        what a rewind of its files restores from."""
        return self.runtime.checkpoints.repo if self.runtime.checkpoints is not None else None

    def set_policy(self, mode: ConfirmationMode, threshold: Risk | None = None) -> None:
        """Switch when to ask, mid-session; the switch is recorded as an event."""
        policy = ConfirmationPolicy(mode=mode, threshold=threshold or self.runtime.policy.threshold)
        self.runtime.policy = policy
        self._publish_policy()

    def set_plan_mode(self, on: bool) -> None:
        """Enter or leave plan mode, mid-session; recorded as an event (with the policy), so UIs
        show it and a resumed session keeps it. Takes effect from the root agent's next call."""
        if on != self.runtime.plan_mode:
            self.runtime.plan_mode = on
            self._publish_policy()

    async def approve_plan(self, plan: str, mode: ConfirmationMode | None = None, note: str = "") -> RunOutcome:
        """Carry out a plan the user approved (and may have edited): leave plan mode, ask from
        now on as `mode` says (None: as before), and go on with the plan as the task."""
        if mode is not None:
            self.runtime.policy = ConfirmationPolicy(mode=mode, threshold=self.runtime.policy.threshold)
        self.runtime.plan_mode = False
        self._publish_policy()
        return await self.run(approved_task(plan, note))

    def trust(self, request: TrustRequest) -> str | None:
        """The user trusts a project file (asked by the app): remember it, and use its rules now.
        Returns why it could not be remembered: it is then trusted for this session only."""
        unsaved = self.runtime.trust.trust_here(request)
        if request.kind == "permissions":
            self.runtime.permissions, _ = PermissionSet.load(self.runtime.workspace, trust=self.runtime.trust)
        elif request.kind == "hooks":  # the project's hooks run from the next event on
            for source in self._hooks.waiting:
                self.runtime.hooks.add(source)
            self._hooks.waiting = []
        elif request.kind == "mcp" and Path(request.file).name == ".mcp.json":  # its servers join the next call
            servers = session_servers(self.runtime.workspace, trust=self.runtime.trust).servers
            self.runtime.mcp_servers.update(servers)
            self.root.mcp.want(servers, "the project's .mcp.json")
        return unsaved

    def _publish_policy(self) -> None:
        policy = self.runtime.policy
        self.bus.publish(
            PolicyChangedEvent(
                agent_id=self.root.agent_id,
                mode=policy.mode.value,
                threshold=policy.threshold,
                plan=self.runtime.plan_mode,
            )
        )

    async def open(self) -> None:
        if not self._opened:
            self._opened = True
            for event in self._history:
                self.runtime.tree.apply(event)
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
            self._publish_policy()  # the mode UIs show comes from the event stream, like every fact
            if self.runtime.hooks.has("SessionStart"):
                source = "resume" if self._history else "startup"
                given = hook_input(self.runtime, "SessionStart", fields={"source": source}, match_value=source)
                said = await fire(self.root, self.runtime, given)
                if said.context:
                    self.root.carried_context.append(said.context)

    def _close_orphaned_delegations(self) -> None:
        """Children that were running when the session stopped are not resumed: close them
        as interrupted (their parent's delegate call is reported interrupted too)."""
        opened = {e.agent_id: e for e in self._history if isinstance(e, DelegationOpenedEvent)}
        closed = {e.agent_id for e in self._history if isinstance(e, DelegationClosedEvent)}
        self.runtime.agents_started = child_ids_taken(self._history)
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

    async def arun(
        self, task: str | None = None, inputs: dict[str, str] | None = None, *, given: Given = Given()
    ) -> RunOutcome:
        """Run until the root agent ends. Without `task`, continue a resumed session.
        A task starting with `/name` runs that task microagent with `inputs`. `given`: images
        and files a front end attached to the task (`sdk/context/attachments.py`)."""
        if task is None and self._pending:  # the SDK: send_message() then `await arun()`
            return await self._run_pending(inputs)
        await self.open()
        if task is not None and task.strip():
            blocked = await self._submit(task, inputs, given)
            if blocked is not None:
                return blocked
        elif not self.root.has_work:
            raise SessionError("nothing to continue: the session has finished; give a new --task")
        outcome = await run_agent(self.root)
        if self.runtime.plan_mode and outcome.status is Status.FINISHED and outcome.result.strip():
            self.bus.publish(PlanProposedEvent(agent_id=self.root.agent_id, plan=outcome.result))
        if self.log is not None:
            try:
                self.log.save_meta(status=outcome.status.value)
            except StorageError as exc:  # the disk filled as the run ended: said as mid-run, not raised
                update = {"status": Status.ERROR, "exit_code": exc.exit_code, "detail": str(exc)}
                outcome = outcome.model_copy(update=update)
        return outcome

    async def _submit(
        self, task: str, inputs: dict[str, str] | None = None, given: Given = Given()
    ) -> RunOutcome | None:
        """Give the root agent `task` as the user, with what it attaches; the outcome if a hook
        blocked it."""
        llm = self.root.agent.llm
        servers = {**self.root.agent.mcp_servers, **self.runtime.mcp_servers}
        asked = await mcp_turn(task, self.runtime.mcp, servers)  # `@server:uri`, `/server:prompt`
        attached = attach(
            asked.text,
            self.runtime.workspace,
            self.runtime.attachments,
            given,
            model=llm.model,
            takes_images=llm.takes_images,
        )
        for part in ("context", "files", "notes"):
            getattr(attached, part).extend(getattr(asked.attached, part))
        self._title_from(task)
        submitted = await self._prompt_hooks(task)
        if isinstance(submitted, RunOutcome):
            return submitted
        command = find_task_command(task, self.runtime.microagents) if asked.text == task else None
        if command is None:
            message = self.root.add_user_message(asked.text, context_from_hooks=submitted, attached=attached)
        else:
            rendered = command.render(inputs or {})
            message = self.root.add_user_message(
                rendered, task=command.skill, context_from_hooks=submitted, attached=attached
            )
        if self.runtime.checkpoints is not None:
            self.runtime.checkpoints.begin(message.id)
        return None

    async def _prompt_hooks(self, task: str) -> list[str] | RunOutcome:
        """UserPromptSubmit hooks: the context they add to the prompt, or the outcome of a prompt
        they blocked (it is not sent; the user is told why)."""
        if not self.runtime.hooks.has("UserPromptSubmit"):
            return []
        try:
            said = await fire(
                self.root, self.runtime, hook_input(self.runtime, "UserPromptSubmit", fields={"prompt": task})
            )
        except StoppedByHook as stop:
            return RunOutcome(agent_id="root", status=self.root.status, exit_code=stop.exit_code, detail=stop.detail)
        if said.decision == "deny":
            why = said.reason or "a UserPromptSubmit hook blocked it"
            return RunOutcome(agent_id="root", status=self.root.status, exit_code=1, detail=f"prompt not sent: {why}")
        return [said.context] if said.context else []

    def _title_from(self, task: str) -> None:
        """A session started without --task (typed in the app) is titled by its first task, so
        `tui sessions` and /resume can tell sessions apart."""
        if self.log is None or self.log.meta.title:
            return
        first_line = one_line(task.strip().splitlines()[0])[:100]
        self.log.save_meta(title=self.bus.redactor.redact(first_line))

    async def aclose(self) -> None:
        if self._opened and self.runtime.hooks.has("SessionEnd"):
            given = hook_input(self.runtime, "SessionEnd", fields={"reason": "exit"})
            with contextlib.suppress(StoppedByHook):  # the session is ending anyway
                await fire(self.root, self.runtime, given)
        await self.runtime.hooks.aclose()
        if self.runtime.checkpoints is not None:
            await self.runtime.checkpoints.aclose()
        await self.root.close()
        await self.runtime.services.aclose()  # no language server outlives its session
        if self.runtime.mcp is not None:
            await self.runtime.mcp.aclose()  # no server outlives its session
        if self.log is not None:
            self.log.close()


__all__ = ["INTERRUPTED", "Conversation", "ConversationParts", "Finished", "RunOutcome", "run_agent"]
