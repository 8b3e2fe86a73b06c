"""`tui help [TOPIC]`: the topic pages (openhands_tui/help/*.md) on the terminal. Registered on
the `tui` app in cli.py; cheap to import (the pages and rich are loaded inside the command)."""

from __future__ import annotations

import sys
from typing import Annotated

import typer

from openhands_tui.cli_usage import fail


def help_command(
    topic: Annotated[
        str | None, typer.Argument(metavar="TOPIC", help="A topic (safety, configuration, ...); none: the list.")
    ] = None,
) -> None:
    """Show a topic page (plain Markdown when piped), or list the topics."""
    from openhands_tui import help as pages

    known = pages.topics()
    if topic is None:
        width = max(map(len, known))
        print("Topics (tui help TOPIC; /help TOPIC in the app):")
        for name, line in known.items():
            print(f"  {name:<{width}}  {line}")
        return
    text = pages.page(topic)
    if text is None:
        raise fail(f"help: no topic {topic!r}; topics: {', '.join(known)}")
    if sys.stdout.isatty():
        from rich.console import Console
        from rich.markdown import Markdown

        Console().print(Markdown(text))
    else:
        sys.stdout.write(text)
