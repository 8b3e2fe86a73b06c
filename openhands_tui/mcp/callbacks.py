"""What one server may ask of us beyond tools, answered on the `mcp` SDK's `ClientSession`
callbacks: roots (the workspace), elicitation (the user, through the session's host), sampling
(the session's model, after approval), progress on a call, and its log messages.

The protocol's types stop here: the host (`sdk/mcp_host.py`) gets plain values, every text a
server sent stripped of escape sequences first. Until a session's host is attached (or with
none: a client used outside a session) the server is told the client cannot help, as the
SDK's defaults would; the capabilities are declared either way, so a server sees one client.

A server's question or model request is not tied to the call that caused it on the wire (stdio
carries no such link), so it is attributed to the server's latest call still running: the agent
that made it pays for the model request and is named when the user is asked.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from openhands_tui.sdk.mcp_host import (
    ElicitationRequest,
    FormField,
    MCPHost,
    SamplingRefused,
    SamplingRequest,
    ToolProgress,
)
from openhands_tui.sdk.terminal_text import safe_for_terminal

logger = logging.getLogger(__name__)

#: Fields a server's form may have (more are refused: no one fills in a hundred).
MAX_FORM_FIELDS = 20


@dataclass(frozen=True)
class RunningCall:
    agent_id: str
    tool_call_id: str
    tool: str


class ServerCallbacks:
    """The callbacks of one server's `ClientSession`; `host()` is the session's host (or None)."""

    def __init__(self, server: str, sampling: str, host: Callable[[], MCPHost | None]) -> None:
        self.server = server
        self.sampling = sampling
        self._host = host
        self.running: list[RunningCall] = []

    def session_arguments(self) -> dict[str, Any]:
        """Keyword arguments for `ClientSession`: every capability we have."""
        return {
            "sampling_callback": self.on_sampling,
            "elicitation_callback": self.on_elicitation,
            "list_roots_callback": self.on_list_roots,
            "logging_callback": self.on_log,
        }

    def _caller(self) -> RunningCall:
        return self.running[-1] if self.running else RunningCall("root", "", "")

    # -- progress --------------------------------------------------------------------------

    def progress_for(self, call: RunningCall) -> Callable[[float, float | None, str | None], Any]:
        async def on_progress(progress: float, total: float | None, message: str | None) -> None:
            host = self._host()
            if host is not None and call.tool_call_id:
                update = ToolProgress(
                    self.server, call.agent_id, call.tool_call_id, progress, total, _clean(message or "")
                )
                host.progress(update)

        return on_progress

    # -- roots -----------------------------------------------------------------------------

    async def on_list_roots(self, context: Any) -> Any:
        from mcp import types

        host = self._host()
        folders = host.roots() if host is not None else []
        return types.ListRootsResult(roots=[types.Root(uri=folder.as_uri(), name=folder.name) for folder in folders])

    # -- elicitation -----------------------------------------------------------------------

    async def on_elicitation(self, context: Any, params: Any) -> Any:
        from mcp import types

        host = self._host()
        if host is None:
            return types.ElicitResult(action="decline")
        if getattr(params, "mode", "form") != "form":  # a URL to open: not something we send users to
            return types.ElicitResult(action="decline")
        fields = form_fields(params.requested_schema)
        if fields is None:
            return types.ErrorData(code=types.INVALID_PARAMS, message="the form asks for more than primitive fields")
        caller = self._caller()
        request = ElicitationRequest(self.server, _clean(params.message), tuple(fields), caller.agent_id)
        answer = await host.elicit(request)
        if answer.action != "accept":
            return types.ElicitResult(action=answer.action)
        return types.ElicitResult(action="accept", content=dict(answer.content))

    # -- sampling --------------------------------------------------------------------------

    async def on_sampling(self, context: Any, params: Any) -> Any:
        from mcp import types

        host = self._host()
        if host is None:
            return types.ErrorData(code=types.INVALID_REQUEST, message="this client cannot answer model requests now")
        messages: list[tuple[str, str]] = []
        for message in params.messages:
            content = message.content if isinstance(message.content, list) else [message.content]
            texts = [part.text for part in content if getattr(part, "type", "") == "text"]
            if len(texts) != len(content):
                return types.ErrorData(code=types.INVALID_PARAMS, message="only text messages can be sampled here")
            messages.append((message.role, "\n".join(texts)))
        caller = self._caller()
        request = SamplingRequest(
            server=self.server,
            messages=tuple(messages),
            max_tokens=max(1, int(params.max_tokens)),
            system_prompt=params.system_prompt or "",
            temperature=params.temperature,
            stop=tuple(params.stop_sequences or ()),
            agent_id=caller.agent_id,
            tool_call_id=caller.tool_call_id,
            tool_name=caller.tool,
        )
        try:
            answer = await host.sample(request, self.sampling)
        except SamplingRefused as refused:
            return types.ErrorData(code=types.INVALID_REQUEST, message=str(refused))
        except Exception as exc:  # the model failed: the server hears why, the run goes on
            return types.ErrorData(code=types.INTERNAL_ERROR, message=f"the model request failed: {type(exc).__name__}")
        return types.CreateMessageResult(
            role="assistant",
            content=types.TextContent(type="text", text=answer.text),
            model=answer.model,
            stop_reason=answer.stop_reason,
        )

    # -- logging ---------------------------------------------------------------------------

    async def on_log(self, params: Any) -> None:
        """A server's log message goes to the session's log file, never to the screen."""
        logger.info("MCP server %s [%s]: %s", self.server, params.level, _clean(str(params.data))[:500])


def form_fields(schema: Any) -> list[FormField] | None:
    """The fields of an elicitation schema (an object of primitive properties); None when it
    asks for anything else (nested objects, arrays), which MCP does not allow."""
    if not isinstance(schema, dict) or not isinstance(schema.get("properties", {}), dict):
        return None
    properties: dict[str, Any] = schema.get("properties") or {}
    required = set(schema.get("required") or [])
    if len(properties) > MAX_FORM_FIELDS:
        return None
    fields: list[FormField] = []
    for name, spec in properties.items():
        if not isinstance(spec, dict):
            return None
        kind = spec.get("type")
        choices = spec.get("enum") or [
            option.get("const") for option in spec.get("oneOf") or [] if isinstance(option, dict)
        ]
        if kind == "string" and choices:
            kind = "enum"
        if kind not in ("string", "number", "integer", "boolean", "enum"):
            return None
        default = spec.get("default")
        fields.append(
            FormField(
                name=_clean(str(name))[:80],
                kind=kind,
                title=_clean(str(spec.get("title") or ""))[:80],
                description=_clean(str(spec.get("description") or ""))[:300],
                required=name in required,
                default=default if isinstance(default, str | int | float | bool) else None,
                choices=tuple(_clean(str(choice))[:80] for choice in choices if choice is not None),
            )
        )
    return fields


def _clean(text: str) -> str:
    return safe_for_terminal(text).strip()
