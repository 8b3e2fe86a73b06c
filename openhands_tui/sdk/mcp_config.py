"""MCP servers as settings: the `mcpServers` shape Claude Code, Cursor and OpenHands share.

A server is either a program spoken to over stdio (`command`, `args`, `env`, `cwd`) or a URL
(`url`, `headers`; streamable HTTP unless `type` says `sse`). Servers come from four places,
all read here as plain data (the client that starts them lives in `openhands_tui.mcp`):

- the user's `$XDG_CONFIG_HOME/openhands-tui/mcp.json` (what `tui mcp add` writes);
- the project's `.mcp.json` — used only once the user trusts that file's content, because a
  cloned repository must not start programs of its own choosing (`security/trust.py`);
- a strategy's `Agent(mcp_config=...)` (the OpenHands SDK's argument);
- a microagent's `mcp_tools` frontmatter when it fires (OpenHands' `stdio_servers` /
  `sse_servers` / `shttp_servers` lists are read too).

A broken entry is a one-line problem naming the file and the server; the other servers stay.
"""

from __future__ import annotations

import hashlib
import json
import os
import re
import shlex
from collections.abc import Mapping
from pathlib import Path
from typing import Any, Literal

from pydantic import ConfigDict, Field, StrictBool, ValidationError, field_validator, model_validator

from openhands_tui.sdk.files.read import read_regular
from openhands_tui.sdk.files.xdg import config_base
from openhands_tui.sdk.model import Model
from openhands_tui.sdk.security.secrets import SHELL_SECRET_NAME
from openhands_tui.sdk.security.trust import ProjectTrust, TrustRequest, digest_of

#: Seconds a server may take to start and list its tools, and a tool call may take.
STARTUP_TIMEOUT = 30.0
TOOL_TIMEOUT = 120.0

_NAME = re.compile(r"[^A-Za-z0-9_-]")


def _shown_word(word: str) -> str:
    """`word` quoted as a shell reads it, on one line: one with a newline, a control or an
    invisible character is written `$'...'` with that character escaped."""
    if word.isprintable():
        return shlex.quote(word)
    named = {"\n": "\\n", "\t": "\\t", "\r": "\\r", "'": "\\'", "\\": "\\\\"}
    escaped = "".join(
        named.get(c, c if c.isprintable() else f"\\x{ord(c):02x}" if ord(c) < 256 else f"\\u{ord(c):04x}") for c in word
    )
    return f"$'{escaped}'"


class MCPSandbox(Model):
    """The wall a stdio server runs inside (`"sandbox": {...}` in its entry). By default it sees
    the workspace read-only and has no network; what more it needs is the user's call, stated
    here (and shown when a project's `.mcp.json` asks for trust):

    - `workspace`: "read-only" (default), "write", or "none" (the workspace is hidden from it);
    - `network`: true lets it reach the network (`npx`/`uvx` need it to download the server);
    - `writable`: folders outside the workspace it may write (`~` is expanded; relative paths
      are inside the workspace);
    - `mode`: "jail" (default) or "off" — the server runs unconfined, as every server does in a
      session started with `--sandbox off`.
    """

    model_config = ConfigDict(defer_build=True, extra="forbid")

    workspace: Literal["read-only", "write", "none"] = "read-only"
    network: StrictBool = False
    writable: list[str] = Field(default_factory=list)
    mode: Literal["jail", "off"] = "jail"

    @field_validator("writable")
    @classmethod
    def _real_paths(cls, paths: list[str]) -> list[str]:
        for path in paths:
            if not path.strip() or "\0" in path:
                raise ValueError("each entry must be a folder's path")
            if os.path.normpath(os.path.expanduser(path)) == "/":
                raise ValueError("'/' cannot be writable: name the folders the server needs")
        return paths

    @property
    def is_default(self) -> bool:
        return self == MCPSandbox()

    def describe(self) -> str:
        """One line, as a trust question and `tui mcp list` show it."""
        if self.mode == "off":
            return "no sandbox: runs with all your rights"
        seen = {"read-only": "workspace read-only", "write": "may write the workspace", "none": "workspace hidden"}
        parts = [seen[self.workspace], "network" if self.network else "no network"]
        parts += [f"may write {path}" for path in self.writable]
        return "sandbox: " + ", ".join(parts)


