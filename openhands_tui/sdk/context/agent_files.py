"""Agents from files: the markdown agent definitions users already wrote for Claude Code,
opencode, Gemini CLI and GitHub Copilot, read from each tool's folders (agent_formats.py).

Each file is frontmatter (name, description, tools, model...) and a body: the agent's
instructions. Order, first of a name wins (later ones are reported as shadowed): the
workspace, then its git root; the user's folders; the agents of the session's plugins (its
strategy plugin's, the installed ones', Claude Code's installed ones': sdk/plugin/session.py),
as `plugin:agent`.

A project's agent files are repository content that becomes prompts, as its microagents are.
Nothing in them widens what runs: their tools are ours under the session's rules, sandbox and
confirmations; their hooks, MCP server definitions and permission modes are not used (said);
and a model from another provider is taken only from the user's own files (builder).
A problem is one line naming the file; the rest loads.
"""

from __future__ import annotations

import os
import re
from collections.abc import Iterable
from pathlib import Path
from typing import Any

from pydantic import Field

from openhands_tui.sdk.context.agent_formats import (
    ALWAYS,
    DEFAULT_GRANTS,
    EDIT,
    FORMATS,
    OURS,
    READ,
    TERMINAL,
    TOOL_SPECS,
    AgentFormat,
)
from openhands_tui.sdk.context.files import read_source
from openhands_tui.sdk.context.frontmatter import parse_header, split_frontmatter
from openhands_tui.sdk.context.rules import stays_inside
from openhands_tui.sdk.files.own_git import run_git
from openhands_tui.sdk.model import Model

MAX_AGENTS_PER_FOLDER = 200
_NAME = re.compile(r"[A-Za-z0-9][A-Za-z0-9_.:-]{0,63}")
#: Frontmatter that would run programs or change who decides: read, said, never used.
_NOT_USED = {
    "hooks": "hooks run programs; they come from your settings, not from agent files",
    "mcpServers": "MCP servers run programs; configure them with `tui mcp`",
    "mcp-servers": "MCP servers run programs; configure them with `tui mcp`",
    "permissionMode": "what is asked is decided by --confirm and your rules",
}
_TURNS = ("max_turns", "maxTurns", "maxSteps", "steps")


class FileAgent(Model):
    """One agent read from a file."""

    name: str
    description: str = ""
    #: The body: appended to its system prompt.
    instructions: str = ""
    source: str
    #: workspace | user | plugin
    origin: str
    #: Whose format: claude-code, opencode, gemini-cli, copilot.
    format: str
    #: Our grants (agent_formats: terminal, read, edit, tasks, delegate); None: the default tools.
    grants: list[str] | None = None
    #: The MCP tools it may use, as patterns over our names (`server__tool`, `server__*`).
    mcp: list[str] = Field(default_factory=list)
    #: As written (None: the session's); resolved against the session's model when built.
    model: str | None = None
    temperature: float | None = None
    max_iterations: int | None = None
    #: `isolation: worktree` in its frontmatter: it works in its own copy of the workspace.
    isolation: str = "shared"
    #: Offered to agents that delegate (opencode's `mode: primary` is for --agent only).
    delegable: bool = True
    problems: list[str] = Field(default_factory=list)

    def tool_names(self) -> list[str]:
        """Its tools as the model sees them: `terminal`, `file_editor (view only)`, `github__*`..."""
        grants = DEFAULT_GRANTS if self.grants is None else self.grants
        shown = {"TerminalTool": "terminal", "FileEditorTool": "file_editor", "TaskTrackerTool": "task_tracker"}
        names = []
        for grant in grants:
            spec, params = TOOL_SPECS[grant]
            name = shown.get(spec, "delegate")
            names.append(f"{name} (view only)" if params.get("read_only") else name)
        return names + [f"mcp {pattern}" for pattern in self.mcp]

    def info(self) -> dict[str, Any]:
        return {
            "name": self.name,
            "description": self.description,
            "format": self.format,
            "origin": self.origin,
            "source": self.source,
            "tools": self.tool_names(),
            "default_tools": self.grants is None,
            "model": self.model or "inherit",
            "delegable": self.delegable,
            "problems": self.problems,
        }


