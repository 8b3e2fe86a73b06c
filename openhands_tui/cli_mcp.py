"""`tui mcp list|add|remove|get|login|logout`: the MCP servers agents get, as `claude mcp` manages them.

Servers are kept in the shared `mcpServers` JSON shape: the user's in
`$XDG_CONFIG_HOME/openhands-tui/mcp.json`, a project's in its `.mcp.json` (`--project`).
`list` reads the files only (it answers at once, however many servers there are); `get`
starts the one server and lists its tools. Bad input is one line naming it, exit 2.
Only typer is imported up front: `tui --help` stays fast.
"""

from __future__ import annotations

import contextlib
import errno
import json
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Annotated, Any

import typer

from openhands_tui.cli_mcp_serve import serve_command

mcp_app = typer.Typer(
    add_completion=False,
    rich_markup_mode=None,
    pretty_exceptions_enable=False,
    no_args_is_help=True,
    context_settings={"help_option_names": ["-h", "--help"]},
    help="MCP servers whose tools agents get: list, add, remove, get, login, logout; serve: be one.",
)

Workspace = Annotated[Path | None, typer.Option(metavar="DIR", help="The project (default: the current directory).")]
Project = Annotated[bool, typer.Option("--project", help="The project's .mcp.json instead of your own servers.")]
AsJson = Annotated[bool, typer.Option("--json", help="Print JSON.")]


def _fail(message: str, code: int = 2) -> typer.Exit:
    print(f"tui mcp: {message}", file=sys.stderr)
    return typer.Exit(code)


def _workspace(workspace: Path | None) -> Path:
    from openhands_tui.cli_usage import working_directory

    path = working_directory(workspace, _fail)
    if not path.is_dir():
        raise _fail(f"--workspace {workspace}: not a directory")
    return path


def _file(project: bool, workspace: Path) -> Path:
    from openhands_tui.sdk.mcp_config import project_mcp_file, user_mcp_file

    return project_mcp_file(workspace) if project else user_mcp_file()


def _load_raw(path: Path) -> dict[str, Any]:
    """The file's JSON object (other keys kept when we write it back). Read as the engine reads
    it: a FIFO in its place (a project's `.mcp.json`) blocked `tui mcp` for ever."""
    from openhands_tui.sdk.files.read import read_regular

    try:
        text = read_regular(path).decode("utf-8")
    except FileNotFoundError:
        return {"mcpServers": {}}
    except OSError as exc:
        raise _fail(f"{path}: cannot read it ({exc.strerror or exc})") from None
    except UnicodeDecodeError:
        raise _fail(f"{path}: not UTF-8 text; fix or remove it") from None
    try:
        data = json.loads(text) if text.strip() else {}
    except json.JSONDecodeError as exc:
        raise _fail(f"{path}: not valid JSON ({exc.msg} at line {exc.lineno}); fix or remove it") from None
    except (RecursionError, ValueError):  # nested thousands deep, or a number of thousands of digits
        raise _fail(f"{path}: not valid JSON (nested too deeply or a number too long); fix or remove it") from None
    if not isinstance(data, dict) or not isinstance(data.setdefault("mcpServers", {}), dict):
        raise _fail(f"{path}: expected a JSON object with an `mcpServers` object")
    return data


@contextlib.contextmanager
def _one_writer(path: Path, project: bool) -> Iterator[None]:
    """The file locked against other tuis from the read to the write (a project's file by a lock
    in the user's state folder, not in the repository); a lock that cannot be taken is one line,
    as the write's own failure would be."""
    import hashlib

    from openhands_tui.sdk.facts.store import state_home
    from openhands_tui.sdk.files.private import one_writer

    name = hashlib.sha256(str(path.resolve()).encode()).hexdigest()[:24]
    with contextlib.ExitStack() as held:
        try:
            held.enter_context(one_writer(path, state_home() / "locks" / f"{name}.lock" if project else None))
        except OSError as exc:
            raise _fail(f"{path}: cannot lock it for writing ({exc.strerror or exc}); it is unchanged", 1) from None
        yield


def _write(path: Path, data: dict[str, Any]) -> None:
    from openhands_tui.sdk.files.private import replace_privately

    try:
        replace_privately(path, json.dumps(data, indent=2) + "\n")  # headers and env often hold tokens
    except OSError as exc:  # a full disk, a read-only directory: the file is as it was
        full = exc.errno in (errno.ENOSPC, errno.EDQUOT)
        why = "disk full" if full else f"cannot write it ({exc.strerror or exc})"
        raise _fail(f"{path}: {why}; it is unchanged", 1) from None


