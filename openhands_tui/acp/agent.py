"""`tui acp`: our strategies as an Agent Client Protocol agent, for Zed, JetBrains, Toad...

The editor starts `tui acp --strategy FILE` and talks JSON-RPC on its stdin/stdout (the
`agent-client-protocol` package does the protocol). Each ACP session is one of our sessions,
launched the way `tui` launches one (strategy, model settings, permissions, sandbox, trust),
stored the same way (so `session/load` and `tui --resume` work on it). A prompt runs the root
agent until it finishes; its events stream to the editor as `session/update`s (updates.py);
a confirmation becomes `session/request_permission`; `session/cancel` interrupts the run;
`session/set_mode` switches between always / risky / never and plan (read-only, ending with a
plan the editor is asked to approve: plan_approval.py; kept when the session is loaded again).
Nothing but protocol messages is written to stdout: logs go to the session's `tui.log`.
"""

from __future__ import annotations

import asyncio
import base64
import binascii
import logging
import sys
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

from acp import (
    PROTOCOL_VERSION,
    InitializeResponse,
    LoadSessionResponse,
    NewSessionResponse,
    PromptResponse,
    RequestError,
    SetSessionModeResponse,
)
from acp.schema import (
    AgentCapabilities,
    CloseSessionResponse,
    ForkSessionResponse,
    Implementation,
    McpCapabilities,
    PromptCapabilities,
    ResumeSessionResponse,
    SessionCapabilities,
    SessionCloseCapabilities,
    SessionForkCapabilities,
    SessionListCapabilities,
    SessionMode,
    SessionModeState,
    SessionResumeCapabilities,
    SetSessionConfigOptionResponse,
    StopReason,
)

from openhands_tui import __version__
from openhands_tui.acp.mcp_servers import client_servers
from openhands_tui.acp.model_choice import choose_model, model_option, stored_model
from openhands_tui.acp.permissions import EditorConfirmer
from openhands_tui.acp.plan_approval import PLAN_MODE, approval
from openhands_tui.acp.session_list import listed
from openhands_tui.acp.updates import UpdateTranslator
from openhands_tui.launch import Launched, LaunchOptions, launch, log_to_session
from openhands_tui.sdk.context.attachments import AttachmentRefused, Given, GivenFile
from openhands_tui.sdk.context.images import ImageData, ImageRefused, checked_image
from openhands_tui.sdk.errors import OpenHandsTUIError, SettingsError
from openhands_tui.sdk.facts.event import Event, PolicyChangedEvent, Status
from openhands_tui.sdk.limits import MAX_INPUT_BYTES, over_the_limit
from openhands_tui.sdk.run.confirmation import ConfirmationMode, ConfirmationPolicy

logger = logging.getLogger(__name__)

MODES = [
    SessionMode(id="always", name="Ask always", description="Ask before every action that can change something"),
    SessionMode(id="risky", name="Ask if risky", description="Ask before HIGH-risk actions (default)"),
    SessionMode(id="never", name="Never ask", description="Never ask (deny rules and the sandbox still apply)"),
    PLAN_MODE,
]
_STOP: dict[Status, StopReason] = {Status.FINISHED: "end_turn", Status.PAUSED: "max_turn_requests"}


@dataclass
class EditorSession:
    launched: Launched
    translator: UpdateTranslator = field(default_factory=UpdateTranslator)
    queue: asyncio.Queue[Any] = field(default_factory=asyncio.Queue)
    running: asyncio.Task[Any] | None = None
    sender: asyncio.Task[None] | None = None