class LoadedAgents(Model):
    agents: list[FileAgent] = Field(default_factory=list)
    warnings: list[str] = Field(default_factory=list)
    shadowed: list[str] = Field(default_factory=list)

    def by_name(self, name: str) -> FileAgent | None:
        return next((a for a in self.agents if a.name == name), None)

    def delegable(self) -> list[FileAgent]:
        return [a for a in self.agents if a.delegable]

    def notices(self) -> list[str]:
        """Everything worth a line at a session's start: skipped files, problems, shadowing."""
        problems = [f"{a.source}: {p}" for a in self.agents for p in a.problems]
        return [*self.warnings, *problems, *self.shadowed]


def load_agent_files(
    workspace: Path, *, home: Path | None = None, plugin_dirs: Iterable[tuple[str, Path]] = ()
) -> LoadedAgents:
    """Every agent file a session in `workspace` would offer. `plugin_dirs`: (plugin name, its
    agents folder) of the session's plugins (`SessionPlugins.agent_dirs()`)."""
    result = LoadedAgents()
    names: dict[str, FileAgent] = {}
    read: set[str] = set()

    def offer(agents: list[FileAgent]) -> None:
        for agent in agents:
            winner = names.get(agent.name)
            if winner is not None:
                result.shadowed.append(f"agent {agent.name} from {agent.source} is shadowed by {winner.source}")
                continue
            names[agent.name] = agent
            result.agents.append(agent)

    def folder(path: Path, fmt: AgentFormat, origin: str, confine: Path | None = None, prefix: str = "") -> None:
        real = os.path.realpath(path)
        if real in read or not path.is_dir():
            return
        read.add(real)
        offer(_folder(path, fmt, origin, result.warnings, confine=confine, prefix=prefix))

    workspace = workspace.resolve()
    home = home or Path.home()
    git_root = _git_root(workspace)
    for root in [workspace, *([git_root] if git_root is not None and git_root != workspace else [])]:
        for fmt in FORMATS:
            for relative in fmt.project:
                folder(root / relative, fmt, "workspace", confine=root)
    for fmt in FORMATS:
        for relative in fmt.user:
            folder(home / relative, fmt, "user")
    for plugin, path in plugin_dirs:  # plugins' agents are written as Claude Code's are
        folder(path, FORMATS[0], "plugin", prefix=f"{plugin}:")
    return result


def _folder(
    directory: Path, fmt: AgentFormat, origin: str, warnings: list[str], *, confine: Path | None, prefix: str
) -> list[FileAgent]:
    try:
        files = sorted(p for p in directory.iterdir() if p.name.endswith(".md") and p.name.lower() != "readme.md")
    except OSError as exc:
        warnings.append(f"{directory}: skipped, unreadable ({exc.strerror or exc})")
        return []
    if len(files) > MAX_AGENTS_PER_FOLDER:
        warnings.append(f"{directory}: only the first {MAX_AGENTS_PER_FOLDER} agent files are read")
    agents = []
    for path in files[:MAX_AGENTS_PER_FOLDER]:
        if confine is not None and not stays_inside(path, confine, warnings):
            continue
        agent = read_agent_file(path, fmt, origin, warnings, prefix=prefix)
        if agent is not None:
            agents.append(agent)
    return agents


