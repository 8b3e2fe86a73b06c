"""What a tool may know about the run it serves, and the ports through which it asks for more.

A tool gets a `ToolContext` when its agent's run starts. Most tools need only the workspace;
the delegate tool asks the engine for child agents through `ChildSpawner`, a typed port the
engine implements (`sdk/run/delegation.py`), so no tool reaches into the engine's run objects.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any, Literal, Protocol

from openhands_tui.sdk.executor import LOCAL, ExecutorSpec
from openhands_tui.sdk.facts.event import Event
from openhands_tui.sdk.sandbox import EditorWrites, SandboxPolicy
from openhands_tui.sdk.security.trusted import TrustedFiles

if TYPE_CHECKING:
    from openhands_tui.sdk.agent import Agent
    from openhands_tui.sdk.context.skill import Skill
    from openhands_tui.sdk.llm.client import LLM

#: How a child agent is built for one task: given the parent's model, return a fresh Agent.
AgentBuilder = Callable[["LLM"], "Agent"]

ChildStatus = Literal["finished", "failed", "rejected", "limit", "interrupted"]


@dataclass
class ChildResult:
    """How a delegated child ended, and what its parent's model reads about it."""

    agent_id: str
    agent_name: str
    status: ChildStatus
    result: str = ""
    reason: str = ""
    #: What became of its changes when it worked in its own copy ("" otherwise).
    changes: str = ""

    def text(self) -> str:
        return self._text() + self.changes

    def _text(self) -> str:
        if self.status == "finished":
            return f"{self.agent_name} ({self.agent_id}) finished. Its report:\n\n{self.result}"
        if self.status == "rejected":
            return self.reason
        partial = self.result.strip() or "(nothing)"
        return (
            f"{self.agent_name} ({self.agent_id}) did not finish: {self.status} — {self.reason}.\n"
            f"What it had said so far: {partial}\nDecide whether to retry, do it yourself, or report it."
        )


class ChildSpawner(Protocol):
    """The engine's port for starting child agents on behalf of one parent agent."""

    @property
    def depth(self) -> int:
        """How far below the root the parent is (the root is 0)."""

    def turn(self) -> int:
        """Which task the parent is on: it changes with each message the parent is given."""

    def refuse(self, name: str, task: str, reason: str) -> ChildResult:
        """Record a delegation that a cap stopped (it shows as a child that never ran)."""

    async def spawn(self, name: str, build: AgentBuilder, task: str) -> ChildResult:
        """Open, run and close one child; whatever way it ends, return its result."""


@dataclass(frozen=True)
class DelegateTarget:
    """An agent the session offers for delegation besides those a strategy registered (the
    agent files users wrote for other tools): its name, when to use it, and how it is built."""

    name: str
    description: str
    build: AgentBuilder


class SkillShelf(Protocol):
    """The engine's port for the `skill` tool: the Agent Skills this agent may load."""

    def available(self) -> list[Skill]:
        """The skills the agent was told about (name, description, folder)."""

    def opened(self, skill: Skill) -> None:
        """The agent read `skill`: a trigger need not add it again."""


class SessionServices:
    """What tools share for a whole session (one language server per language, not one per
    agent), made on first use and closed with the session."""

    def __init__(self) -> None:
        self._made: dict[str, Any] = {}

    def get(self, key: str, make: Callable[[], Any]) -> Any:
        if key not in self._made:
            self._made[key] = make()
        return self._made[key]

    async def aclose(self) -> None:
        made, self._made = self._made, {}
        for service in made.values():
            close = getattr(service, "aclose", None)
            if close is not None:
                await close()


@dataclass
class ToolContext:
    """What a tool may know about the run it serves.

    `history` is this agent's own stored events (a resumed tool can restore its state from
    them); `spawner` is set for every agent the engine runs and lets a tool start children;
    `sandbox` is how commands are confined in this session; `skills` lists the Agent Skills
    the agent can load; `agents` are the session's agents to delegate to besides those a
    strategy registered (agent files); `trusted` and `editor_writes` are the session's own records of the files
    it trusts outside the sandbox and of what its file editor wrote (the terminal's jail keeps
    the first read-only and spares the second; the file editor adds to the second);
    `read_only` says, whenever asked, whether the agent is read-only now (plan mode): the
    terminal's jail then keeps the workspace read-only too.
    """

    workspace: Path
    agent_id: str
    history: list[Event] = field(default_factory=list)
    spawner: ChildSpawner | None = None
    sandbox: SandboxPolicy = field(default_factory=SandboxPolicy)
    skills: SkillShelf | None = None
    agents: list[DelegateTarget] = field(default_factory=list)
    trusted: TrustedFiles = field(default_factory=TrustedFiles)
    editor_writes: EditorWrites = field(default_factory=EditorWrites)
    read_only: Callable[[], bool] = field(default=lambda: False)
    #: Publishes an event from any thread (a background job's start and end); None: not told.
    report: Callable[[Event], None] | None = None
    #: Shared by every agent of the session (a language server per language).
    services: SessionServices = field(default_factory=SessionServices)
    #: Where its commands and file edits run (sdk/executor.py): here, or an agent-server.
    executor: ExecutorSpec = LOCAL


#: Reads the changes in an agent's workspace where it works, as a patch (None: not a git
#: repository); given by the launcher (`executors.workspace_changes`), which the engine cannot import.
WorkspaceChanges = Callable[[ToolContext], Awaitable["str | None"]]


@dataclass
class LocalWorkspace:
    """The SDK's workspace as tool factories see it: `working_dir` is where the agent works."""

    working_dir: str


class ConversationState:
    """What an SDK-style tool factory receives as `conv_state`: `conv_state.workspace.working_dir`
    (a string, as in the SDK), and `context`, this engine's ToolContext for the same agent."""

    def __init__(self, context: ToolContext) -> None:
        self.context = context
        self.workspace = LocalWorkspace(str(context.workspace))
        self.agent_id = context.agent_id