class EditorAgent:
    """The ACP agent side: one instance per connection (per editor)."""

    def __init__(self, options: LaunchOptions) -> None:
        self.options = options
        self.client: Any = None
        self.sessions: dict[str, EditorSession] = {}

    def on_connect(self, conn: Any) -> None:
        self.client = conn

    async def initialize(self, protocol_version: int, client_capabilities: Any = None, **kwargs: Any) -> Any:
        return InitializeResponse(
            protocol_version=PROTOCOL_VERSION,
            agent_capabilities=AgentCapabilities(
                load_session=True,
                prompt_capabilities=PromptCapabilities(embedded_context=True, image=True),
                mcp_capabilities=McpCapabilities(http=True, sse=True),
                session_capabilities=SessionCapabilities(
                    list=SessionListCapabilities(),
                    resume=SessionResumeCapabilities(),
                    close=SessionCloseCapabilities(),
                    fork=SessionForkCapabilities(),
                ),
            ),
            auth_methods=[],
            agent_info=Implementation(name="openhands-tui", title="OpenHands TUI", version=__version__),
        )

    async def authenticate(self, method_id: str, **kwargs: Any) -> None:
        return None

    async def new_session(self, cwd: str, mcp_servers: Any = None, **kwargs: Any) -> Any:
        session = self._open(replace(self.options, workspace=Path(cwd), resume=None, task=None))
        await self._connect_servers(session, mcp_servers)
        return NewSessionResponse(
            session_id=session.launched.log.id, modes=self._modes(session), config_options=self._options(session)
        )

    async def load_session(self, cwd: str, session_id: str, mcp_servers: Any = None, **kwargs: Any) -> Any:
        session = self._open(replace(self.options, workspace=Path(cwd), resume=session_id, task=None))
        await self._connect_servers(session, mcp_servers)
        for event in session.launched.history:  # the stored conversation, as the editor shows it
            for update in session.translator.updates(event, replay=True):
                await self.client.session_update(session_id=session.launched.log.id, update=update)
        _restore_mode(session.launched)
        return LoadSessionResponse(modes=self._modes(session), config_options=self._options(session))

    async def list_sessions(self, cwd: str | None = None, cursor: str | None = None, **kwargs: Any) -> Any:
        return listed(self.options.state_dir, cwd, cursor)

    async def resume_session(self, cwd: str, session_id: str, mcp_servers: Any = None, **kwargs: Any) -> Any:
        """As `session/load`, without replaying the conversation: the editor still shows it."""
        session = self._open(replace(self.options, workspace=Path(cwd), resume=session_id, task=None))
        await self._connect_servers(session, mcp_servers)
        _restore_mode(session.launched)
        return ResumeSessionResponse(modes=self._modes(session), config_options=self._options(session))

    async def fork_session(self, cwd: str, session_id: str, mcp_servers: Any = None, **kwargs: Any) -> Any:
        """A new session carrying a copy of the stored one's history (sdk/timeline/fork.py)."""
        options = replace(self.options, workspace=Path(cwd), resume=session_id, fork=True, fork_at=None, task=None)
        session = self._open(options)
        await self._connect_servers(session, mcp_servers)
        _restore_mode(session.launched)
        return ForkSessionResponse(
            session_id=session.launched.log.id, modes=self._modes(session), config_options=self._options(session)
        )

    async def close_session(self, session_id: str, **kwargs: Any) -> Any:
        """Ends the session's run (and so its delegated agents) and lets its log go."""
        await _end(self._session(session_id))
        del self.sessions[session_id]
        return CloseSessionResponse()

    async def set_session_mode(self, session_id: str, mode_id: str, **kwargs: Any) -> Any:
        session = self._session(session_id)
        conversation = session.launched.conversation
        if mode_id == PLAN_MODE.id:
            conversation.set_plan_mode(True)  # published as an event: the editor hears it
            await session.queue.join()
            return SetSessionModeResponse()
        try:
            mode = ConfirmationMode(mode_id)
        except ValueError:
            modes = ", ".join([*ConfirmationMode, PLAN_MODE.id])
            raise RequestError.invalid_params({"modeId": f"use one of {modes}, not {mode_id!r}"}) from None
        conversation.runtime.plan_mode = False  # leaving plan mode: said by the one event below
        conversation.set_policy(mode)  # published as an event: the editor hears it
        await session.queue.join()
        return SetSessionModeResponse()

    async def set_config_option(self, config_id: str, session_id: str, value: str | bool, **kwargs: Any) -> Any:
        """The editor chose a model (the one option: acp/model_choice.py)."""
        session = self._session(session_id)
        choose_model(session.launched.conversation, config_id, value)
        return SetSessionConfigOptionResponse(config_options=self._options(session))

    async def prompt(self, session_id: str, prompt: list[Any], **kwargs: Any) -> Any:
        session = self._session(session_id)
        if session.running is not None and not session.running.done():
            raise RequestError.invalid_request({"message": "a prompt is already running in this session"})
        conversation = session.launched.conversation
        try:
            text, given = _prompt(prompt)
        except OpenHandsTUIError as exc:  # an image that cannot go: said, and nothing is sent
            await self.client.session_update(session_id=session_id, update=_agent_text(f"tui: {exc}"))
            return PromptResponse(stop_reason="end_turn")
        planning = conversation.runtime.plan_mode
        session.running = asyncio.ensure_future(conversation.run(text, session.launched.inputs, given=given))
        try:
            outcome = await asyncio.shield(session.running)
        except OpenHandsTUIError as exc:  # a usage problem (an unknown /task...): said, not a crash
            await self.client.session_update(session_id=session_id, update=_agent_text(f"tui: {exc}"))
            return PromptResponse(stop_reason="end_turn")
        await session.queue.join()  # every update of this turn reaches the editor first
        if planning and conversation.runtime.plan_mode and outcome.status is Status.FINISHED and outcome.result:
            mode = await approval(self.client, session_id, outcome.result, conversation.runtime.policy.mode)
            if mode is not None:  # approved: the same prompt goes on, out of plan mode, with the plan
                session.running = asyncio.ensure_future(conversation.approve_plan(outcome.result, mode))
                outcome = await asyncio.shield(session.running)
                await session.queue.join()
        if outcome.exit_code == 130:
            return PromptResponse(stop_reason="cancelled")
        if outcome.status in (Status.ERROR, Status.STUCK):
            await self.client.session_update(session_id=session_id, update=_agent_text(f"\n\n[{outcome.detail}]"))
        if outcome.stop_reason in ("refusal", "max_tokens"):  # the model stopped: say why, as ACP can
            return PromptResponse(stop_reason=outcome.stop_reason)
        return PromptResponse(stop_reason=_STOP.get(outcome.status, "end_turn"))

    async def cancel(self, session_id: str, **kwargs: Any) -> None:
        session = self.sessions.get(session_id)
        if session is not None and session.running is not None and not session.running.done():
            session.running.cancel()

    async def close(self) -> None:
        for session in self.sessions.values():
            await _end(session)

    # -- sessions --------------------------------------------------------------------------

    def _open(self, options: LaunchOptions) -> EditorSession:
        if options.resume:  # the model the editor chose for it last, over the one `tui acp` was started with
            options = replace(options, model=stored_model(options.state_dir, options.resume) or options.model)
        confirmer = EditorConfirmer(self)
        try:
            launched = launch(options, confirmer=confirmer)
        except OpenHandsTUIError as exc:
            raise RequestError.invalid_params({"message": str(exc)}) from None
        session = EditorSession(launched)
        session_id = launched.log.id
        confirmer.session_id = session_id
        self.sessions[session_id] = session
        log_to_session(launched)
        launched.conversation.bus.subscribe(lambda event: self._forward(session, event))
        session.sender = asyncio.ensure_future(self._send(session_id, session))
        # the session's `/` commands, told as soon as the editor knows the session (after the answer)
        session.translator.microagents = [skill.info() for skill in launched.conversation.runtime.microagents.skills]
        for update in session.translator.commands():
            asyncio.get_running_loop().call_soon(session.queue.put_nowait, update)
        return session

    async def _connect_servers(self, session: EditorSession, mcp_servers: Any) -> None:
        """The editor's MCP servers join the session's (for its root agent); they start now,
        in the background, and the first prompt waits for them only before calling the model."""
        servers, problems = client_servers(mcp_servers)
        runtime = session.launched.conversation.runtime
        runtime.mcp_servers.update(servers)
        if runtime.mcp is not None and servers:
            runtime.mcp.start(servers)
        for problem in problems:
            logger.warning(problem)
            await self.client.session_update(
                session_id=session.launched.log.id, update=_agent_text(f"tui: {problem}\n")
            )

    def _forward(self, session: EditorSession, event: Event) -> None:
        """On the engine's (this) loop, for every event: queue its updates, in order."""
        for update in session.translator.updates(event):
            session.queue.put_nowait(update)

    async def _send(self, session_id: str, session: EditorSession) -> None:
        while True:
            update = await session.queue.get()
            try:
                await self.client.session_update(session_id=session_id, update=update)
            except Exception:  # the editor went away mid-turn: keep draining, the run stops soon
                logger.warning("could not send a session update", exc_info=True)
            finally:
                session.queue.task_done()

    def _session(self, session_id: str) -> EditorSession:
        session = self.sessions.get(session_id)
        if session is None:
            raise RequestError.invalid_params({"sessionId": f"no session {session_id!r} in this connection"})
        return session

    def _options(self, session: EditorSession) -> list[Any]:
        launched = session.launched
        return [model_option(launched.conversation, launched.workspace, self.options.state_dir)]

    def _modes(self, session: EditorSession) -> SessionModeState:
        runtime = session.launched.conversation.runtime
        current = PLAN_MODE.id if runtime.plan_mode else runtime.policy.mode.value
        return SessionModeState(current_mode_id=current, available_modes=MODES)


