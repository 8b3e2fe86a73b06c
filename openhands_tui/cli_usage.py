"""How `tui` speaks about its own usage: the examples and settings under `--help`, bad usage as
one line naming the flag (Typer's own is a four-line usage block), the `view` and `export` usage
lines, and the check of `--theme`. Cheap to import: `tui --help` is a start-up path."""

from __future__ import annotations

import sys
from collections.abc import Callable
from enum import StrEnum
from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer

if TYPE_CHECKING:
    from typer._click.exceptions import UsageError

#: Shown under `tui --help`: how people actually start, and where settings come from.
HELP_EPILOG = """\b
Examples:
  tui --demo                                  try it: scripted model, no key, temporary workspace
  tui --model anthropic/claude-sonnet-4-5     the app, in the current directory
  tui --headless -t "fix the failing test"    one task, transcript on stdout
  tui --resume last                           continue the newest session
  tui view last                               read a stored session
\b
Settings: $XDG_CONFIG_HOME/openhands-tui/config.toml (default ~/.config/openhands-tui/config.toml),
written by the app's first-run dialog. The environment overrides it: LLM_MODEL, LLM_API_KEY,
LLM_BASE_URL, LLM_REASONING_EFFORT, and LLM_TIMEOUT, LLM_NUM_RETRIES, LLM_RETRY_MIN_WAIT,
LLM_RETRY_MAX_WAIT, LLM_CONTEXT_WINDOW.
\b
More: tui help lists the topic pages (tui help configuration, tui help safety, ...).
"""


def fail(message: str, code: int = 2) -> typer.Exit:
    """Say what is wrong in one line on stderr; the caller raises the returned exit."""
    print(f"tui: {message}", file=sys.stderr)
    return typer.Exit(code)


def working_directory(workspace: Path | None, fail_with: Callable[[str], typer.Exit] = fail) -> Path:
    """`--workspace` (default: the current directory), resolved. A current directory deleted under
    the shell that started tui made `Path.cwd()` raise: a FileNotFoundError traceback."""
    try:
        return (workspace or Path.cwd()).expanduser().resolve()
    except OSError:
        raise fail_with("the current directory no longer exists; pass --workspace DIR") from None


# -- the values flags accept ---------------------------------------------------------------
# --risk-threshold, --confirm and --reasoning-effort take the engine's own lists (Risk,
# ConfirmationMode, ReasoningEffort), each in a module that imports only the standard library.


class SandboxChoice(StrEnum):
    read_only = "read-only"
    workspace_write = "workspace-write"
    off = "off"


class ViewCommand(typer.core.TyperCommand):
    """Usage reads `tui view SESSION [--theme NAME]`, as people type it."""

    def collect_usage_pieces(self, ctx: typer.Context) -> list[str]:  # type: ignore[override]
        return ["SESSION", "[--theme NAME]"]


class ExportCommand(typer.core.TyperCommand):
    """Usage reads `tui export SESSION [--format md|html|json] [--output FILE]`."""

    def collect_usage_pieces(self, ctx: typer.Context) -> list[str]:  # type: ignore[override]
        return ["SESSION", "[--format md|html|json]", "[--output FILE]"]


def check_theme(theme: str) -> None:
    """`--theme nosuch` is refused up front, with the names that would work."""
    from openhands_tui.sdk.errors import SettingsError
    from openhands_tui.tui.themes import theme_names

    names = theme_names()
    if theme not in names:
        raise SettingsError(f"--theme {theme}: unknown theme (have: {', '.join(names)})")


#: Typer checks values with pydantic; its phrases, said plainly.
PLAIN_WORDS = {
    "Value error, ": "",
    "Input should be greater than or equal to ": "must be at least ",
    "Input should be a valid integer, unable to parse string as an integer": "not a whole number",
    "Input should be a valid number, unable to parse string as a number": "not a number",
}


def usage_line(exc: UsageError) -> str:
    """One line for a usage error: the command, what was wrong, and where to read more."""
    from typer._click.exceptions import BadParameter

    command = exc.ctx.command_path.removeprefix("tui").strip() if exc.ctx is not None else ""
    message = exc.format_message()
    for pydantic_words, plain in PLAIN_WORDS.items():
        message = message.replace(pydantic_words, plain)
    message = " ".join(message.split())
    if not isinstance(exc, BadParameter):  # an unknown option or command, a stray argument
        message += f" (see tui {command + ' ' if command else ''}--help)"
    return f"{command}: {message}" if command else message


# -- the model flags the front ends for other programs share (`tui acp`, `tui mcp serve`) -------

ParamFlags = Annotated[
    list[str] | None, typer.Option("--param", "-p", metavar="NAME=VALUE", help="Strategy parameter (repeatable).")
]
ModelFlag = Annotated[str | None, typer.Option(metavar="MODEL", help="litellm model name (env LLM_MODEL).")]
BaseUrlFlag = Annotated[str | None, typer.Option(metavar="URL", help="Base URL (env LLM_BASE_URL).")]
ApiKeyFlag = Annotated[str | None, typer.Option(metavar="KEY", help="API key (env LLM_API_KEY).")]
SandboxFlag = Annotated[
    SandboxChoice | None, typer.Option(help="Confine commands: workspace-write (default), read-only, off.")
]
