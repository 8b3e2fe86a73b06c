"""The `tui` command. Importing this module must stay cheap: `tui --help` is a start-up path,
so the engine, litellm and textual are imported only inside the commands that need them."""

from __future__ import annotations

import signal
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Annotated


def _interrupted_while_starting(signum: int, frame: object) -> None:
    raise SystemExit(130)


if Path(sys.argv[0]).name in ("tui", "__main__.py"):  # run as the program, not imported by a test
    signal.signal(signal.SIGINT, _interrupted_while_starting)  # Ctrl-C during the imports: no traceback

import typer  # noqa: E402 - after the handler above: importing takes a moment worth interrupting

from openhands_tui import __version__  # noqa: E402
from openhands_tui.cli_acp import acp_command  # noqa: E402
from openhands_tui.cli_export import export_command  # noqa: E402
from openhands_tui.cli_help import help_command  # noqa: E402
from openhands_tui.cli_inspect import (  # noqa: E402
    agents_command,
    describe_strategy,
    hooks_command,
    microagents_command,
    risk_command,
    sessions_command,
    view_command,
)
from openhands_tui.cli_mcp import mcp_app  # noqa: E402
from openhands_tui.cli_plugin import plugin_app  # noqa: E402
from openhands_tui.cli_rewind import rewind_command  # noqa: E402
from openhands_tui.cli_usage import (  # noqa: E402
    HELP_EPILOG,
    ExportCommand,
    SandboxChoice,
    ViewCommand,
    check_theme,
    fail,
    usage_line,
)
from openhands_tui.interrupts import interrupted, raise_on_interrupt  # noqa: E402
from openhands_tui.sdk.facts.risk import Risk  # noqa: E402
from openhands_tui.sdk.llm.reasoning import ReasoningEffort  # noqa: E402
from openhands_tui.sdk.run.confirmation_mode import ConfirmationMode  # noqa: E402
from openhands_tui.standard_streams import lost_output, make_standard_streams_safe  # noqa: E402
from openhands_tui.startup import collector_paused  # noqa: E402
from openhands_tui.task_text import task_text  # noqa: E402

if TYPE_CHECKING:
    from openhands_tui.launch_options import LaunchOptions


app = typer.Typer(
    add_completion=False,
    rich_markup_mode=None,
    pretty_exceptions_enable=False,
    context_settings={"help_option_names": ["-h", "--help"]},
    help=(
        "A terminal coding assistant. Loads a strategy (a Python file that builds the agent), "
        "runs it on your task, and asks you before risky actions. Exit codes: 0 finished, "
        "1 error, 2 bad usage or input, 3 limit reached or stuck, 130 interrupted."
    ),
    epilog=HELP_EPILOG,
)
app.add_typer(mcp_app, name="mcp")  # `tui mcp list|add|remove|get` (cli_mcp.py)
app.add_typer(plugin_app, name="plugin")  # `tui plugin add|list|remove|update` (cli_plugin.py)


def _version(value: bool) -> None:
    if value:
        print(f"openhands-tui {__version__}")
        raise typer.Exit(0)