class MCPServerConfig(Model):
    """One server. Exactly one of `command` (stdio) and `url` (HTTP or SSE)."""

    model_config = ConfigDict(defer_build=True, extra="forbid", populate_by_name=True)

    type: Literal["stdio", "http", "streamable-http", "sse"] | None = Field(default=None, alias="type")
    command: str | None = None
    args: list[str] = Field(default_factory=list)
    env: dict[str, str] = Field(default_factory=dict)
    cwd: str | None = None
    url: str | None = None
    headers: dict[str, str] = Field(default_factory=dict)
    #: Seconds to start and list tools (default STARTUP_TIMEOUT).
    timeout: float | None = Field(default=None, gt=0)
    #: Seconds one tool call may take (default TOOL_TIMEOUT).
    tool_timeout: float | None = Field(default=None, gt=0)
    disabled: bool = False
    #: The wall a stdio server runs inside (see MCPSandbox).
    sandbox: MCPSandbox = Field(default_factory=MCPSandbox)
    #: Its requests for an answer from our model (`sampling/createMessage`): "ask" the user
    #: first (refused where no one can be asked, as headless), "allow" without asking, "refuse".
    sampling: Literal["ask", "allow", "refuse"] = "ask"

    @model_validator(mode="after")
    def _one_transport(self) -> MCPServerConfig:
        if (self.command is None) == (self.url is None):
            raise ValueError("give either `command` (a program over stdio) or `url` (HTTP/SSE), not both or neither")
        if self.url is not None and "sandbox" in self.model_fields_set:
            raise ValueError("`sandbox` applies to a program over stdio (a `command`), not to a `url`")
        if self.command is not None and self.type not in (None, "stdio"):
            raise ValueError(f"type {self.type!r} needs a `url`, not a `command`")
        if self.url is not None and self.type == "stdio":
            raise ValueError("type 'stdio' needs a `command`, not a `url`")
        return self

    @property
    def transport(self) -> Literal["stdio", "http", "sse"]:
        if self.command is not None:
            return "stdio"
        return "sse" if self.type == "sse" else "http"

    def describe(self) -> str:
        """One line: what it runs or where it connects."""
        if self.command is not None:
            return " ".join([self.command, *self.args])
        return f"{self.url} ({self.transport})"

    def grant(self) -> str:
        """What trusting this server lets run, as a user deciding must read it: every argument
        quoted as the shell would need it (an argument holding a newline or spaces is one
        argument, not a second line), the folder it runs in, and its environment — where
        `NODE_OPTIONS=--require ./x.js` or `LD_PRELOAD` would run other code than the command
        names (a secret-named value is not printed)."""
        if self.command is None:
            where = f"{self.url} ({self.transport})"
            return where + (f" with headers {', '.join(sorted(self.headers))}" if self.headers else "")
        text = " ".join(_shown_word(word) for word in [self.command, *self.args])
        if self.cwd:
            text += f" (in {_shown_word(self.cwd)})"
        if self.env:
            hidden = set(self.secrets().values())
            shown = [f"{k}=<secret>" if f"env {k}" in hidden else f"{k}={_shown_word(v)}" for k, v in self.env.items()]
            text += " with env " + " ".join(shown)
        if not self.sandbox.is_default:  # what it may reach beyond the default wall is part of the grant
            text += f" [{self.sandbox.describe()}]"
        return text

    def secrets(self) -> dict[str, str]:
        """Values to redact wherever they appear: secret-looking `env` values and every header
        value (and the token of `Bearer <token>`), by what they are."""
        found = {value: f"env {name}" for name, value in self.env.items() if SHELL_SECRET_NAME.search(name)}
        for name, value in self.headers.items():
            found[value] = f"header {name}"
            scheme, _, token = value.partition(" ")
            if token and scheme.lower() in ("bearer", "basic", "token"):
                found[token] = f"header {name}"
        return found

    def to_json(self) -> dict[str, Any]:
        return self.model_dump(mode="json", by_alias=True, exclude_defaults=True)


