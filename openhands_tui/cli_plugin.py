"""`tui plugin add|list|remove|update`: plugins every session uses.

`add SOURCE [NAME...]` takes a folder or a git URL holding a plugin (a strategy plugin, or a
Claude Code plugin) or a marketplace (`.claude-plugin/marketplace.json`: name the plugins to
install). Before installing it says what the plugin holds — its hooks and MCP servers are
programs that will run as you — and asks; `--yes` answers for a script that has reviewed it.
A git source is installed at one commit (`--ref` picks a branch, tag or commit); `update`
fetches it again and asks again. Bad input is one line naming it, exit 2; a failure on the
way (git, a full disk) exit 1. Only typer is imported up front: `tui --help` stays fast.
"""

from __future__ import annotations

import json
import re
import sys
import tempfile
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any

import typer

if TYPE_CHECKING:
    from openhands_tui.sdk.plugin.folder import PluginFolder

plugin_app = typer.Typer(
    add_completion=False,
    rich_markup_mode=None,
    pretty_exceptions_enable=False,
    no_args_is_help=True,
    context_settings={"help_option_names": ["-h", "--help"]},
    help="Plugins every session uses (skills, commands, agents, hooks, MCP servers, a strategy): "
    "add, list, remove, update.",
)

_SHA = re.compile(r"[0-9a-f]{7,40}")
Yes = Annotated[bool, typer.Option("--yes", "-y", help="Install without asking (you reviewed what it holds).")]


def _fail(message: str, code: int = 2) -> typer.Exit:
    print(f"tui plugin: {message}", file=sys.stderr)
    return typer.Exit(code)


def _shown(text: str) -> str:
    from openhands_tui.sdk.terminal_text import one_line

    return one_line(text)


@plugin_app.command("add")
def add_command(
    source: Annotated[str, typer.Argument(help="A plugin or marketplace folder, or a git URL.")],
    names: Annotated[list[str] | None, typer.Argument(metavar="[NAME]...", help="Plugins of a marketplace.")] = None,
    ref: Annotated[str | None, typer.Option(metavar="REF", help="A git branch, tag or commit.")] = None,
    yes: Yes = False,
) -> None:
    """Install a plugin (or plugins of a marketplace) after showing what it holds."""
    _install(source, names or [], ref, yes)


@plugin_app.command("update")
def update_command(
    name: Annotated[str | None, typer.Argument(help="The plugin (default: every installed one).")] = None,
    yes: Yes = False,
) -> None:
    """Fetch an installed plugin's source again (the newest commit of a git source) and reinstall it."""
    from openhands_tui.sdk.plugin.installed import installed_plugins

    chosen = [p for p in installed_plugins() if name is None or p.name == name]
    if not chosen:
        raise _fail(f"{name}: no such installed plugin" if name else "no plugins installed")
    for plugin in chosen:  # a branch or tag moves on to its newest commit; a pinned commit to the default branch's
        source, _, listed = plugin.source.partition("#")
        moving = plugin.ref if plugin.ref and not _SHA.fullmatch(plugin.ref) else None
        _install(source, [listed] if listed else [], moving, yes)


@plugin_app.command("list")
def list_command(json_output: Annotated[bool, typer.Option("--json", help="Print JSON.")] = False) -> None:
    """The installed plugins: name, source, commit, and what each holds."""
    from openhands_tui.sdk.plugin.folder import PluginError
    from openhands_tui.sdk.plugin.installed import installed_plugins

    warnings: list[str] = []
    rows: list[dict[str, Any]] = []
    for plugin in installed_plugins(warnings):
        try:
            holds = plugin.folder().contents()
        except PluginError as exc:
            holds, warnings = [], [*warnings, str(exc)]
        rows.append({"name": plugin.name, "source": plugin.source, "commit": plugin.commit, "holds": holds})
    if json_output:
        print(json.dumps({"plugins": rows, "warnings": warnings}, indent=2))
        return
    if not rows:
        print("no plugins installed (tui plugin add PATH|GIT-URL)")
    for row in rows:
        commit = f" @ {row['commit'][:12]}" if row["commit"] else ""
        print(f"{_shown(row['name'])}  {_shown(row['source'])}{commit}")
        for line in row["holds"]:
            print(f"    {_shown(line)}")
    for warning in warnings:
        print(f"warning: {_shown(warning)}", file=sys.stderr)


