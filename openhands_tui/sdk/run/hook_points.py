"""Where a run calls the session's hooks, and what it does with their answers.

Each point builds the event's input, lets the hook engine run the matching hooks, and records
one `HookRanEvent` per hook (on the agent the event is about), so what every hook decided is in
the log and on screen. A hook's `continue: false` ends the run (`StoppedByHook`, handled by
the run loop like every ending); its `systemMessage` is said to the user. With no hooks for an
event, a point costs one lookup.
"""

from __future__ import annotations

import json
from typing import Any

from openhands_tui.sdk.facts.event import AgentErrorEvent, HookRanEvent
from openhands_tui.sdk.facts.subject import Subject
from openhands_tui.sdk.hooks.engine import HookOutcome, HookRan
from openhands_tui.sdk.hooks.payload import HookInput, ToolView
from openhands_tui.sdk.hooks.tool_names import arguments_from_claude, claude_view
from openhands_tui.sdk.llm.client import ToolCall
from openhands_tui.sdk.run.actor import Actor
from openhands_tui.sdk.run.confirmation import ConfirmationMode
from openhands_tui.sdk.run.outcome import StoppedByHook
from openhands_tui.sdk.run.runtime import Runtime
from openhands_tui.sdk.terminal_text import one_line

_PERMISSION_MODE = {
    ConfirmationMode.ALWAYS: "default",
    ConfirmationMode.RISKY: "default",
    ConfirmationMode.NEVER: "bypassPermissions",
}


def hook_input(
    runtime: Runtime,
    event: str,
    *,
    fields: dict[str, Any] | None = None,
    tool: ToolView | None = None,
    match_value: str | None = None,
) -> HookInput:
    log = runtime.bus.log
    return HookInput(
        event=event,
        session_id=log.id if log is not None else "",
        cwd=str(runtime.workspace),
        transcript_path=str(log.events_path) if log is not None else "",
        permission_mode=_PERMISSION_MODE.get(runtime.policy.mode, "default"),
        fields=fields or {},
        tool=tool,
        match_value=match_value,
    )


def record_hook(actor: Actor, ran: HookRan, tool_call_id: str | None = None) -> None:
    actor.record(
        HookRanEvent,
        event=ran.event,
        source=ran.source,
        hook=ran.hook,
        matcher=ran.matcher,
        outcome=ran.outcome,
        said=ran.said,
        exit_code=ran.exit_code,
        elapsed_ms=ran.elapsed_ms,
        tool_call_id=tool_call_id,
    )


async def fire(actor: Actor, runtime: Runtime, given: HookInput, tool_call_id: str | None = None) -> HookOutcome:
    """Run the hooks of one event; record what each said; stop the run if one asked to."""
    hooks = runtime.hooks_for(actor.agent_id)
    outcome = await hooks.run(given, report=lambda ran: record_hook(actor, ran, tool_call_id))
    for ran in outcome.ran:
        record_hook(actor, ran, tool_call_id)
    for message in outcome.system_messages:
        actor.record(AgentErrorEvent, error=f"{given.event} hook: {one_line(message)}")  # never a line of its own
    if outcome.stop is not None:
        raise StoppedByHook(outcome.stop)
    return outcome


def tool_view(
    tool_call_id: str,
    name: str,
    arguments: dict[str, Any],
    subject: Subject | None,
    response: dict[str, Any] | None = None,
) -> ToolView:
    claude_name, claude_input = claude_view(subject, arguments)
    return ToolView(tool_call_id, name, arguments, claude_name, claude_input, response)


def updated_call(call: ToolCall, arguments: dict[str, Any], updated: dict[str, Any], known: set[str]) -> ToolCall:
    """The call with a PreToolUse hook's `updatedInput` applied (Claude Code's argument names
    mapped onto ours; names the tool does not take are dropped)."""
    merged = {**arguments, **arguments_from_claude(updated, known)}
    kept = {key: value for key, value in merged.items() if key in known or key in arguments}
    return call.model_copy(update={"arguments": json.dumps(kept)})