@app.callback(invoke_without_command=True)
def main_command(
    ctx: typer.Context,
    strategy: Annotated[
        str | None,
        typer.Option(
            metavar="FILE",
            help="Strategy file (FILE.py or FILE.py:ClassName). Default: the built-in solo agent.",
        ),
    ] = None,
    param: Annotated[
        list[str] | None,
        typer.Option("--param", "-p", metavar="NAME=VALUE", help="Strategy parameter as name=value (repeatable)."),
    ] = None,
    task: Annotated[
        str | None,
        typer.Option(
            "--task", "-t", metavar="TEXT", help="The task to start with (/name runs a task microagent; - reads stdin)."
        ),
    ] = None,
    task_file: Annotated[
        Path | None,
        typer.Option("--task-file", metavar="PATH", help="Read the task from a file (for tasks too long for a flag)."),
    ] = None,
    task_input: Annotated[
        list[str] | None,
        typer.Option("--input", "-i", metavar="NAME=VALUE", help="An input of a /name task microagent (repeatable)."),
    ] = None,
    image: Annotated[
        list[Path] | None,
        typer.Option(
            "--image",
            metavar="FILE",
            help="With --headless: an image sent with --task (PNG, JPEG, GIF, WebP; repeatable).",
        ),
    ] = None,
    model: Annotated[
        str | None,
        typer.Option(metavar="MODEL", help="litellm model name, e.g. anthropic/claude-sonnet-4-5 (env LLM_MODEL)."),
    ] = None,
    base_url: Annotated[
        str | None,
        typer.Option(metavar="URL", help="Base URL of an OpenAI-compatible endpoint (env LLM_BASE_URL)."),
    ] = None,
    api_key: Annotated[
        str | None, typer.Option(metavar="KEY", help="API key for the model (env LLM_API_KEY; never stored).")
    ] = None,
    reasoning_effort: Annotated[
        ReasoningEffort | None,
        typer.Option(
            help="How much the model thinks first (Claude extended thinking, OpenAI reasoning effort, "
            "Gemini thinking); env LLM_REASONING_EFFORT. Default: off."
        ),
    ] = None,
    workspace: Annotated[
        Path | None,
        typer.Option(metavar="DIR", help="Directory the agents work in. Default: the current directory."),
    ] = None,
    workspace_is_home: Annotated[
        bool,
        typer.Option(
            "--workspace-is-home",
            help="Allow the workspace to be your home directory, / or a folder above home (refused otherwise); "
            "shell start-up files and ~/.local/bin stay read-only to commands even then.",
        ),
    ] = False,
    headless: Annotated[bool, typer.Option("--headless", help="Run without the interactive app.")] = False,
    json_output: Annotated[
        bool, typer.Option("--json", help="Headless: print one JSON event per line instead of a transcript.")
    ] = False,
    confirm: Annotated[
        ConfirmationMode,
        typer.Option(
            help="When to ask before an action: always (anything that changes state), risky (HIGH risk), never."
        ),
    ] = ConfirmationMode.RISKY,
    sandbox: Annotated[
        SandboxChoice | None,
        typer.Option(
            help="Confine commands: workspace-write (default: only the workspace is writable, no network), "
            "read-only, or off (unconfined). Default from [sandbox] in the config file."
        ),
    ] = None,
    executor: Annotated[
        str | None,
        typer.Option(
            metavar="local|agent-server:URL",
            help="Where agents' commands and edits run: here (default), or a running OpenHands agent-server "
            "(--workspace is then a folder on the server; key from TUI_AGENT_SERVER_KEY or SESSION_API_KEY).",
        ),
    ] = None,
    trust_project: Annotated[
        bool,
        typer.Option(
            "--trust-project",
            help="Use the project's own allow rules (.openhands-tui/permissions.toml) without asking.",
        ),
    ] = False,
    risk_threshold: Annotated[
        Risk,
        typer.Option(help="With --confirm risky: the lowest risk that is asked about."),
    ] = Risk.HIGH,
    resume: Annotated[
        str | None,
        typer.Option(metavar="ID|last", help="Continue a stored session: its id (or a unique prefix), or 'last'."),
    ] = None,
    plan: Annotated[
        bool,
        typer.Option(
            "--plan",
            help="Plan mode: the agent only reads (commands in a read-only sandbox) and ends with a plan; "
            "headless prints it and how to carry it out.",
        ),
    ] = False,
    approve_plan: Annotated[
        bool,
        typer.Option("--approve-plan", help="With --resume: carry out the session's last plan (--task adds a note)."),
    ] = False,
    fork: Annotated[
        bool,
        typer.Option("--fork", help="With --resume: continue in a new session, a copy of that one's history."),
    ] = False,
    fork_at: Annotated[
        int | None,
        typer.Option("--at", min=1, metavar="TURN", help="With --fork: copy the history up to before this turn."),
    ] = None,
    recover: Annotated[
        bool,
        typer.Option(
            "--recover",
            help="With --resume: go on from a log damaged in the middle, up to the damage (the damaged log is kept).",
        ),
    ] = False,
    no_checkpoints: Annotated[
        bool,
        typer.Option(
            "--no-checkpoints",
            help="Keep no checkpoints of the workspace's files (`tui rewind` can then not restore them).",
        ),
    ] = False,
    max_iterations: Annotated[
        int | None,
        typer.Option(min=1, metavar="N", help="Most model calls for the whole run, all agents together."),
    ] = None,
    demo: Annotated[
        bool,
        typer.Option("--demo", help="Run against a built-in scripted model in a temporary workspace (no key)."),
    ] = False,
    max_budget: Annotated[
        float | None,
        typer.Option(min=0, metavar="USD", help="Most dollars of model calls for the whole run (priced models)."),
    ] = None,
    theme: Annotated[
        str | None, typer.Option(metavar="NAME", help="App theme (openhands-dark, openhands-light, ...).")
    ] = None,
    agent: Annotated[
        str | None,
        typer.Option(metavar="NAME", help="Run an agent file's agent as the root agent (see `tui agents`)."),
    ] = None,
    describe: Annotated[
        bool, typer.Option("--describe", help="Print the strategy's name, description and params, then exit.")
    ] = False,
    version: Annotated[
        bool | None,
        typer.Option("--version", callback=_version, is_eager=True, help="Print the version and exit."),
    ] = None,
) -> None:
    if ctx.invoked_subcommand is not None:
        return
    from openhands_tui.sdk.errors import OpenHandsTUIError

    try:
        if theme is not None:
            check_theme(theme)
        if describe:
            describe_strategy(strategy, json_output, sandbox.value if sandbox is not None else None)
            return
        from openhands_tui.launch_options import LaunchOptions

        options = LaunchOptions(
            strategy=strategy,
            params=param or [],
            task=task_text(task, task_file),
            model=model,
            base_url=base_url,
            api_key=api_key,
            reasoning_effort=reasoning_effort,
            workspace=workspace,
            confirm=confirm,
            risk_threshold=risk_threshold,
            resume=resume,
            max_iterations=max_iterations,
            max_budget=max_budget,
            inputs=task_input or [],
            sandbox=sandbox.value if sandbox is not None else None,
            trust_project=trust_project,
            workspace_is_home=workspace_is_home,
            plan=True if plan else None,
            approve_plan=approve_plan,
            agent=agent,
            fork=fork,
            fork_at=fork_at,
            recover=recover,
            checkpoints=not no_checkpoints,
            images=image or [],
            executor=executor,
        )
        if image and not headless:
            raise fail("--image goes with --headless (in the app, type or drop the image's path into the prompt)")
        if image and not options.task:
            raise fail("--image is sent with a task: add --task")
        if (fork or fork_at is not None) and not resume:
            raise fail("--fork copies a stored session: use it with --resume ID")
        if recover and not resume:
            raise fail("--recover mends a stored session's log: use it with --resume ID")
        if fork_at is not None and not fork:
            raise fail("--at TURN says where a --fork begins: add --fork")
        if approve_plan and (plan or not resume or not headless):
            raise fail(
                "--approve-plan carries out a headless --plan session's plan: use it with --resume ID --headless"
            )
        if not headless and not (sys.stdin.isatty() and sys.stdout.isatty()):
            raise fail("the app needs a terminal (standard input or output is not one); use --headless")
        if demo:
            code = _run_demo(options, json_output, headless, theme)
        elif not headless:
            with collector_paused():
                from openhands_tui.interactive import run_app

            code = run_app(options, theme=theme)
        elif not options.task and not resume:
            raise fail("--headless needs --task or --task-file (or --resume to continue a session)")
        else:
            with collector_paused():
                from openhands_tui.headless import run_headless

            code = run_headless(options, json_output=json_output)
    except OpenHandsTUIError as exc:
        if interrupted():  # what failed was stopped by the user's Ctrl-C: not an error to report
            raise typer.Exit(130) from None
        raise fail(str(exc), exc.exit_code) from None
    raise typer.Exit(code)


