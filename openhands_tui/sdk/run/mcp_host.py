"""The session's side of what MCP servers ask of it (`sdk/mcp_host.py`): progress becomes an
event, roots are the workspace, questions go to the user through the confirmer, model requests
go through the session's model after the user approved them and are charged to the session.

Everything a server sends is untrusted text: the client strips escape sequences before it gets
here; what is shown is cut to one line. A server's model request is capped
(MAX_SAMPLING_TOKENS) whatever it asks for, is sent with the calling agent's model, and its
usage is recorded as that agent's (`LLMUsageEvent`), so the tree's cost and the session's
budget count it like any other call.
"""

from __future__ import annotations

import time
from pathlib import Path
from typing import TYPE_CHECKING, Any

from openhands_tui.sdk.facts.event import AgentErrorEvent, ConfirmationRequestEvent, Risk, new_id
from openhands_tui.sdk.facts.progress_event import ToolProgressEvent
from openhands_tui.sdk.facts.subject import MCPCall
from openhands_tui.sdk.mcp_host import (
    ElicitationAnswer,
    ElicitationRequest,
    Elicitor,
    SamplingAnswer,
    SamplingRefused,
    SamplingRequest,
    ToolProgress,
)

if TYPE_CHECKING:
    from openhands_tui.sdk.run.runtime import Runtime

#: Longest answer a server's model request gets, whatever `maxTokens` it asked for.
MAX_SAMPLING_TOKENS = 4_096
#: Progress of one call is published at most this often (the last step always is).
PROGRESS_INTERVAL_S = 0.2
#: Characters of a server's message shown in a notice or a progress line.
_SHOWN = 160


class SessionMCPHost:
    """Implements `MCPHost` on a run's runtime."""

    def __init__(self, runtime: Runtime) -> None:
        self.runtime = runtime
        self._last_progress: dict[str, float] = {}

    def roots(self) -> list[Path]:
        return [self.runtime.workspace]

    def progress(self, update: ToolProgress) -> None:
        now = time.monotonic()
        last = self._last_progress.get(update.tool_call_id)
        done = update.total is not None and update.progress >= update.total
        if last is not None and now - last < PROGRESS_INTERVAL_S and not done:
            return
        self._last_progress[update.tool_call_id] = now
        self.runtime.bus.publish(
            ToolProgressEvent(
                agent_id=update.agent_id,
                tool_call_id=update.tool_call_id,
                progress=update.progress,
                total=update.total,
                message=_one_line(update.message),
            )
        )

    async def elicit(self, request: ElicitationRequest) -> ElicitationAnswer:
        confirmer = self.runtime.confirmer
        if isinstance(confirmer, Elicitor):
            return await confirmer.elicit(request)
        self._notice(
            request.agent_id,
            f"MCP server {request.server!r} asked the user a question ({_one_line(request.message)}); "
            "no one can answer it here, so it was declined",
        )
        return ElicitationAnswer(action="decline")

    async def sample(self, request: SamplingRequest, policy: str) -> SamplingAnswer:
        run = self.runtime.open_agents.get(request.agent_id) or self.runtime.open_agents.get("root")
        if run is None:
            raise SamplingRefused("no agent of this session is running to answer it")
        if policy == "refuse":
            raise SamplingRefused("this client's configuration refuses model requests from this server")
        if policy != "allow":
            await self._approve(request, run)
        llm = getattr(run, "agent").llm  # noqa: B009 - AgentRun, imported lazily to keep this module light
        capped = llm.model_copy(update={"max_output_tokens": min(request.max_tokens, MAX_SAMPLING_TOKENS)})
        messages: list[dict[str, Any]] = []
        if request.system_prompt:
            messages.append({"role": "system", "content": request.system_prompt})
        messages += [{"role": role, "content": text} for role, text in request.messages]
        response = await capped.complete(messages)
        getattr(run, "model_calls").record_usage(response, new_id(), llm.model)  # noqa: B009
        stop = "maxTokens" if response.finish_reason == "length" else "endTurn"
        return SamplingAnswer(text=response.text, model=llm.model, stop_reason=stop)

    async def _approve(self, request: SamplingRequest, run: Any) -> None:
        """Ask the user (the confirmer) whether the server's request may go to the model."""
        shown = "\n".join(f"{role}: {text}" for role, text in request.messages)
        asked = ConfirmationRequestEvent(
            agent_id=request.agent_id,
            parent_agent_id=getattr(run, "parent_id", None),
            action_id=new_id(),
            tool_call_id=request.tool_call_id or new_id(),
            tool_name=request.tool_name or f"{request.server} (sampling)",
            summary=f"MCP server {request.server} asks your model: {_one_line(shown, 400)}",
            arguments={"system": request.system_prompt, "messages": shown, "max_tokens": request.max_tokens},
            subject=MCPCall(server=request.server, tool="sampling/createMessage", arguments={"messages": shown}),
            risk=Risk.MEDIUM,
            reasons=[
                f"the server wants an answer from your model (up to {min(request.max_tokens, MAX_SAMPLING_TOKENS):,} "
                "tokens), charged to this session"
            ],
            rules=["mcp:sampling"],
            chain=[request.agent_id],
        )
        decision = await self.runtime.confirmer.confirm(asked)
        if not decision.approved:
            why = f": {_one_line(decision.reason)}" if decision.reason else ""
            raise SamplingRefused(f"the user did not approve the model request{why}")

    def _notice(self, agent_id: str, text: str) -> None:
        self.runtime.bus.publish(AgentErrorEvent(agent_id=agent_id, error=text))


def _one_line(text: str, limit: int = _SHOWN) -> str:
    line = " ".join(text.split())
    return line if len(line) <= limit else line[: limit - 1] + "…"