def read_agent_file(
    path: Path, fmt: AgentFormat, origin: str, warnings: list[str], prefix: str = ""
) -> FileAgent | None:
    """One file as a FileAgent, or None with a warning naming it."""
    text = read_source(path, "workspace" if origin == "workspace" else "user", warnings)
    if text is None:
        return None
    header, body = split_frontmatter(text)
    metadata: dict[str, Any] = {}
    problems: list[str] = []
    if header is not None:
        parsed, problem = parse_header(header)
        if parsed is None:
            warnings.append(f"{path}: skipped, {problem}")
            return None
        if problem:
            problems.append(problem)
        metadata = parsed
    if str(metadata.get("kind", "local")).strip().lower() == "remote":
        warnings.append(f"{path}: skipped, remote (A2A) agents are not supported here")
        return None
    if _yes(metadata.get("disable")):
        return None  # opencode's switch: the user turned it off
    body = body.strip()
    description = _text(metadata.get("description"))
    if not body and not description:
        warnings.append(f"{path}: skipped, it has no instructions")
        return None
    stem = next((path.name[: -len(s)] for s in fmt.suffixes if path.name.endswith(s)), path.stem)
    name = _name(metadata.get("name"), stem, fmt, problems)
    for key, why in _NOT_USED.items():
        if key in metadata:
            problems.append(f"`{key}` is not used: {why}")
    grants, mcp = read_tools(fmt, metadata, problems)
    mode = _text(metadata.get("mode")).lower()
    delegable = mode != "primary" and not _yes(metadata.get("disable-model-invocation"))
    delegable = delegable and metadata.get("infer") is not False
    return FileAgent(
        name=f"{prefix}{name}",
        description=description or _first_line(body),
        instructions=body,
        source=str(path),
        origin=origin,
        format=fmt.tool,
        grants=grants,
        mcp=mcp,
        model=_model(metadata.get("model")),
        temperature=_number(metadata.get("temperature"), float, "temperature", problems),
        max_iterations=_number(next((metadata[k] for k in _TURNS if k in metadata), None), int, "max turns", problems),
        delegable=delegable,
        isolation=_isolation(metadata.get("isolation"), problems),
        problems=problems,
    )


def _isolation(value: Any, problems: list[str]) -> str:
    """`worktree`: its own working copy; anything else but nothing is one problem line."""
    if value is None:
        return "shared"
    text = _text(value).lower()
    if text in ("worktree", "shared"):
        return text
    problems.append(f"`isolation: {text[:40]}` is not known (use worktree): it works in the workspace")
    return "shared"


def read_tools(fmt: AgentFormat, metadata: dict[str, Any], problems: list[str]) -> tuple[list[str] | None, list[str]]:
    """(grants, MCP patterns) from `tools` (a comma-separated string, a list, or opencode's map
    of name: on/off), less Claude Code's `disallowedTools` and opencode's `permission` denials.
    No `tools` and nothing denied: (None, []), the default tools."""
    raw = metadata.get("tools")
    mcp: list[str] = []
    if raw is None:
        grants = set(DEFAULT_GRANTS)
    elif isinstance(raw, dict):
        grants, mcp = _switched(fmt, raw, problems)
    else:
        names = raw.split(",") if isinstance(raw, str) else raw if isinstance(raw, list) else None
        if names is None:
            problems.append(
                f"`tools` must be a list or comma-separated names, not {type(raw).__name__}; no tools given"
            )
            names = []
        grants = set()
        for item in names:
            grant, pattern = _one_tool(fmt, str(item), problems)
            grants |= grant
            mcp += pattern
    denied = _denied(fmt, metadata, problems)
    if EDIT in grants and EDIT in denied and READ not in denied:
        grants.add(READ)  # no editing: still reading
    grants -= denied
    if EDIT in grants:
        grants.discard(READ)
    if raw is None and not denied:
        return None, []
    return [g for g in TOOL_SPECS if g in grants], list(dict.fromkeys(mcp))


