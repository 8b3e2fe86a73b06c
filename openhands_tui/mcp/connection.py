"""One MCP server, spoken to with the official `mcp` SDK: started, listed, called, stopped.

The connection lives in a task of its own: the SDK's transports and `ClientSession` are anyio
context managers that must be entered and left by the same task, so that task opens them,
lists the tools, and then waits until it is told to stop. Calls from agents go through the
open session from their own tasks. Every way a server can go wrong — the program is missing
or exits, it never answers, it writes something that is not JSON-RPC, an HTTP error — ends
in `state == "failed"` with a one-line `error`, never an exception escaping to the run.

A stdio server starts inside a jail of its own (`wall.py`: by default the workspace read-only
and no network; its entry's `sandbox` says more), unless its entry or the session's sandbox is
off. Its standard error goes to a temporary file (never the terminal the app draws on); its
last lines are quoted in the error. Its environment is the shell's (secrets and our model's
key removed) plus the server's own `env`.

A server at a URL that answers 401 is signed in to (OAuth, `oauth.py`): the person is told where
through `listen`'s callback (the waiting agent's notice), and the start-up clock stops while they
sign in; with nobody to ask, the server fails with one line naming `tui mcp login`.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
import tempfile
from collections.abc import Callable
from pathlib import Path
from typing import Any

from openhands_tui.mcp.callbacks import RunningCall, ServerCallbacks
from openhands_tui.sdk.facts.event import MCPState
from openhands_tui.sdk.mcp_config import STARTUP_TIMEOUT, TOOL_TIMEOUT, MCPServerConfig
from openhands_tui.sdk.mcp_host import MCPHost
from openhands_tui.sdk.sandbox import SandboxPolicy
from openhands_tui.sdk.security.trusted import TrustedFiles
from openhands_tui.sdk.terminal_text import strip_controls
from openhands_tui.sdk.tool.definition import CURRENT_AGENT_ID, CURRENT_TOOL_CALL_ID

# The SDK logs a server's malformed output with a traceback; it must never reach the terminal
# through logging's last-resort handler (the session's log file still gets it, via the root).
logging.getLogger("mcp").addHandler(logging.NullHandler())

#: Seconds a server gets to stop (stdin closed, then SIGTERM) before its task is cancelled.
STOP_TIMEOUT = 5.0


class MCPUnavailable(Exception):
    """The server cannot take calls (it failed to start, crashed, or was stopped)."""


class ServerConnection:
    #: Whether a person can be asked to sign in to the server (None: when there is a terminal).
    interactive: bool | None = None
    #: True while its start waits on a person signing in (the start-up clock is stopped).
    signing_in = False
    #: Says a line to the person (the waiting agent's notice); lines said before, in `_untold`.
    _tell: Callable[[str], None] | None = None
    _untold: tuple[str, ...] = ()
    #: Told each credential the server is given while it runs (the session's redactor), and those.
    _secret: Callable[[str, str], None] | None = None
    _secrets: tuple[str, ...] = ()

    def __init__(
        self,
        name: str,
        config: MCPServerConfig,
        workspace: Path,
        sandbox: SandboxPolicy | None = None,
        trusted: TrustedFiles | None = None,
        changed: Callable[[ServerConnection], None] = lambda connection: None,
        host: Callable[[], MCPHost | None] = lambda: None,
    ) -> None:
        self.name = name
        #: What the server may ask of the session (roots, the user, the model, progress).
        self.callbacks = ServerCallbacks(name, config.sampling, host)
        #: Told whenever `state` changes (on the loop the server runs on).
        self._changed = changed
        self.config = config
        self.workspace = workspace
        #: The session's sandbox: when it is off, servers run unconfined as the user chose.
        self.sandbox = sandbox or SandboxPolicy()
        #: The session's trusted files: the server's jail keeps those in the workspace read-only.
        self.trusted = trusted if trusted is not None else TrustedFiles()
        #: Whether the running server is inside its jail (set when it starts).
        self.jailed = False
        self.state: MCPState = "starting"
        self.error = ""
        self.tools: list[Any] = []  # mcp.types.Tool
        #: What the server said it offers when it started (mcp.types.ServerCapabilities).
        self.capabilities: Any = None
        #: Its prompts as listed when it started (mcp.types.Prompt): the `/server:prompt` commands.
        self.prompts: list[Any] = []
        self._session: Any = None
        self._ready = asyncio.Event()
        self._stop = asyncio.Event()
        self._task: asyncio.Task[None] | None = None
        #: The last thing it sent that was not JSON-RPC (quoted when it then fails).
        self._garbled = ""
        self._stderr = tempfile.TemporaryFile(mode="w+", encoding="utf-8", errors="replace")  # noqa: SIM115 - closed in stop()

    # -- lifecycle -------------------------------------------------------------------------

    def start(self) -> None:
        """Begin connecting in the background (now if a loop runs here, else on first wait)."""
        with contextlib.suppress(RuntimeError):
            asyncio.get_running_loop()
            self._ensure_task()

    def _ensure_task(self) -> None:
        if self._task is None:
            self._task = asyncio.create_task(self._run(), name=f"mcp server {self.name}")

    async def wait_ready(self) -> None:
        """Wait until the server listed its tools or failed; a server that takes longer than
        its timeout is stopped and failed."""
        self._ensure_task()
        timeout = self.config.timeout or STARTUP_TIMEOUT
        try:
            while True:
                try:
                    await asyncio.wait_for(self._ready.wait(), timeout)
                    break
                except TimeoutError:
                    if not self.signing_in:  # a person signing in has a clock of its own (oauth.py)
                        raise
        except TimeoutError:
            garbled = f"; it wrote output that is not JSON-RPC ({self._garbled})" if self._garbled else ""
            self._fail(f"did not answer within {timeout:g} s{garbled}")
            await self._cancel_task()

    async def stop(self) -> None:
        """Stop the server and wait for its process to end (no orphans)."""
        self._stop.set()
        task = self._task
        if task is not None and not task.done():
            try:
                await asyncio.wait_for(asyncio.shield(task), STOP_TIMEOUT)
            except (TimeoutError, Exception):
                await self._cancel_task()
        if self.state in ("running", "starting"):
            self.state = "stopped"
            self._changed(self)
        self._stderr.close()

    async def _cancel_task(self) -> None:
        task = self._task
        if task is not None and not task.done():
            task.cancel()
            with contextlib.suppress(BaseException):
                await task

    def _fail(self, error: str) -> None:
        if self.state != "failed":
            self.state = "failed"
            self.error = error + self._stderr_tail()
            self._changed(self)
        self._session = None
        self._ready.set()

    def _stderr_tail(self) -> str:
        try:
            self._stderr.flush()
            self._stderr.seek(0, os.SEEK_END)
            size = self._stderr.tell()
            self._stderr.seek(max(0, size - 2000))
            lines = [line.strip() for line in strip_controls(self._stderr.read()).splitlines() if line.strip()]
        except (OSError, ValueError):
            return ""
        return f" (its last output: {lines[-1][:200]})" if lines else ""

    async def _run(self) -> None:
        try:
            await asyncio.to_thread(_load_sdk)  # the SDK's first import costs ~1 s: not on this loop
            from mcp import ClientSession

            async with contextlib.AsyncExitStack() as stack:
                read, write = await self._open_transport(stack)
                session = await stack.enter_async_context(
                    ClientSession(read, write, message_handler=self._on_message, **self.callbacks.session_arguments())
                )
                initialized = await session.initialize()
                self.capabilities = initialized.capabilities
                self.tools = await _list_tools(session)
                self.prompts = await _list_prompts(session, self.capabilities)
                self._session = session
                self.state = "running"
                self._changed(self)
                self._ready.set()
                await self._stop.wait()
                self._session = None
        except asyncio.CancelledError:
            if self.state == "starting":
                self._fail("stopped while starting")
            raise
        except Exception as exc:  # every failure of a server is a warning, never a crash
            self._fail(describe_error(exc))
        finally:
            self._session = None
            self._ready.set()

    async def _on_message(self, message: Any) -> None:
        if isinstance(message, Exception):
            self._garbled = describe_error(message)[:160]

    async def _open_transport(self, stack: contextlib.AsyncExitStack) -> tuple[Any, Any]:
        config = self.config
        if config.command is not None:
            from mcp.client.stdio import StdioServerParameters, stdio_client

            from openhands_tui.mcp.wall import launch

            # finding bubblewrap runs a probe once per process: not on this loop
            started = await asyncio.to_thread(launch, self.name, config, self.workspace, self.sandbox, self.trusted)
            self.jailed = started.jailed
            params = StdioServerParameters(
                command=started.argv[0],
                args=started.argv[1:],
                env=started.env,
                cwd=started.cwd,
                # a line that is not UTF-8 is garbage like any other, not the end of the server
                encoding_error_handler="replace",
            )
            streams = await stack.enter_async_context(stdio_client(params, errlog=self._stderr))
            return streams[0], streams[1]
        url = os.path.expandvars(config.url or "")
        headers = {key: os.path.expandvars(value) for key, value in config.headers.items()}
        from openhands_tui.mcp.oauth import sign_in_for

        # a server that answers 401 is signed in to (OAuth); one given an Authorization header is not
        sign_in = await asyncio.to_thread(sign_in_for, self.name, config, url, self)
        auth = sign_in.provider() if sign_in is not None else None
        if config.transport == "sse":
            from mcp.client.sse import sse_client

            streams = await stack.enter_async_context(sse_client(url, headers=headers, auth=auth))
            return streams[0], streams[1]
        from mcp.client.streamable_http import streamable_http_client
        from mcp.shared._httpx_utils import create_mcp_http_client

        client = await stack.enter_async_context(create_mcp_http_client(headers=headers, auth=auth))
        streams = await stack.enter_async_context(streamable_http_client(url, http_client=client))
        return streams[0], streams[1]

    # -- signing in (oauth.py) --------------------------------------------------------------

    def listen(self, tell: Callable[[str], None], secret: Callable[[str, str], None] | None = None) -> None:
        """Say the server's lines to the person through `tell` (those said already, now), and
        its credentials to `secret`."""
        self._tell, untold, self._untold = tell, self._untold, ()
        for line in untold:
            tell(line)
        if secret is not None:
            self._secret = secret
            for value in self._secrets:
                secret(value, f"MCP server {self.name} sign-in")

    def keep_secret(self, value: str) -> None:
        if value not in self._secrets:
            self._secrets = (*self._secrets, value)
            if self._secret is not None:
                self._secret(value, f"MCP server {self.name} sign-in")

    def say(self, line: str) -> None:
        if self._tell is not None:
            self._tell(line)
        else:
            self._untold = (*self._untold, line)

    def sign_in_waiting(self, waiting: bool) -> None:
        self.signing_in = waiting

    # -- calls -----------------------------------------------------------------------------

    async def call(self, tool: str, arguments: dict[str, Any]) -> Any:
        """Call `tool`; returns the SDK's CallToolResult. Raises MCPUnavailable when the
        server cannot take it, TimeoutError after the server's tool timeout (the server is
        told the call was cancelled, as it is when the caller is cancelled)."""
        session = self._session
        if session is None or self.state != "running":
            raise MCPUnavailable(f"MCP server {self.name!r} is not running ({self.error or self.state})")
        timeout = self.config.tool_timeout or TOOL_TIMEOUT
        running = RunningCall(CURRENT_AGENT_ID.get(), CURRENT_TOOL_CALL_ID.get(), tool)
        self.callbacks.running.append(running)
        try:
            async with asyncio.timeout(timeout):
                return await session.call_tool(tool, arguments, progress_callback=self.callbacks.progress_for(running))
        except TimeoutError:
            raise TimeoutError(f"MCP server {self.name!r} did not answer {tool!r} within {timeout:g} s") from None
        except asyncio.CancelledError:
            raise
        except Exception as exc:
            error = describe_error(exc)
            if _connection_lost(exc) or (self._task is not None and self._task.done()):
                self._fail(f"stopped answering: {error}")
            raise MCPUnavailable(f"MCP server {self.name!r}: {error}") from None
        finally:
            self.callbacks.running.remove(running)

    # -- resources (resources.py) ----------------------------------------------------------

    @property
    def offers_resources(self) -> bool:
        return self.state == "running" and getattr(self.capabilities, "resources", None) is not None

    async def list_resources(self) -> tuple[list[Any], list[Any]]:
        """The server's resources and resource templates (a few pages of each at most)."""
        resources = await self._request("list resources", lambda s: _paged(s.list_resources, "resources"))
        templates = await self._request(
            "list resource templates", lambda s: _paged(s.list_resource_templates, "resource_templates")
        )
        return resources, templates

    async def read_resource(self, uri: str) -> Any:
        """Read one resource; returns the SDK's ReadResourceResult (the uri goes to the server
        only: nothing local is opened from it)."""
        return await self._request(f"read {uri[:200]!r}", lambda s: s.read_resource(uri))

    async def list_prompts(self) -> list[Any]:
        """The server's prompts (mcp.types.Prompt), a few pages at most."""
        return await self._request("list prompts", lambda s: _paged(s.list_prompts, "prompts"))

    async def get_prompt(self, name: str, arguments: dict[str, str]) -> Any:
        """The server's GetPromptResult for prompt `name` with `arguments`."""
        return await self._request(f"get prompt {name[:100]!r}", lambda s: s.get_prompt(name, arguments))

    async def _request(self, what: str, send: Callable[[Any], Any]) -> Any:
        session = self._session
        if session is None or self.state != "running":
            raise MCPUnavailable(f"MCP server {self.name!r} is not running ({self.error or self.state})")
        timeout = self.config.tool_timeout or TOOL_TIMEOUT
        try:
            async with asyncio.timeout(timeout):
                return await send(session)
        except TimeoutError:
            raise TimeoutError(f"MCP server {self.name!r} did not {what} within {timeout:g} s") from None
        except asyncio.CancelledError:
            raise
        except Exception as exc:
            raise MCPUnavailable(f"MCP server {self.name!r} could not {what}: {describe_error(exc)}") from None