async def _end(session: EditorSession) -> None:
    if session.running is not None and not session.running.done():
        session.running.cancel()
        await asyncio.gather(session.running, return_exceptions=True)
    await session.launched.conversation.close()
    if session.sender is not None:
        session.sender.cancel()


def _restore_mode(launched: Launched) -> None:
    """The mode the editor chose last time (the stored session's last policy event) is the
    loaded session's mode again: set quietly, since the switch is already on record."""
    last = next((e for e in reversed(launched.history) if isinstance(e, PolicyChangedEvent)), None)
    if last is None:
        return
    runtime = launched.conversation.runtime
    runtime.policy = ConfirmationPolicy(mode=ConfirmationMode(last.mode), threshold=last.threshold)
    runtime.plan_mode = last.plan


def _prompt(blocks: list[Any]) -> tuple[str, Given]:
    """The prompt's text, and what the editor attached: image blocks as the message's images
    (checked like any: their bytes, their size; a bad one refuses the prompt in one line), text
    resources as file context on the message."""
    parts: list[str] = []
    images: list[ImageData] = []
    files: list[GivenFile] = []
    for block in blocks:
        kind = getattr(block, "type", "")
        if kind == "text":
            parts.append(block.text)
        elif kind == "image":
            images.append(_image(block, len(images) + 1))
        elif kind == "resource":
            resource = block.resource
            text = getattr(resource, "text", None)
            if text is not None:
                files.append(GivenFile(name=_resource_name(resource.uri), text=text))
            else:
                parts.append(f"(attached binary resource {resource.uri}, not shown)")
        elif kind == "resource_link":
            parts.append(f"(see {block.uri})")
        elif kind == "audio":
            parts.append("(an attached audio clip was left out: this agent reads text and images)")
    text = "\n\n".join(parts)
    if over_the_limit(text + "".join(f.text for f in files)):  # the bound every door has (sdk/limits.py)
        raise SettingsError(
            f"the prompt (with its attached text) is over the {MAX_INPUT_BYTES:,}-byte limit; nothing was sent"
        )
    return text, Given(images=images, files=files)