def tool_name_part(name: str) -> str:
    """A server or tool name as providers accept it in a function name ([A-Za-z0-9_-])."""
    return _NAME.sub("_", name) or "_"


def parse_servers(data: Any, where: str) -> tuple[dict[str, MCPServerConfig], list[str]]:
    """Servers from `{"mcpServers": {...}}`, a bare `{name: {...}}` map, or OpenHands' lists;
    with one problem line per entry that could not be read (the others are kept)."""
    if not isinstance(data, Mapping):
        return {}, [f"{where}: expected a JSON object with `mcpServers`, got {type(data).__name__}"]
    entries: dict[str, Any] = {}
    problems: list[str] = []
    if "mcpServers" in data:
        servers = data["mcpServers"]
        if not isinstance(servers, Mapping):
            return {}, [f"{where}: `mcpServers` must be an object of servers by name"]
        entries.update(servers)
    lists = {key: value for key, value in data.items() if key.endswith("_servers")}
    for key, value in lists.items():
        for i, item in enumerate(value if isinstance(value, list) else [value]):
            name, entry = _openhands_entry(key, i, item)
            entries[name] = entry
    if "mcpServers" not in data and not lists:
        entries.update(data)
    parsed: dict[str, MCPServerConfig] = {}
    for name, entry in entries.items():
        try:
            parsed[str(name)] = MCPServerConfig.model_validate(entry)
        except ValidationError as exc:
            error = exc.errors()[0]
            field = ".".join(str(part) for part in error["loc"])
            cause = (
                "unknown setting" if error["type"] == "extra_forbidden" else error["msg"].removeprefix("Value error, ")
            )
            problems.append(f"{where}: server {name!r}: {field + ': ' if field else ''}{cause}")
    return parsed, problems


def _openhands_entry(key: str, index: int, item: Any) -> tuple[str, Any]:
    """OpenHands' `stdio_servers: [{name, command, args, env}]`, `sse_servers: [url | {url,
    api_key}]`, `shttp_servers: [...]` as one mcpServers entry."""
    if isinstance(item, str):
        item = {"url": item}
    if not isinstance(item, Mapping):
        return f"{key}[{index}]", item
    entry = {k: v for k, v in item.items() if k not in ("name", "api_key")}
    if item.get("api_key"):
        entry["headers"] = {"Authorization": f"Bearer {item['api_key']}"}
    if key.startswith("sse"):
        entry["type"] = "sse"
    name = str(item.get("name") or item.get("url") or f"{key}[{index}]")
    return name, entry


def user_mcp_file() -> Path:
    return config_base() / "openhands-tui" / "mcp.json"


def project_mcp_file(workspace: Path) -> Path:
    return workspace / ".mcp.json"


def read_mcp_file(path: Path) -> tuple[dict[str, MCPServerConfig], list[str]]:
    """The servers in one file ({} if it does not exist), with its problems."""
    try:
        text = read_regular(path).decode("utf-8")  # a FIFO or /dev/zero in its place: refused
    except FileNotFoundError:
        return {}, []
    except OSError as exc:
        return {}, [f"{path}: cannot read it ({exc.strerror or exc})"]
    except UnicodeDecodeError:
        return {}, [f"{path}: not UTF-8 text"]
    try:
        data = json.loads(text) if text.strip() else {}
    except json.JSONDecodeError as exc:
        return {}, [f"{path}: not valid JSON ({exc.msg} at line {exc.lineno})"]
    except RecursionError:
        return {}, [f"{path}: not valid JSON (nested too deeply)"]
    except ValueError as exc:  # an integer of more than 4,300 digits
        return {}, [f"{path}: not valid JSON ({exc})"]
    return parse_servers(data, str(path))


class SessionServers(Model):
    """The servers a session starts for its root agent, and what keeps some of them back."""

    servers: dict[str, MCPServerConfig] = Field(default_factory=dict)
    problems: list[str] = Field(default_factory=list)
    #: The project's `.mcp.json`, waiting for the user's trust (its servers are not in `servers`).
    trust_request: Any = None


