"""Engine events -> ACP `session/update` notifications, for one session.

An editor shows: the root agent's text and thinking as message chunks, its tool calls with a
kind, status, locations and content (a diff for an edit, the output of a command), its plan
(the task tracker), and every delegated agent as a tool call of its own whose updates carry
that agent's progress, so the editor can show the delegation tree. Everything is read from
the events (subjects say what a call touches); nothing here knows a tool by its name.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from acp.helpers import (
    plan_entry,
    start_tool_call,
    text_block,
    tool_content,
    tool_diff_content,
    update_agent_message_text,
    update_agent_thought_text,
    update_available_commands,
    update_current_mode,
    update_plan,
    update_tool_call,
    update_user_message_text,
)
from acp.schema import AvailableCommand, ToolCallLocation, ToolCallStatus

from openhands_tui.sdk.facts.event import (
    ActionEvent,
    AgentErrorEvent,
    CriticResultEvent,
    DelegationClosedEvent,
    DelegationOpenedEvent,
    Event,
    HookRanEvent,
    MCPServersEvent,
    MCPServerStatus,
    MessageEvent,
    MicroagentsLoadedEvent,
    ObservationEvent,
    PolicyChangedEvent,
    TextDeltaEvent,
)
from openhands_tui.sdk.facts.offered_commands import offered_commands
from openhands_tui.sdk.facts.subject import (
    Delegation,
    FileChange,
    Finish,
    MCPCall,
    NetworkRequest,
    OtherSubject,
    ShellCommand,
    Subject,
)
from openhands_tui.sdk.terminal_text import strip_controls
from openhands_tui.verdict_lines import critic_line, hook_line

#: How many of a child's recent steps its tool call shows.
PROGRESS_LINES = 12
_DONE = {"finished": "completed", "rejected": "failed", "failed": "failed", "limit": "failed", "interrupted": "failed"}


def tool_kind(subject: Subject | None) -> str:
    if isinstance(subject, ShellCommand):
        return "execute"
    if isinstance(subject, FileChange):
        return "read" if subject.operation == "view" else "edit"
    if isinstance(subject, NetworkRequest):
        return "fetch"
    if isinstance(subject, MCPCall):
        return "read" if subject.annotations.read_only else "other"
    if isinstance(subject, OtherSubject) and subject.category == "think":
        return "think"
    return "other"


def locations(subject: Subject | None) -> list[ToolCallLocation] | None:
    if isinstance(subject, FileChange):
        return [ToolCallLocation(path=subject.path)]
    return None


@dataclass
class UpdateTranslator:
    """Folds one session's events into the updates to send. `root` is the root agent's id."""

    root: str = "root"
    #: Tool calls of the root that finish the turn (their result is the final message).
    finishing: set[str] = field(default_factory=set)
    #: A delegated agent's tool-call id, by agent id, and its recent progress lines.
    children: dict[str, str] = field(default_factory=dict)
    progress: dict[str, list[str]] = field(default_factory=dict)
    streamed: set[str] = field(default_factory=set)
    delegating: set[str] = field(default_factory=set)
    #: What the session's commands are built from (the latest microagents and MCP servers seen),
    #: and the names last sent, so the editor is told only when they change.
    microagents: list[dict[str, Any]] = field(default_factory=list)
    servers: list[MCPServerStatus] = field(default_factory=list)
    commands_sent: list[tuple[str, str]] | None = None

    def updates(self, event: Event, replay: bool = False) -> list[Any]:
        """The notifications for one event (replaying a stored session: whole messages, no deltas)."""
        if event.agent_id != self.root:
            return self._child(event)
        if isinstance(event, TextDeltaEvent) and not replay:
            text = strip_controls(event.delta)
            if not text:
                return []
            self.streamed.add(event.response_id)
            return [update_agent_thought_text(text) if event.thinking else update_agent_message_text(text)]
        if isinstance(event, MessageEvent):
            return self._message(event, replay)
        if isinstance(event, ActionEvent):
            return self._action(event)
        if isinstance(event, ObservationEvent):
            return self._observation(event)
        if isinstance(event, AgentErrorEvent) and event.tool_call_id:
            return [update_tool_call(event.tool_call_id, status="failed", content=[_text(event.error)])]
        if isinstance(event, MicroagentsLoadedEvent | MCPServersEvent):
            return self.commands(event)
        if isinstance(event, PolicyChangedEvent):
            return [update_current_mode("plan" if event.plan else event.mode)]
        if isinstance(event, DelegationOpenedEvent | DelegationClosedEvent):
            return self._child(event)
        if isinstance(event, CriticResultEvent) or (isinstance(event, HookRanEvent) and event.outcome != "ran"):
            line = critic_line(event) if isinstance(event, CriticResultEvent) else hook_line(event)
            return [update_agent_thought_text(strip_controls(line) + "\n")]  # what decided, said in passing
        return []

    def commands(self, event: MicroagentsLoadedEvent | MCPServersEvent | None = None) -> list[Any]:
        """The session's `/` commands as `available_commands_update`, when they changed (the
        same list the app offers: sdk/facts/offered_commands.py)."""
        if isinstance(event, MicroagentsLoadedEvent):
            self.microagents = list(event.microagents)
        elif isinstance(event, MCPServersEvent):
            self.servers = list(event.servers)
        offered = [(c.name, c.description) for c in offered_commands(self.microagents, self.servers)]
        if offered == self.commands_sent:
            return []
        self.commands_sent = offered
        return [update_available_commands([AvailableCommand(name=name, description=text) for name, text in offered])]

    def _message(self, event: MessageEvent, replay: bool) -> list[Any]:
        text = strip_controls(event.content)
        if event.role == "user":
            return [update_user_message_text(text)] if replay and text else []
        if event.response_id in self.streamed or not text:
            return []  # already sent as chunks
        return [update_agent_message_text(text)]

    def _action(self, event: ActionEvent) -> list[Any]:
        subject = event.subject
        if isinstance(subject, Finish):
            self.finishing.add(event.tool_call_id)
            return []
        if isinstance(subject, Delegation):
            self.delegating.add(event.tool_call_id)
            return []  # each child becomes a tool call of its own when it opens
        content = []
        if isinstance(subject, FileChange) and subject.operation in ("create", "edit", "insert"):
            content = [tool_diff_content(subject.path, subject.after or "", subject.before)]
        return [
            start_tool_call(
                event.tool_call_id,
                strip_controls(event.summary),
                kind=tool_kind(subject),  # type: ignore[arg-type]
                status="pending",
                content=content or None,
                locations=locations(subject),
                raw_input=event.arguments,
            )
        ]

    def _observation(self, event: ObservationEvent) -> list[Any]:
        text = strip_controls(event.content)
        if event.tool_call_id in self.finishing:
            return [update_agent_message_text(("\n\n" if text else "") + text)] if event.outcome == "ok" else []
        tasks = event.data.get("tasks")
        updates: list[Any] = []
        if isinstance(tasks, list) and tasks:
            updates.append(update_plan([_plan_entry(task) for task in tasks]))
        if event.tool_call_id in self.delegating:
            return []  # the children's own tool calls carry their reports
        status: ToolCallStatus = "completed" if event.outcome == "ok" else "failed"
        updates.append(
            update_tool_call(event.tool_call_id, status=status, content=[_text(text)], raw_output=_raw(text))
        )
        return updates

    def _child(self, event: Event) -> list[Any]:
        if isinstance(event, DelegationOpenedEvent):
            call = f"agent-{event.agent_id}"
            self.children[event.agent_id] = call
            self.progress[event.agent_id] = []
            title = f"{event.agent_name} ({event.agent_id}): {strip_controls(event.task).splitlines()[0][:100]}"
            return [start_tool_call(call, title, kind="other", status="in_progress", raw_input={"task": event.task})]
        known = self.children.get(event.agent_id)
        if known is None:
            return []
        call = known
        if isinstance(event, DelegationClosedEvent):
            body = strip_controls(event.result or event.reason or event.status)
            status = _DONE.get(event.status, "failed")
            return [update_tool_call(call, status=status, content=[_text(body)], raw_output=_raw(body))]  # type: ignore[arg-type]
        line = _progress_line(event)
        if line is None:
            return []
        lines = self.progress[event.agent_id]
        lines.append(line)
        del lines[:-PROGRESS_LINES]
        return [update_tool_call(call, status="in_progress", content=[_text("\n".join(lines))])]


def _progress_line(event: Event) -> str | None:
    if isinstance(event, ActionEvent) and not isinstance(event.subject, Finish):
        return f"▸ {strip_controls(event.summary)}"
    if isinstance(event, ObservationEvent) and event.outcome != "ok":
        return f"  ✗ {event.outcome}"
    if isinstance(event, MessageEvent) and event.role == "assistant" and event.content.strip():
        return strip_controls(event.content.strip().splitlines()[0])[:200]
    return None


def _plan_entry(task: Any) -> Any:
    status = {"todo": "pending", "in_progress": "in_progress", "done": "completed"}.get(task.get("status"), "pending")
    return plan_entry(strip_controls(str(task.get("title", ""))), status=status)  # type: ignore[arg-type]


def _raw(text: str) -> dict[str, str]:
    """A call's raw output, always a JSON object: the current schema takes any value, but
    clients on the earlier schema (Zed's example client among them) require an object there
    and drop the whole completion otherwise, leaving the call "pending" forever."""
    return {"output": text}


def _text(text: str) -> Any:
    return tool_content(text_block(text))