def _rows(workspace: Path) -> list[dict[str, Any]]:
    from openhands_tui.cli_mcp_login import signed_in
    from openhands_tui.sdk.mcp_config import project_mcp_file, read_mcp_file, session_servers, user_mcp_file

    loaded = session_servers(workspace)
    rows = []
    for scope, path in (("user", user_mcp_file()), ("project", project_mcp_file(workspace))):
        servers, problems = read_mcp_file(path)
        for problem in problems:
            print(f"warning: {problem}", file=sys.stderr)
        for name, config in servers.items():
            if config.disabled:
                status = "disabled"
            elif scope == "project" and loaded.trust_request is not None:
                status = "not trusted (the app asks; or --trust-project)"
            elif scope == "project" and name in loaded.servers and loaded.servers[name] is not config:
                status = "shadowed by your server of that name"
            else:
                status = "enabled"
            rows.append(
                {"name": name, "scope": scope, "transport": config.transport, "target": config.describe()}
                | {"status": status, "file": str(path), "signed_in": signed_in(config)}
            )
    return rows


@mcp_app.command("list")
def list_servers(workspace: Workspace = None, as_json: AsJson = False) -> None:
    """Your servers and this project's, with where each is kept and whether it starts."""
    rows = _rows(_workspace(workspace))
    if as_json:
        print(json.dumps(rows, indent=2))
        return
    if not rows:
        print("No MCP servers. Add one: tui mcp add NAME -- COMMAND [ARGS...]  or  tui mcp add NAME URL")
        return
    from openhands_tui.sdk.terminal_text import shown_for_approval

    # a project's names and command lines are a cloned repository's words: shown as an approval is
    shown = [
        {**row, "name": shown_for_approval(row["name"]), "target": shown_for_approval(row["target"])} for row in rows
    ]
    width = max(len(row["name"]) for row in shown)
    for row in shown:
        status = row["status"] + (", signed in" if row["signed_in"] else "")
        print(f"{row['name']:<{width}}  {row['scope']:<7}  {row['transport']:<5}  {row['target']}  [{status}]")


@mcp_app.command("add")
def add_server(
    name: Annotated[str, typer.Argument(help="The server's name (its tools are called NAME__tool).")],
    target: Annotated[
        list[str],
        typer.Argument(metavar="URL | -- COMMAND [ARGS]...", help="An http(s) URL, or a program and its arguments."),
    ],
    transport: Annotated[
        str | None, typer.Option(metavar="stdio|http|sse", help="Default: http for a URL, stdio for a command.")
    ] = None,
    env: Annotated[list[str] | None, typer.Option("--env", "-e", metavar="KEY=VALUE", help="Repeatable.")] = None,
    header: Annotated[
        list[str] | None, typer.Option("--header", "-H", metavar="'NAME: VALUE'", help="HTTP header, repeatable.")
    ] = None,
    project: Project = False,
    workspace: Workspace = None,
) -> None:
    """Add (or replace) a server: `tui mcp add git -- uvx mcp-server-git`, `tui mcp add docs https://host/mcp`.
    Put options before `--`; everything after it is the command and its arguments."""
    from openhands_tui.sdk.mcp_config import MCPServerConfig, parse_servers

    root = _workspace(workspace)
    path = _file(project, root)
    if not name.strip() or "/" in name:
        raise _fail(f"add {name!r}: a name must be non-empty and without '/'")
    is_url = len(target) == 1 and target[0].startswith(("http://", "https://"))
    entry: dict[str, Any] = {"url": target[0]} if is_url else {"command": target[0], "args": target[1:]}
    if transport is not None:
        if transport not in ("stdio", "http", "sse"):
            raise _fail(f"--transport {transport}: use stdio, http or sse")
        entry["type"] = transport
    if env:
        entry["env"] = dict(_pair(item, "=", "--env") for item in env)
    if header:
        entry["headers"] = dict(_pair(item, ":", "--header") for item in header)
    _, problems = parse_servers({"mcpServers": {name: entry}}, f"add {name}")
    if problems:
        raise _fail(problems[0].removeprefix(f"add {name}: "))
    trusted_before = _trusted(path, root) if project else False
    with _one_writer(path, project):  # eight adds at once: all eight are kept
        data = _load_raw(path)
        data["mcpServers"][name] = MCPServerConfig.model_validate(entry).to_json()
        _write(path, data)
    if trusted_before:
        _trust(path, root)  # your own edit of a file you trusted: still trusted
    print(f"Added {name} to {path}: {MCPServerConfig.model_validate(entry).describe()}")


def _pair(item: str, sep: str, flag: str) -> tuple[str, str]:
    key, found, value = item.partition(sep)
    if not found or not key.strip():
        raise _fail(f"{flag} {item!r}: expected NAME{sep}VALUE")
    return key.strip(), value.strip() if sep == ":" else value


def _trusted(path: Path, root: Path) -> bool:
    from openhands_tui.sdk.mcp_config import session_servers

    return not path.exists() or session_servers(root).trust_request is None