def _run_demo(options: LaunchOptions, json_output: bool, headless: bool, theme: str | None) -> int:
    from openhands_tui.demo import (
        DEMO_MODEL,
        DEMO_STRATEGY,
        DEMO_TASK,
        demo_workspace,
        remove_demo_workspace,
        start_demo_server,
    )

    server = start_demo_server()
    own_workspace = options.workspace is None
    try:
        options.model, options.base_url, options.api_key = DEMO_MODEL, server.base_url, "demo-key"
        options.strategy = options.strategy or DEMO_STRATEGY
        options.workspace = options.workspace or demo_workspace()
        if not options.resume:
            options.task = options.task or DEMO_TASK
        if not headless:
            with collector_paused():
                from openhands_tui.interactive import run_app

            return run_app(options, theme=theme, demo=True)
        with collector_paused():
            from openhands_tui.headless import run_headless

        print(f"DEMO · scripted model, no API key used · workspace {options.workspace}", file=sys.stderr)
        return run_headless(options, json_output=json_output)
    finally:
        server.stop()
        if own_workspace and options.workspace is not None:
            remove_demo_workspace(options.workspace)


app.command(
    "acp",
    short_help="Serve editors over the Agent Client Protocol (Zed, JetBrains, Toad...): JSON-RPC on stdio.",
)(acp_command)
app.command("sessions", short_help="List stored sessions (newest first) with the ids --resume accepts.")(
    sessions_command
)
app.command("view", cls=ViewCommand, short_help="Browse a stored session read-only: its transcripts and agent tree.")(
    view_command
)
app.command(
    "export",
    cls=ExportCommand,
    short_help="Write a stored session, every agent of it, as Markdown, HTML or JSON (secrets redacted).",
)(export_command)
app.command(
    "microagents",
    short_help="List the microagents a session here would load: type, triggers, source, and problems.",
)(microagents_command)
app.command("agents", short_help="List the agents from files a session here offers: source, tools, model, problems.")(
    agents_command
)
app.command("hooks", short_help="List the hooks a session here would run: event, matcher, command, file, and trust.")(
    hooks_command
)
app.command("risk", short_help="Rate an action LOW / MEDIUM / HIGH with the rule-based analyzer, and say why.")(
    risk_command
)
app.command("help", short_help="Topic pages: safety, configuration, strategies... (no topic: the list).")(help_command)
app.command("rewind", short_help="List a session's turns, or rewind it to before one: files, conversation or both.")(
    rewind_command
)


