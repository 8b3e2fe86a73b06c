"""What every agent in one run shares: the event bus, the confirmer and policy, the risk
analyzer, the workspace, the limits that apply to the whole delegation tree, the tree itself
(folded from the bus, so who delegated to whom, and what each subtree spent, has one source:
the events), and what the session knows about files: those it trusts outside the sandbox and
those its file editor wrote."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

from openhands_tui.sdk.context.attachment_store import AttachmentStore
from openhands_tui.sdk.context.loader import LoadedMicroagents
from openhands_tui.sdk.executor import LOCAL, ExecutorSpec
from openhands_tui.sdk.facts.event import MCPServersEvent
from openhands_tui.sdk.facts.tree import DelegationTree
from openhands_tui.sdk.hooks.engine import HookEngine
from openhands_tui.sdk.mcp_config import MCPServerConfig
from openhands_tui.sdk.mcp_port import MCPToolSource
from openhands_tui.sdk.run.bus import EventBus
from openhands_tui.sdk.run.confirmation import ApproveAll, ConfirmationPolicy, Confirmer
from openhands_tui.sdk.run.outcome import LimitReached
from openhands_tui.sdk.sandbox import EditorWrites, SandboxPolicy
from openhands_tui.sdk.security import RiskAnalyzer
from openhands_tui.sdk.security.permissions import PermissionSet
from openhands_tui.sdk.security.session_trust import SessionTrust
from openhands_tui.sdk.security.trusted import TrustedFiles
from openhands_tui.sdk.timeline.checkpointer import Checkpoints
from openhands_tui.sdk.tool.context import DelegateTarget, SessionServices, WorkspaceChanges


@dataclass
class Limits:
    """Budgets for the whole tree: model calls and dollars."""

    max_iterations: int | None = 200
    max_budget: float | None = None
    iterations: int = 0
    cost: float = 0.0

    def charge_iteration(self) -> None:
        if self.max_iterations is not None and self.iterations >= self.max_iterations:
            raise LimitReached(f"iteration limit reached ({self.max_iterations} model calls)")
        if self.max_budget is not None and self.cost >= self.max_budget:
            raise LimitReached(f"budget limit reached (${self.cost:.4f} of ${self.max_budget:.2f})")
        self.iterations += 1


@dataclass
class Runtime:
    bus: EventBus
    workspace: Path
    #: Rates each action (the rule analyzer is built with this runtime's `trusted`).
    analyzer: RiskAnalyzer
    confirmer: Confirmer = field(default_factory=ApproveAll)
    policy: ConfirmationPolicy = field(default_factory=ConfirmationPolicy)
    #: Plan mode: the root agent (and what it starts) only reads, and its finish message is a plan.
    plan_mode: bool = False
    limits: Limits = field(default_factory=Limits)
    #: Remembered allow/deny rules, and the file new "always allow" answers are added to.
    permissions: PermissionSet = field(default_factory=PermissionSet)
    rules_file: Path | None = None
    #: How commands are confined (the terminal tool builds its jail from it).
    sandbox: SandboxPolicy = field(default_factory=SandboxPolicy)
    #: The sandbox mode a resumed session last ran with (None: unknown): whether processes an
    #: interrupted action started were sure to end with it.
    earlier_sandbox: str | None = None
    #: Microagents found in the workspace, the user's directories and the built-in set.
    microagents: LoadedMicroagents = field(default_factory=LoadedMicroagents)
    #: Agents any delegating agent may call besides its strategy's own (agent files).
    agents: list[DelegateTarget] = field(default_factory=list)
    #: Every agent of this run and its children, folded from the bus as events are published.
    tree: DelegationTree = field(default_factory=DelegationTree)
    #: How many agents have been started in this session, so child ids stay unique.
    agents_started: int = 0
    #: The session's MCP client (None: no client loaded) and the servers its root agent gets.
    mcp: MCPToolSource | None = None
    mcp_servers: dict[str, MCPServerConfig] = field(default_factory=dict)
    #: The user vouched for the project (--trust-project): its microagents may start servers.
    trust_project: bool = False
    #: Which project files the user trusts: stored decisions, and those given this session.
    trust: SessionTrust = field(default_factory=SessionTrust)
    #: Files this session trusts outside the sandbox (its strategy, what its MCP servers run,
    #: what instruction files import): HIGH to write, read-only to commands. This session's only.
    trusted: TrustedFiles = field(default_factory=TrustedFiles)
    #: What this session's file editor wrote, which the terminal's undo of protected paths spares.
    editor_writes: EditorWrites = field(default_factory=EditorWrites)
    #: What tools share for the whole session (language servers), closed with it.
    services: SessionServices = field(default_factory=SessionServices)
    #: The session's hooks (the user's, a trusted project's, the strategy's); None: none.
    hooks: HookEngine = field(default=None)  # type: ignore[assignment]

    #: The workspace's checkpoints before each user turn (None: none are kept); every agent's
    #: first tool of a turn waits for the turn's checkpoint.
    checkpoints: Checkpoints | None = None
    #: The images users' messages carried (the session's `attachments/` folder; memory when the
    #: session is not stored): every agent's messages read them from here.
    attachments: AttachmentStore = field(default_factory=AttachmentStore)
    #: Where agents' commands and file edits run unless an Agent says otherwise (sdk/executor.py).
    executor: ExecutorSpec = LOCAL
    #: Reads a remote agent's workspace changes where it works (ConversationParts.workspace_changes).
    workspace_changes: WorkspaceChanges | None = None

    #: Sub-agents with hooks of their own (the session's plus theirs), by agent id.
    agent_hooks: dict[str, HookEngine] = field(default_factory=dict)
    #: The agents open now, by id: the root and the sub-agents running (each an `AgentRun`, which
    #: imports this module), for the user's mid-session changes (`/model`, `/compact`).
    open_agents: dict[str, object] = field(default_factory=dict)

    def hooks_for(self, agent_id: str) -> HookEngine:
        return self.agent_hooks.get(agent_id, self.hooks)

    def new_agent_id(self, name: str) -> str:
        """A readable, session-unique id for a child agent: `coder-3`."""
        self.agents_started += 1
        slug = "".join(c if c.isalnum() or c in "-_" else "-" for c in name.lower()) or "agent"
        return f"{slug}-{self.agents_started}"

    def __post_init__(self) -> None:
        if self.hooks is None:
            self.hooks = HookEngine(self.workspace)
        self.bus.subscribe(self.tree.apply)
        if self.mcp is not None:  # how its servers are doing reaches front ends as events, like every fact
            self.mcp.watch(self._publish_mcp_servers)

    def _publish_mcp_servers(self) -> None:
        if self.mcp is not None:
            self.bus.publish(MCPServersEvent(agent_id="root", servers=self.mcp.status()))