def _trust(path: Path, root: Path) -> None:
    from openhands_tui.sdk.mcp_config import session_servers
    from openhands_tui.sdk.security.trust import ProjectTrust

    request = session_servers(root).trust_request
    if request is not None:
        try:
            ProjectTrust().trust(request)
        except OSError as exc:  # the edit is made; only the trust could not be kept
            print(
                f"tui: {path} changed and was not trusted again (cannot write {exc.filename} "
                f"({exc.strerror or exc})): the app will ask",
                file=sys.stderr,
            )


@mcp_app.command("remove")
def remove_server(
    name: Annotated[str, typer.Argument(help="The server to remove.")],
    project: Project = False,
    workspace: Workspace = None,
) -> None:
    """Remove a server from your servers (or the project's with --project)."""
    root = _workspace(workspace)
    path = _file(project, root)
    trusted_before = _trusted(path, root) if project else False
    with _one_writer(path, project):
        data = _load_raw(path)
        if name not in data["mcpServers"]:
            known = ", ".join(data["mcpServers"]) or "none"
            raise _fail(f"remove {name}: no server of that name in {path} (there: {known})")
        del data["mcpServers"][name]
        _write(path, data)
    if trusted_before:
        _trust(path, root)
    print(f"Removed {name} from {path}")


@mcp_app.command("get")
def get_server(
    name: Annotated[str, typer.Argument(help="The server to show.")],
    workspace: Workspace = None,
    as_json: AsJson = False,
) -> None:
    """Show a server's settings, start it, and list its tools (with their read-only and
    destructive hints, which decide how risky a call is)."""
    import asyncio

    root = _workspace(workspace)
    rows = [row for row in _rows(root) if row["name"] == name]
    if not rows:
        raise _fail(f"get {name}: no such server (see tui mcp list)")
    from openhands_tui.sdk.mcp_config import read_mcp_file

    config = read_mcp_file(Path(rows[0]["file"]))[0][name]
    status, tools = asyncio.run(_probe(name, config, root))
    info = rows[0] | {"state": status.state, "error": status.error, "tools": tools}
    if as_json:
        print(json.dumps(info, indent=2))
    else:
        print(f"{name} ({info['scope']}, {info['file']}): {info['target']}")
        print(f"state: {status.state}{': ' + status.error if status.error else ''}")
        for tool in tools:
            print(f"  {tool['name']}  [{tool['risk']}]  {tool['description']}")
    if status.state != "running":
        raise typer.Exit(1)


def _config(command: str, name: str, root: Path) -> Any:
    """The entry of the server `name` (as a session gets it: yours over the project's)."""
    from openhands_tui.sdk.mcp_config import read_mcp_file

    rows = [row for row in _rows(root) if row["name"] == name]
    if not rows:  # an editor's server (ACP) is signed in to once added: sign-ins are kept per URL
        raise _fail(
            f"{command} {name}: no such server (see tui mcp list; one your editor gives: tui mcp add {name} URL)"
        )
    return read_mcp_file(Path(rows[0]["file"]))[0][name]


mcp_app.command("serve", help="Serve our agent to another agent over MCP (stdio): run_task, continue_session.")(
    serve_command
)


@mcp_app.command("login")
def login_server(
    name: Annotated[str, typer.Argument(help="The server to sign in to.")], workspace: Workspace = None
) -> None:
    """Sign in to a server at a URL that asks for it (OAuth): the address to open is printed and
    your browser opened; the sign-in is kept for every later session (refreshed as it expires)."""
    from openhands_tui.cli_mcp_login import login

    root = _workspace(workspace)
    login(name, _config("login", name, root), root)


@mcp_app.command("logout")
def logout_server(
    name: Annotated[str, typer.Argument(help="The server to sign out of.")], workspace: Workspace = None
) -> None:
    """Forget the sign-in kept for a server (the next session asks again)."""
    from openhands_tui.cli_mcp_login import logout

    logout(name, _config("logout", name, _workspace(workspace)))


async def _probe(name: str, config: Any, root: Path) -> tuple[Any, list[dict[str, str]]]:
    from openhands_tui.mcp import MCPHub
    from openhands_tui.mcp.tool import MCPTool
    from openhands_tui.sdk.security import RuleAnalyzer
    from openhands_tui.sdk.security.trusted import TrustedFiles

    trusted = TrustedFiles()  # what the server runs from the project: its tools are rated with it
    hub = MCPHub(root, trusted=trusted, interactive=False)  # signing in is `tui mcp login`'s
    try:
        found = await hub.tools({name: config}, lambda _: None)
        rated = []
        for tool in found:
            if not isinstance(tool, MCPTool):
                continue  # the session's own reader of servers' resources, not a tool of this server
            subject = tool.subject(tool.action_type())
            risk = RuleAnalyzer(trusted=trusted).assess(subject, root).risk.value
            first = tool.description.strip().splitlines()[0] if tool.description.strip() else ""
            rated.append({"name": tool.name, "risk": risk, "description": first[:100]})
        return hub.status()[0], rated
    finally:
        await hub.aclose()