def session_servers(
    workspace: Path, *, trust_project: bool = False, trust: ProjectTrust | None = None
) -> SessionServers:
    """The user's servers, plus the project's if the user trusts that `.mcp.json` (or
    `trust_project`); a project server does not replace a user's server of the same name."""
    servers, problems = read_mcp_file(user_mcp_file())
    project_file = project_mcp_file(workspace)
    project, project_problems = read_mcp_file(project_file)
    problems += project_problems
    request: TrustRequest | None = None
    if project:
        grants = [f"server {name}: {config.grant()}" for name, config in project.items()]
        grants += _local_programs_grants(project, workspace)
        digest = _digest_with_programs(project_file, project, workspace)
        request = TrustRequest("mcp", str(workspace), str(project_file), digest, grants)
        if trust_project or (trust or ProjectTrust()).is_trusted(request):
            servers = {**project, **servers}
            request = None
    enabled = {name: config for name, config in servers.items() if not config.disabled}
    return SessionServers(servers=enabled, problems=problems, trust_request=request)


def microagent_servers(
    mcp_tools: Mapping[str, Any] | None,
    source: str,
    workspace: Path,
    *,
    origin: str = "workspace",
    trust_project: bool = False,
    trust: ProjectTrust | None = None,
) -> tuple[dict[str, MCPServerConfig], list[str], TrustRequest | None]:
    """The servers a microagent's `mcp_tools` declares. A microagent that came with the project
    (`origin` "workspace": the workspace, its git root or a folder between; or any file inside
    the workspace) is like `.mcp.json`: its servers start only once the user trusts that file's
    content (else they come back as a request, with a problem line). Paths are compared
    resolved: a workspace opened through a symlink is still the project."""
    servers, problems = parse_servers(mcp_tools or {}, f"microagent {source}")
    path = Path(source)
    if not servers or not path.is_absolute() or not path.is_file():
        return servers, problems, None
    inside = Path(os.path.realpath(path)).is_relative_to(os.path.realpath(workspace))
    if origin != "workspace" and not inside:
        return servers, problems, None
    grants = [f"server {name}: {config.grant()}" for name, config in servers.items()]
    grants += _local_programs_grants(servers, workspace)
    request = TrustRequest("mcp", str(workspace), str(path), _digest_with_programs(path, servers, workspace), grants)
    if trust_project or (trust or ProjectTrust()).is_trusted(request):
        return servers, problems, None
    problems.append(
        f"{path}: its MCP servers ({', '.join(servers)}) were not started: this project's files may not start "
        "programs until you trust them (in the app, or with --trust-project)"
    )
    return {}, problems, request


def _local_programs(servers: Mapping[str, MCPServerConfig], workspace: Path) -> list[Path]:
    """The workspace files a project's servers run (`sh tools/server.sh`, `./mcp/server.py`, and
    the modules those import; `security/mcp_programs.py`): trusting the config trusts them as
    they are now, so a change to one (an agent's edit) must ask again, as a change to the
    config does."""
    from openhands_tui.sdk.security.mcp_programs import server_programs

    found = {program for config in servers.values() for program in server_programs(config, workspace)}
    return sorted(found)


def _local_programs_grants(servers: Mapping[str, MCPServerConfig], workspace: Path) -> list[str]:
    top = os.path.realpath(workspace)
    return [
        f"runs this project's file {os.path.relpath(p, top)} as it is now" for p in _local_programs(servers, workspace)
    ]


def _digest_with_programs(path: Path, servers: Mapping[str, MCPServerConfig], workspace: Path) -> str:
    """The config's digest, extended by the content of the workspace files its servers run
    (unchanged when they run none, so earlier trust decisions still hold)."""
    from openhands_tui.sdk.security.mcp_programs import program_files

    programs = program_files(_local_programs(servers, workspace))
    digest = digest_of(path)
    if not programs:
        return digest
    combined = hashlib.sha256(digest.encode())
    for program in programs:
        combined.update(f"\0{program}\0".encode())
        try:
            combined.update(hashlib.sha256(read_regular(program, 16 * 1024 * 1024)).hexdigest().encode())
        except OSError as exc:  # too big or unreadable: trusted only while it stays that way
            combined.update(f"unreadable {exc.errno}".encode())
    return combined.hexdigest()
