"""`tui mcp serve`: run our agent as an MCP server on stdio (registered on `tui mcp` in
cli_mcp.py). Cheap to import: the SDK and the engine load only when it runs."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Annotated

import typer

from openhands_tui.cli_usage import ApiKeyFlag, BaseUrlFlag, ModelFlag, ParamFlags, SandboxFlag, fail
from openhands_tui.sdk.run.confirmation_mode import ConfirmationMode


def serve_command(
    strategy: Annotated[
        list[str] | None,
        typer.Option(
            metavar="[NAME=]SPEC",
            help="A strategy clients may choose (repeatable; the first is the default; shipped ones always are).",
        ),
    ] = None,
    param: ParamFlags = None,
    model: ModelFlag = None,
    base_url: BaseUrlFlag = None,
    api_key: ApiKeyFlag = None,
    confirm: Annotated[
        ConfirmationMode,
        typer.Option(help="When to ask: always, risky (HIGH risk), never. Asked through the client (elicitation)."),
    ] = ConfirmationMode.RISKY,
    sandbox: SandboxFlag = None,
    workspace: Annotated[
        Path | None, typer.Option(metavar="DIR", help="The project tasks run in (default: the current directory).")
    ] = None,
) -> None:
    """Serve our agent to another agent over MCP (stdio): tools run_task and continue_session."""
    import asyncio

    from openhands_tui.cli_usage import working_directory
    from openhands_tui.sdk.errors import OpenHandsTUIError

    root = working_directory(workspace, lambda message: fail(f"mcp serve: {message}"))
    if not root.is_dir():
        raise fail(f"mcp serve: --workspace {workspace}: not a directory")
    try:
        from openhands_tui.launch import LaunchOptions, load_strategy_spec
        from openhands_tui.mcp_serve.server import ServeOptions, serve

        named = _named(strategy or [])
        for spec in named.values():
            if spec != "solo":
                load_strategy_spec(spec)  # a broken strategy is one line now, not a failed call later
        default = next(iter(named), None)
        options = LaunchOptions(
            strategy=named[default] if default is not None and named[default] != "solo" else None,
            params=param or [],
            model=model,
            base_url=base_url,
            api_key=api_key,
            confirm=confirm,
            sandbox=sandbox.value if sandbox is not None else None,
            workspace=root.resolve(),
        )
        asyncio.run(serve(ServeOptions(launch=options, strategies=named)))
    except OpenHandsTUIError as exc:
        raise fail(str(exc), exc.exit_code) from None
    except KeyboardInterrupt:
        raise typer.Exit(130) from None


def _named(specs: list[str]) -> dict[str, str]:
    """`NAME=SPEC` or `SPEC` (named by its file's stem) -> {name: spec}; a bad one exits 2."""
    named: dict[str, str] = {}
    for item in specs:
        name, sep, spec = item.partition("=")
        if not sep:
            name, spec = Path(item).stem or item, item
        if not re.fullmatch(r"[A-Za-z][\w-]{0,63}", name) or not spec:
            raise fail(f"mcp serve: --strategy {item!r}: expected NAME=SPEC or a strategy file")
        path = Path(spec).expanduser()
        named[name] = str(path.resolve()) if path.exists() else spec  # the same file whatever the cwd later
    return named
