"""What the command line asks a session to be: the choices `launch` turns into a Conversation.

Apart from `launch.py` so the command line and the app can hold them without importing the
engine: the app draws its first frame before the engine is loaded.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

from openhands_tui.sdk.facts.risk import Risk
from openhands_tui.sdk.llm.reasoning import ReasoningEffort
from openhands_tui.sdk.run.confirmation_mode import ConfirmationMode

BUILTIN_SOLO = "builtin:solo"


@dataclass
class LaunchOptions:
    strategy: str | None = None
    params: list[str] = field(default_factory=list)
    task: str | None = None
    model: str | None = None
    base_url: str | None = None
    api_key: str | None = None
    reasoning_effort: ReasoningEffort | None = None
    workspace: Path | None = None
    confirm: ConfirmationMode = ConfirmationMode.RISKY
    risk_threshold: Risk = Risk.HIGH
    resume: str | None = None
    max_iterations: int | None = None
    max_budget: float | None = None
    inputs: list[str] = field(default_factory=list)
    state_dir: Path | None = None
    #: read-only | workspace-write | off; None: the config file's, else workspace-write.
    sandbox: str | None = None
    #: Use the project's own allow rules (and servers) without asking: the user vouches for it.
    trust_project: bool = False
    #: Work in the home directory, `/` or a folder that holds HOME (refused without it).
    workspace_is_home: bool = False
    #: Plan mode (read-only, ends with a plan): True or False; None: as a resumed session was.
    plan: bool | None = None
    #: Headless: carry out the resumed session's last plan (`--approve-plan`; plan mode ends).
    approve_plan: bool = False
    #: Run this agent file's agent (`tui agents`) as the root agent.
    agent: str | None = None
    #: With `resume`: continue in a new session, a copy of that one's history (`--fork`), up to
    #: before turn `fork_at` (None: all of it).
    #: Where agents' commands and edits run: None or "local", or "agent-server:URL" (sdk/executor.py).
    executor: str | None = None
    fork: bool = False
    fork_at: int | None = None
    #: With `resume`: a log damaged before its last line is kept up to the damage (`--recover`).
    recover: bool = False
    #: Keep a checkpoint of the workspace's files before each turn (`--no-checkpoints`: not).
    checkpoints: bool = True
    #: Headless: images sent with the task (`--image FILE`, repeatable).
    images: list[Path] = field(default_factory=list)