@plugin_app.command("remove")
def remove_command(name: Annotated[str, typer.Argument(help="The installed plugin.")]) -> None:
    """Uninstall a plugin (its copy is deleted)."""
    from openhands_tui.sdk.plugin.folder import PluginError
    from openhands_tui.sdk.plugin.installed import remove

    try:
        remove(name)
    except PluginError as exc:
        raise _fail(str(exc)) from None
    except OSError as exc:
        raise _fail(f"cannot remove {name}: {exc.strerror or exc}", 1) from None
    print(f"Removed plugin {name}.")


def _install(source: str, names: list[str], ref: str | None, yes: bool) -> None:
    from openhands_tui.sdk.plugin.folder import PluginError, read_plugin
    from openhands_tui.sdk.plugin.installed import fetch
    from openhands_tui.sdk.plugin.marketplace import is_marketplace

    with tempfile.TemporaryDirectory(prefix="tui-plugin-") as scratch:
        try:
            root, commit = fetch(source, ref, Path(scratch))
            if is_marketplace(root):
                _from_marketplace(source, root, commit, names, ref, yes, Path(scratch))
                return
            if names:
                raise PluginError(f"{source}: not a marketplace, so no plugin names after it")
            if not _holds_a_plugin(root):
                raise PluginError(f"{source}: no plugin here ({_PARTS} missing)")
            _review_and_install(read_plugin(root), source, commit, ref, yes)
        except PluginError as exc:
            raise _fail(str(exc), 1 if "git failed" in str(exc) else 2) from None
        except OSError as exc:
            raise _fail(f"{source}: could not install ({exc.strerror or exc})", 1) from None


_PARTS = "strategy.py, .claude-plugin/plugin.json, skills/, commands/ or agents/"


def _holds_a_plugin(root: Path) -> bool:
    from openhands_tui.sdk.plugin.folder import is_plugin_folder

    return is_plugin_folder(root) or any((root / part).is_dir() for part in ("skills", "commands", "agents"))


def _from_marketplace(
    source: str, root: Path, commit: str, names: list[str], ref: str | None, yes: bool, scratch: Path
) -> None:
    from openhands_tui.sdk.plugin.folder import PluginError, read_plugin
    from openhands_tui.sdk.plugin.installed import fetch
    from openhands_tui.sdk.plugin.marketplace import read_marketplace

    listed = {entry.name: entry for entry in read_marketplace(root)}
    have = ", ".join(listed)
    if not names and len(listed) != 1:
        raise PluginError(f"{source}: a marketplace of {len(listed)} plugins; name the ones to install: {have}")
    for index, name in enumerate(names or list(listed)):
        entry = listed.get(name)
        if entry is None:
            raise PluginError(f"{source}: no plugin {name!r} in this marketplace (it has: {have})")
        if entry.git_url is not None:
            where, entry_commit = fetch(entry.git_url, entry.ref, scratch / f"entry-{index}")
            origin = entry.git_url
        else:
            assert entry.folder is not None
            where, entry_commit, origin = entry.folder, commit, f"{source}#{name}"
        _review_and_install(read_plugin(where, name), origin, entry_commit, ref, yes)


def _review_and_install(plugin: PluginFolder, source: str, commit: str, ref: str | None, yes: bool) -> None:
    from openhands_tui.sdk.plugin.installed import install

    holds = plugin.contents()
    print(f"Plugin {_shown(plugin.name)}{f' {_shown(plugin.version)}' if plugin.version else ''} from {_shown(source)}")
    if plugin.description:
        print(f"  {_shown(plugin.description)}")
    for line in holds or ["(nothing this version uses)"]:
        print(f"  • {_shown(line)}")
    for warning in plugin.warnings:
        print(f"warning: {_shown(warning)}", file=sys.stderr)
    runs_code = any(line.startswith(("hook ", "MCP server ", "strategy:")) for line in holds)
    if not yes:
        if not sys.stdin.isatty():
            raise _fail(f"{plugin.name}: not installed; review what it holds above, then run again with --yes")
        warning = " Its hooks, servers or strategy run as you." if runs_code else ""
        answer = input(f"Install and trust {plugin.name}?{warning} [y/N] ").strip().lower()
        if answer not in ("y", "yes"):
            print(f"Not installed: {plugin.name}.")
            return
    install(plugin, source, commit, ref)
    pinned = f" at {commit[:12]}" if commit else ""
    print(f"Installed plugin {plugin.name}{pinned}: every session uses it (tui plugin remove {plugin.name} to undo).")