@app.command("warm")
def warm_command(
    stop: Annotated[bool, typer.Option("--stop", help="Stop the warm server for this environment.")] = False,
    idle: Annotated[float, typer.Option(metavar="MINUTES", help="Exit after this long without a run.")] = 30.0,
    serve: Annotated[bool, typer.Option("--serve", hidden=True)] = False,
    socket: Annotated[str | None, typer.Option("--socket", hidden=True)] = None,
) -> None:
    """Keep a process with litellm and the app loaded, so later runs start in milliseconds.

    Runs use it only with the same installation and environment; OPENHANDS_TUI_COLD=1 skips it.
    """
    from openhands_tui.warm import launcher

    if serve:
        from openhands_tui.warm.server import serve as serve_runs

        serve_runs(main, WARM_PRELOAD, idle * 60, expected_socket=socket)
        return
    try:
        print(launcher.stop() if stop else launcher.start(idle))
    except RuntimeError as exc:
        raise fail(str(exc), 1) from None


#: What a run imports; the warm server imports it once for all of them.
WARM_PRELOAD = ("openhands_tui.launch", "openhands_tui.headless", "openhands_tui.interactive", "openhands_tui.tui.app")


def main(argv: list[str] | None = None) -> int:
    """Run `tui`; bad usage is one line naming the flag (and what it accepts), exit 2, not
    Click's usage block; Ctrl-C is a quiet exit 130, whatever a library made of it."""
    from typer._click.exceptions import UsageError  # Typer's own Click

    raise_on_interrupt()  # from here on Ctrl-C is KeyboardInterrupt
    make_standard_streams_safe()
    arguments = sys.argv[1:] if argv is None else argv
    for position, argument in enumerate(arguments):
        try:
            argument.encode("utf-8")
        except UnicodeEncodeError:  # bytes the locale could not decode: nothing downstream can store them
            before = arguments[position - 1] if position else ""
            flag = before if before.startswith("-") else "argument"
            print(f"tui: {flag} {argument.encode('utf-8', 'replace').decode()}: not UTF-8 text", file=sys.stderr)
            return 2
    try:
        code = app(args=argv, prog_name="tui", standalone_mode=False)
    except UsageError as exc:
        print(f"tui: {usage_line(exc)}", file=sys.stderr)
        return 2
    except (typer.Abort, KeyboardInterrupt):  # ctrl+c at a prompt, or before Click's own handling
        return 130
    except Exception:
        if interrupted():
            return 130
        raise
    code = code if isinstance(code, int) else 0
    lost = lost_output()
    if lost is not None:  # `tui sessions > list.txt` on a full disk: not a silent exit 0
        print(f"tui: standard output: cannot write ({lost})", file=sys.stderr)
        return code or 1
    return code
