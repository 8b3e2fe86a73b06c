"""`tui export SESSION`: a stored session, its root agent and every sub-agent, written out as
Markdown (the default), one self-contained HTML page, or JSON; to standard output, or whole to
`--output FILE`. Registered on the `tui` app in cli.py; cheap to import like it (the reading and
rendering, in `openhands_tui/export/`, is imported inside the command)."""

from __future__ import annotations

import sys
from enum import StrEnum
from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer

from openhands_tui.cli_usage import fail

if TYPE_CHECKING:
    from openhands_tui.export.model import SessionExport


class ExportFormat(StrEnum):
    md = "md"
    html = "html"
    json = "json"


def export_command(
    session: Annotated[str, typer.Argument(metavar="SESSION", help="Session id (or a unique prefix), or 'last'.")],
    export_format: Annotated[
        ExportFormat,
        typer.Option("--format", "-f", help="md (Markdown), html (one page, no script), or json (for scripts)."),
    ] = ExportFormat.md,
    output: Annotated[
        Path | None,
        typer.Option("--output", "-o", metavar="FILE", help="Write it to FILE (whole or not at all). Default: stdout."),
    ] = None,
) -> None:
    """Write a stored session out, every agent of it, with secrets redacted: Markdown, HTML or JSON."""
    from openhands_tui.export.collect import collect
    from openhands_tui.export.output import OutputError, write_whole
    from openhands_tui.export.redaction import export_redactor
    from openhands_tui.sdk.errors import OpenHandsTUIError
    from openhands_tui.sdk.facts.store import SessionStore
    from openhands_tui.sdk.terminal_text import one_line

    store = SessionStore()
    if output is not None and _inside(output, store.root):
        raise fail(f"--output {one_line(str(output))}: that is in the session store; write the export elsewhere")
    try:
        log = store.open(session)
        loaded = log.load(repair=False)  # another tui may be writing it: read, never truncate
    except OpenHandsTUIError as exc:  # the store names `--resume ID`; here it was `export ID`
        raise fail(str(exc).replace(f"--resume {session}:", f"export {session}:", 1), exc.exit_code) from None
    for warning in loaded.warnings:
        print(f"warning: {one_line(warning)}", file=sys.stderr)
    exported = collect(log.meta, loaded.events, export_redactor(log.meta.workspace), loaded.warnings)
    text = _render(export_format, exported)
    if output is None:
        sys.stdout.write(text)  # a stdout that cannot take it is reported by `cli.main`
        return
    try:
        write_whole(output, text)
    except OutputError as exc:
        raise fail(one_line(str(exc)), exc.exit_code) from None
    agents = len(exported.agents)
    print(f"wrote {one_line(str(output))}: session {log.id} as {export_format}, {agents} agent(s)")


def _inside(output: Path, root: Path) -> bool:
    """Whether `output` lies among the stored sessions, where replacing a file could replace a
    session's own log or metadata with its export."""
    try:
        return output.resolve().is_relative_to(root.resolve())
    except (OSError, RuntimeError):  # a link loop: creating the file will say what is wrong
        return False


def _render(export_format: ExportFormat, exported: SessionExport) -> str:
    if export_format is ExportFormat.html:
        from openhands_tui.export.html_page import render_html

        return render_html(exported)
    if export_format is ExportFormat.json:
        from openhands_tui.export.json_export import render_json

        return render_json(exported)
    from openhands_tui.export.markdown import render_markdown

    return render_markdown(exported)
