"""Agent files as other tools write them: which folders each tool reads, and how its fields map
onto ours. One table (`FORMATS`), checked when this module is imported; the loader
(agent_files.py) and the builder (sdk/file_agents.py) only read it.

A tool's name for a tool becomes one of our *grants*: the terminal, the file editor (`read`:
view only; `edit`: view and change), the task tracker, delegation. Claude Code's own words for
a shell command, a delegation, the file operations and MCP calls are the ones its hooks are
told (sdk/hooks/tool_names.py): the same words here, not a second list.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass, field

from openhands_tui.sdk.hooks.tool_names import DELEGATE_TOOL, FILE_TOOLS, MCP_PREFIX, SHELL_TOOL

TERMINAL, READ, EDIT, TASKS, DELEGATE = "terminal", "read", "edit", "tasks", "delegate"
#: Named in a file, given to every agent anyway (think, finish, the skill tool): nothing to add.
ALWAYS = "always"
#: Each grant as one of our tool specs: (registered name, params).
TOOL_SPECS: dict[str, tuple[str, dict[str, object]]] = {
    TERMINAL: ("TerminalTool", {}),
    READ: ("FileEditorTool", {"read_only": True}),
    EDIT: ("FileEditorTool", {}),
    TASKS: ("TaskTrackerTool", {}),
    DELEGATE: ("DelegateTool", {}),
}
#: What an agent file without a `tools` field gets: the default tools.
DEFAULT_GRANTS = (TERMINAL, EDIT, TASKS)
#: Our own names, understood in every format (a file written for this tool).
OURS: dict[str, str | None] = {
    "terminal": TERMINAL,
    "TerminalTool": TERMINAL,
    "file_editor": EDIT,
    "FileEditorTool": EDIT,
    "task_tracker": TASKS,
    "TaskTrackerTool": TASKS,
    "delegate": DELEGATE,
    "DelegateTool": DELEGATE,
    "think": ALWAYS,
    "finish": ALWAYS,
    "skill": ALWAYS,
}

_CLAUDE_TOOLS: dict[str, str | None] = {
    SHELL_TOOL: TERMINAL,
    DELEGATE_TOOL: DELEGATE,
    **{name: READ if operation == "view" else EDIT for operation, name in FILE_TOOLS.items()},
    "Agent": DELEGATE,
    "BashOutput": TERMINAL,
    "KillShell": TERMINAL,
    "KillBash": TERMINAL,
    "MultiEdit": EDIT,
    "NotebookEdit": EDIT,
    "NotebookRead": READ,
    "Glob": READ,  # no search tool here: the file editor's view lists folders
    "Grep": READ,
    "LS": READ,
    "TodoWrite": TASKS,
    "TodoRead": TASKS,
    "Skill": ALWAYS,
    "SlashCommand": ALWAYS,
    "ExitPlanMode": ALWAYS,
    "WebFetch": None,
    "WebSearch": None,
}
_OPENCODE_TOOLS: dict[str, str | None] = {
    "bash": TERMINAL,
    "read": READ,
    "grep": READ,
    "glob": READ,
    "list": READ,
    "lsp": READ,
    "edit": EDIT,
    "write": EDIT,
    "patch": EDIT,
    "multiedit": EDIT,
    "todowrite": TASKS,
    "todoread": TASKS,
    "task": DELEGATE,
    "skill": ALWAYS,
    "webfetch": None,
    "websearch": None,
    "codesearch": None,
}
_GEMINI_TOOLS: dict[str, str | None] = {
    "run_shell_command": TERMINAL,
    "read_file": READ,
    "read_many_files": READ,
    "list_directory": READ,
    "glob": READ,
    "grep_search": READ,
    "search_file_content": READ,
    "write_file": EDIT,
    "replace": EDIT,
    "edit": EDIT,
    "write_todos": TASKS,
    "activate_skill": ALWAYS,
    "web_fetch": None,
    "google_web_search": None,
    "save_memory": None,
}
#: Copilot's tool aliases (and the VS Code tool sets that write `set/tool`: the first part counts).
_COPILOT_TOOLS: dict[str, str | None] = {
    "shell": TERMINAL,
    "execute": TERMINAL,
    "runCommands": TERMINAL,
    "bash": TERMINAL,
    "powershell": TERMINAL,
    "read": READ,
    "search": READ,
    "codebase": READ,
    "edit": EDIT,
    "editFiles": EDIT,
    "todo": TASKS,
    "todos": TASKS,
    "agent": DELEGATE,
    "custom-agent": DELEGATE,
    "runSubagent": DELEGATE,
    "web": None,
    "fetch": None,
    "githubRepo": None,
}


@dataclass(frozen=True)
class AgentFormat:
    """One tool's agent files."""

    #: Who writes them (shown by `tui agents`).
    tool: str
    #: Folders of a project (the workspace, then its git root) and of the home that hold them.
    project: tuple[str, ...]
    user: tuple[str, ...]
    #: Its tool names -> our grant (None: it has no equivalent here, said when loaded).
    tools: Mapping[str, str | None]
    #: Its name of an MCP tool: groups `server` (absent: every server) and `tool` (absent or `*`: all).
    mcp: re.Pattern[str]
    #: File names that count (Copilot's `name.agent.md`), longest first; the rest is the name.
    suffixes: tuple[str, ...] = (".md",)
    #: The provider its bare model names and aliases mean (None: it names models another way).
    provider: str | None = None
    #: Its model aliases -> a model of `provider`.
    models: Mapping[str, str] = field(default_factory=dict)
    #: Its provider ids in `provider/model` names that litellm spells otherwise.
    providers: Mapping[str, str] = field(default_factory=dict)