async def _list_prompts(session: Any, capabilities: Any) -> list[Any]:
    """A server's prompts, or none when it offers none or fails to list them (its tools still work)."""
    if getattr(capabilities, "prompts", None) is None:
        return []
    try:
        return await asyncio.wait_for(_paged(session.list_prompts, "prompts"), TOOL_TIMEOUT)
    except Exception:
        return []


async def _paged(list_page: Any, field: str, pages: int = 10) -> list[Any]:
    from mcp import types

    items: list[Any] = []
    cursor: str | None = None
    for _ in range(pages):
        params = types.PaginatedRequestParams(cursor=cursor) if cursor else None
        listed = await list_page(params=params)
        items.extend(getattr(listed, field))
        cursor = listed.next_cursor
        if not cursor:
            break
    return items


def _load_sdk() -> None:
    import mcp.client.session
    import mcp.client.stdio  # noqa: F401


async def _list_tools(session: Any) -> list[Any]:
    tools: list[Any] = []
    cursor: str | None = None
    for _ in range(100):  # a server that pages forever is cut off
        from mcp import types

        params = types.PaginatedRequestParams(cursor=cursor) if cursor else None
        listed = await session.list_tools(params=params)
        tools.extend(listed.tools)
        cursor = listed.next_cursor
        if not cursor:
            break
    return tools


def describe_error(exc: BaseException) -> str:
    """One line for what went wrong, from the innermost real cause of an exception group."""
    while isinstance(exc, BaseExceptionGroup) and exc.exceptions:
        exc = exc.exceptions[0]
    if isinstance(exc, FileNotFoundError):
        return f"cannot run {exc.filename or 'the command'}: not found"
    text = strip_controls(str(exc)).strip().splitlines()
    message = text[0][:300] if text else ""
    if getattr(exc, "written_for_people", False):  # says what to do already (oauth.SignInNeeded)
        return message
    return f"{type(exc).__name__}: {message}" if message else type(exc).__name__


def _connection_lost(exc: BaseException) -> bool:
    text = str(exc).lower()
    return "connection closed" in text or "closed" in type(exc).__name__.lower()
