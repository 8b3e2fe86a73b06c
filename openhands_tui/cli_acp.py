"""`tui acp`: serve editors over the Agent Client Protocol (registered on the `tui` app in
cli.py). Cheap to import: the protocol package and the engine load only when it runs."""

from __future__ import annotations

from typing import Annotated

import typer

from openhands_tui.cli_usage import ApiKeyFlag, BaseUrlFlag, ModelFlag, ParamFlags, SandboxFlag, fail
from openhands_tui.sdk.run.confirmation_mode import ConfirmationMode


def acp_command(
    strategy: Annotated[
        str | None, typer.Option(metavar="FILE", help="Strategy file (default: the solo agent).")
    ] = None,
    param: ParamFlags = None,
    model: ModelFlag = None,
    base_url: BaseUrlFlag = None,
    api_key: ApiKeyFlag = None,
    confirm: Annotated[
        ConfirmationMode,
        typer.Option(help="When to ask: always, risky (HIGH risk), never; the editor can switch."),
    ] = ConfirmationMode.RISKY,
    sandbox: SandboxFlag = None,
    trust_project: Annotated[
        bool, typer.Option("--trust-project", help="Use each project's own allow rules without asking.")
    ] = False,
) -> None:
    """Serve editors over the Agent Client Protocol (Zed, JetBrains, Toad...): JSON-RPC on stdio."""
    import asyncio

    from openhands_tui.sdk.errors import OpenHandsTUIError

    _check_streams()
    try:
        from openhands_tui.acp.agent import serve
        from openhands_tui.launch import LaunchOptions, load_strategy_spec

        load_strategy_spec(strategy)  # a broken strategy is one line now, not a failed session later
        options = LaunchOptions(
            strategy=strategy,
            params=param or [],
            model=model,
            base_url=base_url,
            api_key=api_key,
            confirm=confirm,
            sandbox=sandbox.value if sandbox is not None else None,
            trust_project=trust_project,
        )
        asyncio.run(serve(options))
    except OpenHandsTUIError as exc:
        raise fail(str(exc), exc.exit_code) from None
    except KeyboardInterrupt:
        raise typer.Exit(130) from None


def _check_streams() -> None:
    """JSON-RPC is read and written through asyncio's pipe transports: a regular file
    (`tui acp < requests.jsonl > replies.jsonl`) was a ValueError traceback, and /dev/null, which
    epoll refuses, a traceback and then a wait for ever. Pipes, sockets and terminals work."""
    import os
    import stat

    for fd, name in ((0, "standard input"), (1, "standard output")):
        mode = os.fstat(fd).st_mode
        if not (stat.S_ISFIFO(mode) or stat.S_ISSOCK(mode) or os.isatty(fd)):
            raise fail(f"acp: {name} is not a pipe or a terminal; editors run tui acp with pipes (JSON-RPC on stdio)")