def _one_tool(fmt: AgentFormat, raw: str, problems: list[str]) -> tuple[set[str], list[str]]:
    name = raw.strip()
    if not name:
        return set(), []
    if "(" in name and name.endswith(")"):  # Claude Code's `Bash(git log:*)`
        problems.append(f"{name}: patterns are not enforced per command; it gets the tool under the session's rules")
        name = name.split("(", 1)[0].strip()
    if name == "*":
        return set(DEFAULT_GRANTS), ["*"]
    known = {**OURS, **fmt.tools}
    base = name.split("/", 1)[0] if fmt.tool == "copilot" and "/" in name else name  # `edit/editFiles`
    if base in known:
        grant = known[base]
        if grant is None:
            problems.append(f"tool {name}: no equivalent here; left out")
            return set(), []
        return (set() if grant == ALWAYS else {grant}), []
    match = fmt.mcp.fullmatch(name)
    if match is not None:
        server, tool = match.group("server"), match.group("tool")
        if server is None:
            return set(), ["*"]
        return set(), [f"{server}__{'*' if tool in (None, '*') else tool}"]
    problems.append(f"unknown tool {name!r}; left out")
    return set(), []


def _switched(fmt: AgentFormat, raw: dict[str, Any], problems: list[str]) -> tuple[set[str], list[str]]:
    """opencode's `tools: {write: false, bash: true}`: every tool on unless switched off; a
    group (edit, write, patch are one file editor) is off when any of its names is."""
    grants, off, mcp = {*DEFAULT_GRANTS, READ}, set(), []
    for name, on in raw.items():
        given, pattern = _one_tool(fmt, str(name), problems)
        if on is False:
            off |= given
        elif on is True:
            grants |= given
            mcp += pattern
        else:
            problems.append(f"tools.{name}: expected true or false, not {on!r}; ignored")
    if EDIT in off and READ not in off:
        grants.add(READ)
    return grants - off, mcp


def _denied(fmt: AgentFormat, metadata: dict[str, Any], problems: list[str]) -> set[str]:
    denied: set[str] = set()
    disallowed = metadata.get("disallowedTools") or metadata.get("disallowed-tools")
    if disallowed is not None:
        names = disallowed.split(",") if isinstance(disallowed, str) else disallowed
        for name in names if isinstance(names, list) else []:
            denied |= _one_tool(fmt, str(name), problems)[0]
    permission = metadata.get("permission")
    if isinstance(permission, dict):
        for key, grant in (("edit", EDIT), ("bash", TERMINAL)):
            value = permission.get(key)
            if value == "deny":
                denied.add(grant)
            elif isinstance(value, dict):
                problems.append(f"permission.{key}: per-command rules are not enforced here; the session's rules apply")
    return denied


def _name(raw: Any, stem: str, fmt: AgentFormat, problems: list[str]) -> str:
    name = _text(raw)
    if fmt.tool == "opencode" or not name:
        return stem  # opencode names an agent by its file
    if _NAME.fullmatch(name):
        return name
    if fmt.tool != "copilot":  # Copilot's `name` is a display name ("Code Reviewer")
        problems.append(f"name {name!r} is no single word; called {stem}")
    return stem


def _model(raw: Any) -> str | None:
    if isinstance(raw, list):  # Copilot's fallbacks: the first
        raw = raw[0] if raw else None
    text = _text(raw)
    return None if not text or text.lower() in ("inherit", "default") else text


def _number(raw: Any, kind: type, label: str, problems: list[str]) -> Any:
    if raw is None:
        return None
    try:
        value = kind(raw)
    except (TypeError, ValueError):
        problems.append(f"{label} {raw!r} is not a number; ignored")
        return None
    return value if value > 0 or kind is float else None


def _yes(raw: Any) -> bool:
    return raw is True or str(raw).strip().lower() in ("true", "yes", "on")


def _text(raw: Any) -> str:
    return " ".join(str(raw).split()) if isinstance(raw, str | int | float) and not isinstance(raw, bool) else ""


def _first_line(body: str) -> str:
    return next((line.strip("# ").strip() for line in body.splitlines() if line.strip()), "")[:200]


def _git_root(workspace: Path) -> Path | None:
    out = run_git(workspace, ["rev-parse", "--show-toplevel"])
    root = out.stdout.decode("utf-8", "replace").strip() if out is not None and out.returncode == 0 else ""
    return Path(root).resolve() if root else None