FORMATS: tuple[AgentFormat, ...] = (
    AgentFormat(
        tool="claude-code",
        project=(".claude/agents",),
        user=(".claude/agents",),
        tools=_CLAUDE_TOOLS,
        mcp=re.compile(rf"{MCP_PREFIX}(?P<server>[^_].*?)(?:__(?P<tool>.+))?"),
        provider="anthropic",
        models={"sonnet": "claude-sonnet-4-5", "opus": "claude-opus-4-1", "haiku": "claude-haiku-4-5"},
    ),
    AgentFormat(
        tool="opencode",
        project=(".opencode/agent", ".opencode/agents"),
        user=(".config/opencode/agent", ".config/opencode/agents"),
        tools=_OPENCODE_TOOLS,
        mcp=re.compile(r"(?P<server>[^_*]+?)_(?P<tool>.+)"),
        providers={"google": "gemini"},
    ),
    AgentFormat(
        tool="gemini-cli",
        project=(".gemini/agents",),
        user=(".gemini/agents", ".config/gemini-cli/agents"),
        tools=_GEMINI_TOOLS,
        mcp=re.compile(r"mcp_(?:(?P<server>.+?)_)?(?P<tool>\*)"),
        provider="gemini",
    ),
    AgentFormat(
        tool="copilot",
        project=(".github/agents",),
        user=(".copilot/agents",),
        tools=_COPILOT_TOOLS,
        mcp=re.compile(r"(?P<server>[^/]+)/(?P<tool>.+)"),
        suffixes=(".agent.md", ".md"),
    ),
)
#: A provider's models named without it, as each tool's bare names are: `claude-*` is Anthropic's.
BARE_PROVIDERS = {"claude": "anthropic", "gemini": "gemini", "gpt": "openai", "o1": "openai", "o3": "openai"}
#: Sessions whose models a tool's bare names also suit (`vertex_ai/gemini-2.5-pro`).
SAME_FAMILY = {"anthropic": {"anthropic"}, "gemini": {"gemini", "vertex_ai"}}


def _check(formats: tuple[AgentFormat, ...]) -> None:
    """The table's own promises, checked at import: a mistake here fails every start, not one run."""
    names = [f.tool for f in formats]
    _require(len(set(names)) == len(names), f"agent formats named twice: {names}")
    _require(set(DEFAULT_GRANTS) <= set(TOOL_SPECS), "default grants must be tools")
    for fmt in formats:
        for name, grant in {**OURS, **fmt.tools}.items():
            _require(grant is None or grant == ALWAYS or grant in TOOL_SPECS, f"{fmt.tool}: {name} -> {grant}")
        _require(all(s.endswith(".md") for s in fmt.suffixes), f"{fmt.tool}: agent files are markdown")
        _require(list(fmt.suffixes) == sorted(fmt.suffixes, key=len, reverse=True), f"{fmt.tool}: longest first")
        _require(not fmt.models or bool(fmt.provider), f"{fmt.tool}: model aliases need their provider")
        _require(all(not d.startswith("/") and ".." not in d for d in fmt.project + fmt.user), fmt.tool)


def _require(holds: bool, problem: str) -> None:
    if not holds:
        raise ValueError(f"agent_formats.FORMATS: {problem}")


_check(FORMATS)
