"""Where an agent's commands and file edits run: its executor.

- `local`: this machine, in the session's jail (or unconfined with `--sandbox off`) — the default;
- `agent-server:URL`: a running OpenHands agent-server (`openhands-agent-server` on PyPI, what
  OpenHands' Docker, Kubernetes and hosted runtimes start per sandbox). Its shell and files are
  the server's; the workspace is a folder on the server: the session's (`--workspace`), or for
  one agent the spec's own (`agent-server:http://host:8000?workspace=/srv/app`).

Chosen for the session (`--executor`) and per agent (`Agent(executor=...)`: the coder remote, the
reviewer local). The terminal and the file editor build on it (`executors/`, the one place that picks);
the rules rate their actions as they do locally, against the agent's workspace, and approvals are
asked the same way. The server's key comes from the environment — `TUI_AGENT_SERVER_KEY`, else
the server's own `SESSION_API_KEY` — never from the command line, and the launcher adds it to the
session's redactor so no event or log holds it.
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Literal
from urllib.parse import parse_qs, quote, urlsplit, urlunsplit

from openhands_tui.sdk.errors import SettingsError

#: Where the key is read from, in order.
KEY_VARIABLES = ("TUI_AGENT_SERVER_KEY", "SESSION_API_KEY")
AGENT_SERVER = "agent-server:"


@dataclass(frozen=True)
class ExecutorSpec:
    kind: Literal["local", "agent-server"] = "local"
    url: str = ""
    key: str = field(default="", repr=False)
    #: The agent's workspace on the server, when the spec names one (`?workspace=/srv/app`);
    #: "" for the session's.
    workspace: str = ""

    @property
    def remote(self) -> bool:
        return self.kind == "agent-server"

    def describe(self) -> str:
        return f"agent-server at {self.url}" if self.remote else "local"

    def stored(self) -> str | None:
        """What a session's metadata keeps, so `--resume` runs where the session ran: None for
        local, else the spec as `--executor` takes it — without the key, which stays in the
        environment."""
        if not self.remote:
            return None
        return AGENT_SERVER + self.url + (f"?workspace={quote(self.workspace, safe='/')}" if self.workspace else "")


LOCAL = ExecutorSpec()


def parse_executor(text: str | None, environ: Mapping[str, str] = os.environ, flag: str = "--executor") -> ExecutorSpec:
    """`local` or `agent-server:URL` (http or https); SettingsError names the flag and the cause."""
    if text is None or text.strip() in ("", "local"):
        return LOCAL
    value = text.strip()
    if not value.startswith(AGENT_SERVER):
        raise SettingsError(f"{flag} {value[:80]!r}: use local or agent-server:URL")
    url = value[len(AGENT_SERVER) :]
    parts = urlsplit(url)
    asked = parse_qs(parts.query)
    workspace = (asked.get("workspace") or [""])[0]
    if workspace and not workspace.startswith("/"):
        raise SettingsError(f"{flag} {value[:80]!r}: workspace= must be an absolute path on the server")
    url = urlunsplit((parts.scheme, parts.netloc, parts.path.rstrip("/"), "", ""))
    if parts.scheme not in ("http", "https") or not parts.netloc:
        raise SettingsError(f"{flag} {value[:80]!r}: the server's address must be an http(s) URL")
    if parts.username or parts.password:
        raise SettingsError(f"{flag}: put no key in the URL; set TUI_AGENT_SERVER_KEY (or SESSION_API_KEY) instead")
    key = next((environ[name] for name in KEY_VARIABLES if environ.get(name)), "")
    return ExecutorSpec(kind="agent-server", url=url, key=key, workspace=workspace)


def agent_executor(text: str | None, session: ExecutorSpec, flag: str) -> ExecutorSpec:
    """An agent's executor: its own `executor` text, else the session's; the session's spec (with
    its key) when the agent names the same server without a workspace of its own."""
    if text is None:
        return session
    spec = parse_executor(text, flag=flag)
    if spec.remote and spec.url == session.url and not spec.workspace:
        return session
    return spec