def _image(block: Any, number: int) -> ImageData:
    """An image block's bytes, checked; AttachmentRefused (said to the editor) if not an image."""
    name = _resource_name(block.uri) if getattr(block, "uri", None) else f"image-{number}"
    try:
        data = base64.b64decode(block.data, validate=True)
        return checked_image(name, data, declared=block.mime_type)
    except (ValueError, binascii.Error) as exc:  # ImageRefused is a ValueError
        why = str(exc) if isinstance(exc, ImageRefused) else f"{name}: its data is not base64"
        raise AttachmentRefused(f"image not sent: {why}") from None


def _resource_name(uri: str) -> str:
    """`file:///home/me/src/app.py` as the path it names; any other URI as it is."""
    return uri.removeprefix("file://") or uri


def _agent_text(text: str) -> Any:
    from acp.helpers import update_agent_message_text

    return update_agent_message_text(text)


async def serve(options: LaunchOptions) -> None:
    """Answer one editor on stdin/stdout until it closes the connection. Once the protocol owns
    stdout, anything else that prints (a library, a stray warning) goes to stderr instead."""
    from acp import AgentSideConnection
    from acp.stdio import stdio_streams

    from openhands_tui.acp.guarded_input import guarded

    agent = EditorAgent(options)
    reader, writer = await stdio_streams()
    sys.stdout = sys.stderr
    _log_one_line_per_problem()
    # session/resume, /fork and /close are "unstable" in this schema: served, and advertised
    connection = AgentSideConnection(
        agent, writer, guarded(reader, writer), listening=False, use_unstable_protocol=True
    )
    try:
        await connection.listen()
    finally:
        await agent.close()
        await asyncio.shield(connection.close())


class _OneLine(logging.Formatter):
    """A record and its exception on one line: an editor shows our stderr in its log, where a
    garbled message from it should read as one problem, not a traceback."""

    def format(self, record: logging.LogRecord) -> str:
        text = f"tui acp: {record.getMessage()}"
        if record.exc_info and record.exc_info[1] is not None:
            error = record.exc_info[1]
            text += f": {type(error).__name__}: {' '.join(str(error).split())}"
        return text[:2000]


def _log_one_line_per_problem() -> None:
    handler = logging.StreamHandler(sys.stderr)
    handler.setFormatter(_OneLine())
    root = logging.getLogger()
    root.handlers[:] = [handler]
    root.setLevel(logging.WARNING)


__all__ = ["EditorAgent", "serve"]
