"""The `tui` commands that read and report without running an agent: `sessions`, `view`,
`microagents`, `agents`, `hooks`, `risk` and `--describe`. Registered on the `tui` app in cli.py;
like it, cheap to import (the engine is imported inside each command)."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Annotated, Any

import typer

from openhands_tui.cli_usage import check_theme, fail, working_directory


def sessions_command(
    limit: Annotated[int, typer.Option(metavar="N", help="How many to list, newest first (1 or more).")] = 20,
    show_all: Annotated[bool, typer.Option("--all", help="Also list launches that never got a task.")] = False,
) -> None:
    """List stored sessions (newest first) with the ids --resume accepts."""
    from openhands_tui.sdk.errors import OpenHandsTUIError
    from openhands_tui.sdk.facts.store import SessionStore

    if limit < 1:
        raise fail(f"--limit {limit}: give 1 or more")
    try:
        metas = SessionStore().list_sessions()
    except OpenHandsTUIError as exc:  # a state directory that cannot be read
        raise fail(str(exc), exc.exit_code) from None
    shown = [m for m in metas if show_all or m.title][:limit]
    if not shown:
        print("no sessions stored yet")
    for meta in shown:
        print(session_lines(meta))
    untitled = sum(1 for m in metas if not m.title)
    if untitled and not show_all:
        print(f"({untitled} launch(es) that never got a task not shown; --all lists them)")


def session_lines(meta: Any) -> str:
    """A stored session in two lines: id, status, model and title; then where it worked, with
    which strategy, and where it was forked from. Titles and paths come from tasks and folders:
    no escape sequence reaches the terminal."""
    from openhands_tui.sdk.terminal_text import one_line

    home = str(Path.home())
    workspace = meta.workspace
    if workspace == home or workspace.startswith(home + "/"):
        workspace = "~" + workspace[len(home) :]
    strategy = meta.strategy.removeprefix("builtin:")
    strategy = Path(strategy).stem if "/" in strategy else strategy
    fork = f" · forked from {meta.forked_from}" if meta.forked_from else ""
    fork += f" at turn {meta.forked_at}" if meta.forked_from and meta.forked_at else ""
    title = one_line(meta.title) or "(no task yet)"
    first = f"{meta.id}  {meta.status:<9} {one_line(meta.model or '-'):<28} {title}"
    return f"{first}\n    {one_line(workspace)} · {one_line(meta.agent or strategy)}{fork}"


def view_command(
    session: Annotated[str, typer.Argument(metavar="SESSION", help="Session id (or a unique prefix), or 'last'.")],
    theme: Annotated[str | None, typer.Option(metavar="NAME", help="App theme.")] = None,
) -> None:
    """Browse a stored session read-only: its transcripts and agent tree."""
    from openhands_tui.sdk.errors import OpenHandsTUIError

    try:
        if theme is not None:
            check_theme(theme)
        from openhands_tui.interactive import view_session

        code = view_session(session, theme)
    except OpenHandsTUIError as exc:  # the store names `--resume ID`; here it was `view ID`
        raise fail(str(exc).replace(f"--resume {session}:", f"view {session}:", 1), exc.exit_code) from None
    raise typer.Exit(code)


WorkspaceToInspect = Annotated[
    Path | None, typer.Option("--workspace", metavar="DIR", help="The workspace to look in.")
]
JsonForScripts = Annotated[bool, typer.Option("--json", help="Print JSON for scripts.")]


def inspected_workspace(workspace: Path | None) -> Path:
    """`--workspace` (default: here) for a command that reports what a session there would load."""
    root = working_directory(workspace)
    if not root.is_dir():
        raise fail(f"--workspace {workspace}: not a directory")
    return root


def microagents_command(workspace: WorkspaceToInspect = None, json_output: JsonForScripts = False) -> None:
    """List the microagents a session here would load: type, triggers, source, and problems."""
    from openhands_tui.sdk.context.loader import load_microagents
    from openhands_tui.sdk.terminal_text import one_line as shown

    root = inspected_workspace(workspace)
    loaded = load_microagents(root)
    if json_output:
        import json

        info = {
            "microagents": [s.info() for s in loaded.skills],
            "warnings": loaded.warnings,
            "shadowed": loaded.shadowed,
        }
        print(json.dumps(info, indent=2))
        return
    for skill in loaded.skills:
        if skill.mcp_only:
            when = f"MCP tools only: {', '.join(skill.mcp_servers)}"
        elif skill.type == "repo":
            when = "always on"
        else:
            when = ", ".join(skill.triggers)
        if skill.agent_skill:
            when = f"{when}; listed, read on demand" if when else "listed, read on demand"
        cut = " (truncated)" if skill.truncated else ""
        # names, triggers and paths are the repository's words: no escape sequence reaches the terminal
        name, when = shown(skill.name), shown(when)
        if len(name) > 20:  # a long name on its own line keeps the columns under each other
            print(name)
            name = ""
        print(f"{name:<20} {skill.type:<9} {skill.origin:<9} {skill.tokens:>5} tok{cut}  [{when}]")
        print(f"{'':<20} {shown(skill.source)}")
    for problem in loaded.shadowed + loaded.warnings:
        print(f"warning: {shown(problem)}")


def agents_command(workspace: WorkspaceToInspect = None, json_output: JsonForScripts = False) -> None:
    """List the agents from files a session here offers: source, tools, model, and problems."""
    from openhands_tui.sdk.context.agent_files import load_agent_files
    from openhands_tui.sdk.plugin import session_plugins
    from openhands_tui.sdk.terminal_text import one_line as shown

    root = inspected_workspace(workspace)
    plugins = session_plugins(None, root)  # the agents of the plugins a session here uses, as `plugin:name`
    loaded = load_agent_files(root, plugin_dirs=plugins.agent_dirs())
    if json_output:
        import json

        info = {"agents": [a.info() for a in loaded.agents], "warnings": loaded.warnings, "shadowed": loaded.shadowed}
        print(json.dumps(info, indent=2))
        return
    if not loaded.agents:
        print("no agent files: see `tui help skills` (Agents from files) for where they are read from")
    for found in loaded.agents:  # a repository's words: no escape sequence reaches the terminal
        role = "" if found.delegable else " (--agent only)"
        print(f"{shown(found.name)}{role}: {shown(found.description)[:100]}")
        tools = ", ".join(found.tool_names()) or "none"
        default = " (the default)" if found.grants is None else ""
        print(f"    {found.format}, {found.origin}: {shown(found.source)}")
        print(f"    tools: {shown(tools)}{default}; model: {shown(found.model or 'inherit')}")
        for problem in found.problems:
            print(f"    problem: {shown(problem)}")
    for problem in plugins.warnings + loaded.warnings + loaded.shadowed:
        print(f"warning: {shown(problem)}")


def hooks_command(workspace: WorkspaceToInspect = None, json_output: JsonForScripts = False) -> None:
    """List the hooks a session here would run: event, matcher, command, file, and trust."""
    from openhands_tui.sdk.hooks import EVENTS, load_hooks
    from openhands_tui.sdk.terminal_text import one_line as shown

    root = inspected_workspace(workspace)
    loaded = load_hooks(root)
    rows: list[dict[str, Any]] = []
    for source, state in [*((s, "runs") for s in loaded.sources), *((s, "not trusted") for s in loaded.waiting)]:
        for spec in EVENTS:
            for matcher in source.config.matchers(spec.name):
                for hook in matcher.hooks:
                    rows.append(
                        {
                            "event": spec.name,
                            "matcher": matcher.matcher,
                            "hook": hook.label(),
                            "timeout": hook.timeout,
                            "source": source.label,
                            "origin": source.origin,
                            "state": state,
                        }
                    )
    if json_output:
        import json

        print(json.dumps({"hooks": rows, "warnings": loaded.warnings}, indent=2))
        return
    if not rows:
        print("no hooks: see `tui help skills` (Hooks) for where they are read from")
    for row in rows:  # commands and file names are a repository's words: no escape reaches the terminal
        where = "" if row["matcher"] in ("", "*") else f" [{shown(row['matcher'])}]"
        print(f"{row['event']}{where}: {shown(row['hook'])}")
        print(f"    {shown(row['source'])} ({row['origin']}, {row['state']}, timeout {row['timeout']:g} s)")
    if loaded.waiting:
        print("the project's hooks run once you trust them: in the app, or with --trust-project")
    for problem in loaded.warnings:
        print(f"warning: {shown(problem)}")


def risk_command(
    command: Annotated[str | None, typer.Argument(help="The shell command to rate.")] = None,
    json_lines: Annotated[
        bool,
        typer.Option(
            "--json",
            help='Read {"kind": "cmd"|"edit"|"read", "input": ...} lines on stdin; '
            'print one {"risk", "reasons", "rules"} line each (rules: the id behind each reason).',
        ),
    ] = False,
    workspace: Annotated[
        Path | None, typer.Option(metavar="DIR", help="The workspace root paths are judged against.")
    ] = None,
) -> None:
    """Rate an action LOW / MEDIUM / HIGH with the rule-based analyzer, and say why."""
    from openhands_tui.sdk.security.analyzer import assess_case
    from openhands_tui.sdk.security.program_table import ProgramTableError, session_programs

    root = working_directory(workspace)
    if not root.is_dir():
        raise fail(f"--workspace {workspace}: not a directory")
    try:
        programs = session_programs()
    except ProgramTableError as error:
        raise fail(str(error)) from None
    if not json_lines:
        if command is None:
            raise fail('give a command to rate, e.g. tui risk "rm -rf build", or use --json')
        assessment = assess_case("cmd", command, root, programs=programs)
        print(assessment.risk.value)
        for reason, rule in zip(assessment.reasons, assessment.rules, strict=False):
            print(f"  - {reason}  [{rule}]" if rule else f"  - {reason}")
        return
    import json

    failures = 0
    for number, line in enumerate(sys.stdin, start=1):
        if not line.strip():
            continue
        try:
            case = json.loads(line)
            result = assess_case(case["kind"], case["input"], root, programs=programs).model_dump(mode="json")
        except (ValueError, KeyError, TypeError) as exc:
            failures += 1
            detail = f"missing {exc}" if isinstance(exc, KeyError) else str(exc).splitlines()[0]
            result = {"risk": None, "reasons": [], "error": f"line {number}: {detail}"}
        print(json.dumps(result), flush=True)
    if failures:
        raise typer.Exit(2)


def describe_strategy(strategy_spec: str | None, json_output: bool, sandbox_mode: str | None) -> None:
    """`tui --describe`: the strategy's name, description, params and guide, and the sandbox."""
    import json

    from openhands_tui.launch import describe_sandbox, load_strategy_spec
    from openhands_tui.sdk.errors import SettingsError
    from openhands_tui.sdk.settings import sandbox_policy

    loaded = load_strategy_spec(strategy_spec)
    params = [p.model_dump() for p in loaded.strategy.params]
    try:
        sandbox = describe_sandbox(sandbox_policy(sandbox_mode))
    except SettingsError as exc:
        sandbox = f"unavailable: {exc}"
    holds = loaded.plugin.contents() if loaded.plugin is not None else []  # a strategy plugin's other parts
    if json_output:
        info = {
            "name": loaded.name,
            "description": loaded.description,
            "params": params,
            "guide": loaded.guide,
            "sandbox": sandbox,
            "plugin": {"name": loaded.plugin.name, "holds": holds} if loaded.plugin is not None else None,
        }
        print(json.dumps(info, indent=2))
        return
    print(f"{loaded.name}: {loaded.description}")
    print(f"source: {loaded.source}")
    if loaded.plugin is not None:
        print(f"plugin: {loaded.plugin.name} ({loaded.plugin.root})")
        for line in holds:
            print(f"  {line}")
    print(f"sandbox: {sandbox}")
    if not params:
        print("params: none")
    for p in params:
        print(f"  --param {p['name']}=<{p['type']}>  default: {p['default']!r}  {p['description']}")
    if loaded.guide:
        print("\n" + loaded.guide)
