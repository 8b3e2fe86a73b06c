"""What the app shows, folded from engine events — plain Python, no widgets.

The app applies every event here and then redraws what changed. Keeping the fold apart from
the widgets makes it testable on its own and lets a resumed or viewed session show exactly
what the live one did: the same events give the same transcripts and the same tree.
"""

from __future__ import annotations

from typing import Any, Literal

from openhands_tui.sdk.facts.event import (
    ActionEvent,
    AgentErrorEvent,
    CheckpointEvent,
    ChildChangesEvent,
    CondensationEvent,
    ConfirmationRequestEvent,
    ConfirmationResolvedEvent,
    CriticResultEvent,
    DelegationClosedEvent,
    DelegationOpenedEvent,
    Event,
    HookRanEvent,
    JobEvent,
    LLMUsageEvent,
    MCPServersEvent,
    MCPServerStatus,
    MessageEvent,
    MicroagentsLoadedEvent,
    MicroagentTriggeredEvent,
    ModelChangedEvent,
    ObservationEvent,
    PlanProposedEvent,
    PolicyChangedEvent,
    RewindEvent,
    SessionForkedEvent,
    StatusEvent,
    SystemPromptEvent,
    TextDeltaEvent,
    ToolProgressEvent,
)
from openhands_tui.sdk.facts.subject import Delegation, Finish
from openhands_tui.sdk.facts.tree import DelegationTree
from openhands_tui.sdk.terminal_text import strip_controls
from openhands_tui.tui.entry import Entry as Entry  # re-exported: widgets import it from here
from openhands_tui.tui.entry import EntryKind as EntryKind
from openhands_tui.tui.entry import shown
from openhands_tui.tui.notice_lines import NoticeLines
from openhands_tui.tui.usage import Usage

#: After the text of an answer whose stream failed (the model is asked again).
CUT_OFF_MARK = " … [cut off: the model is asked again]"


class SessionView(NoticeLines):
    """Transcripts per agent, the delegation tree, pending questions, usage and status."""

    def __init__(self) -> None:
        self.tree = DelegationTree()
        self.transcripts: dict[str, list[Entry]] = {}
        self.names: dict[str, str] = {}
        self.models: dict[str, str] = {}
        self.usage = Usage()
        self.microagents: MicroagentsLoadedEvent | None = None
        self.triggered: list[MicroagentTriggeredEvent] = []
        self.pending: dict[str, ConfirmationRequestEvent] = {}
        self.policy: PolicyChangedEvent | None = None
        #: The last plan a planning run ended with, while it waits for the user (None: none waits).
        self.plan: str | None = None
        #: The session's MCP servers and how each is doing, as the engine last said.
        self.mcp_servers: list[MCPServerStatus] = []
        #: Background jobs by agent and id, as their last event said.
        self.jobs: dict[tuple[str, str], JobEvent] = {}
        self.root_status = "idle"
        self.root_detail = ""
        self.events_seen = 0
        self._tools: dict[tuple[str, str], Entry] = {}
        self._streams: dict[str, Entry] = {}
        self._thinking: dict[str, Entry] = {}
        self._children: dict[str, Entry] = {}
        self._finishing: set[tuple[str, str]] = set()
        self._parallel: dict[str, tuple[str, str | None]] = {}
        #: What the session's checkpoints already said (a problem once; the same skipped files once).
        self._checkpoints_said: tuple[bool, list[str]] = (False, [])
        #: The notice of the rewind the next /rewind can undo (its hint goes when another comes).
        self._undoable: Entry | None = None

    def settle(self) -> set[str]:
        """Stored history runs nothing until you type: an agent left running or waiting when the
        session stopped shows as interrupted, a question never answered as not answered."""
        changed: set[str] = set()
        for node in self.tree.nodes.values():
            if node.status in ("running", "waiting_for_confirmation"):
                node.status = "interrupted"
                changed.add(node.agent_id)
        for request in self.pending.values():
            self._mark_tool(request.agent_id, request.tool_call_id, "not answered")
            changed.add(request.agent_id)
        self.pending.clear()
        if self.root_status in ("running", "waiting_for_confirmation"):
            self.root_status = "paused"
        return changed

    def transcript(self, agent_id: str) -> list[Entry]:
        return self.transcripts.setdefault(agent_id, [])

    def note(self, agent_id: str, text: str) -> str:
        """A notice the app adds to an agent's transcript (`/context`'s table): shown as plain
        text, never as markup, like every entry. Returns the agent whose transcript changed."""
        self._add(Entry("notice", agent_id, strip_controls(text)))
        return agent_id

    def _add(self, entry: Entry) -> Entry:
        self.transcript(entry.agent_id).append(entry)
        return entry

    def apply(self, event: Event) -> set[str]:
        """Fold one event in; returns the ids of agents whose transcript changed. Text a model, a
        command or a file produced never reaches the screen with its escape sequences."""
        self.events_seen += 1
        event = shown(event)
        self.tree.apply(event)
        handler = _HANDLERS.get(type(event))
        if handler is None:
            return set()
        changed: set[str] = handler(self, event)
        return changed

    # -- per event kind --------------------------------------------------------------------

    def _system(self, event: SystemPromptEvent) -> set[str]:
        self.names.setdefault(event.agent_id, event.agent_name)
        self.models[event.agent_id] = event.model
        self.transcript(event.agent_id)
        return {event.agent_id}

    def _message(self, event: MessageEvent) -> set[str]:
        if event.role == "user":
            data = {  # source: a critic or hook sent it; attachments: `📎 shot.png (34 KB)`, `@src/app.py (2.1 KB)`
                "context": len(event.context) - len(event.files),
                "source": event.source,
                "attachments": event.attachment_labels(),
            }
            self._add(Entry("user", event.agent_id, event.content, data))
            return {event.agent_id}
        stream = self._streams.pop(event.agent_id, None)
        thought = self._thinking.pop(event.agent_id, None)
        if thought is not None:
            self._finish_thought(thought, event)
        elif event.thinking:
            self._thought(event, before=stream)
        if stream is not None:
            stream.text, stream.streaming = event.content, False
            stream.touch()
        elif event.content.strip():
            self._add(Entry("assistant", event.agent_id, event.content))
        return {event.agent_id}

    def _thought(self, event: MessageEvent, before: Entry | None) -> None:
        """A folded "thinking" entry, above the text it led to (which may have streamed already)."""
        entry = Entry("thinking", event.agent_id)
        self._finish_thought(entry, event)
        transcript = self.transcript(event.agent_id)
        position = next((i for i, e in enumerate(transcript) if e is before), len(transcript))
        transcript.insert(position, entry)

    @staticmethod
    def _finish_thought(entry: Entry, event: MessageEvent) -> None:
        entry.text = "\n\n".join(b.get("thinking") or "" for b in event.thinking if b.get("thinking"))
        redacted = sum(1 for b in event.thinking if b.get("type") == "redacted_thinking")
        entry.data.update(blocks=len(event.thinking), redacted=redacted)
        entry.streaming = False
        entry.touch()

    def _delta(self, event: TextDeltaEvent) -> set[str]:
        if event.thinking:
            thought = self._thinking.get(event.agent_id)
            if thought is None:
                thought = self._add(Entry("thinking", event.agent_id, "", streaming=True))
                self._thinking[event.agent_id] = thought
            thought.text += event.delta
            thought.touch()
            return {event.agent_id}
        stream = self._streams.get(event.agent_id)
        if stream is None:
            stream = self._add(Entry("assistant", event.agent_id, "", streaming=True))
            self._streams[event.agent_id] = stream
        stream.text += event.delta
        stream.touch()
        return {event.agent_id}

    def _action(self, event: ActionEvent) -> set[str]:
        if isinstance(event.subject, Delegation | Finish):
            if isinstance(event.subject, Finish):
                self._finishing.add((event.agent_id, event.tool_call_id))
            return set()  # delegations get their own entries; finish shows its message when it lands
        group = (event.agent_id, event.response_id)
        if event.parallel > 1 and self._parallel.get(event.agent_id) != group:
            self._parallel[event.agent_id] = group  # one heading for the calls that ran side by side
            self._add(Entry("notice", event.agent_id, f"⇉ {event.parallel} calls side by side"))
        elif event.parallel <= 1:
            self._parallel.pop(event.agent_id, None)
        entry = self._add(Entry("tool", event.agent_id, event.summary, {"action": event}))
        self._tools[(event.agent_id, event.tool_call_id)] = entry
        return {event.agent_id}

    def _observation(self, event: ObservationEvent) -> set[str]:
        entry = self._tools.get((event.agent_id, event.tool_call_id))
        if entry is not None:
            entry.data["observation"] = event
            entry.touch()
        elif (event.agent_id, event.tool_call_id) in self._finishing and event.outcome == "ok":
            self._add(Entry("assistant", event.agent_id, event.content, {"final": True}))
        return {event.agent_id}

    def _progress(self, event: ToolProgressEvent) -> set[str]:
        """How far a running call has got (its server said): on the call's line until it ends."""
        entry = self._tools.get((event.agent_id, event.tool_call_id))
        if entry is None or "observation" in entry.data:
            return set()
        entry.data["progress"] = event.line()
        entry.touch()
        return {event.agent_id}

    def _error(self, event: AgentErrorEvent) -> set[str]:
        entry = self._tools.get((event.agent_id, event.tool_call_id or ""))
        if entry is not None:
            entry.data["error"] = event.error
            entry.touch()
        else:
            self._abandon_streams(event.agent_id)
            self._add(Entry("notice", event.agent_id, event.error, level="warning"))
        return {event.agent_id}

    def _abandon_streams(self, agent_id: str) -> None:
        """A model call failed while its answer streamed (it is retried): what came of it stays,
        marked cut off, and the retry streams into an entry of its own."""
        for stream in (self._streams.pop(agent_id, None), self._thinking.pop(agent_id, None)):
            if stream is not None:
                stream.text, stream.streaming = f"{stream.text}{CUT_OFF_MARK}", False
                stream.data["cut_off"] = True
                stream.touch()

    def _usage(self, event: LLMUsageEvent) -> set[str]:
        self.usage.prompt_tokens += event.prompt_tokens
        self.usage.completion_tokens += event.completion_tokens
        self.usage.cost += event.cost or 0.0
        self.usage.last_prompt_tokens = event.prompt_tokens
        self.usage.cache_read_tokens += event.cache_read_tokens
        self.usage.cache_write_tokens += event.cache_write_tokens
        return set()

    def _status(self, event: StatusEvent) -> set[str]:
        if event.parent_agent_id is None:
            self.root_status, self.root_detail = event.status.value, event.detail
        if event.status.value in ("error", "stuck") or (event.status.value == "paused" and event.detail):
            level: Literal["error", "warning"] = "error" if event.status.value in ("error", "stuck") else "warning"
            hint = " — type a message to continue" if event.parent_agent_id is None else ""
            self._add(Entry("notice", event.agent_id, f"{event.status.value}: {event.detail}{hint}", level=level))
        elif event.status.value == "finished" and event.parent_agent_id is None:
            tokens = self.usage.prompt_tokens + self.usage.completion_tokens
            cost = f" · ${self.usage.cost:.4f}" if self.usage.cost else ""
            hit = self.usage.cache_hit
            cache = f" ({100 * hit:.0f}% of input from the prompt cache)" if hit is not None else ""
            self._add(Entry("notice", event.agent_id, f"● finished · {tokens:,} tokens{cache}{cost}"))
        return {event.agent_id}

    def _asked(self, event: ConfirmationRequestEvent) -> set[str]:
        self.pending[event.action_id] = event
        self._mark_tool(event.agent_id, event.tool_call_id, "waiting for you")
        return {event.agent_id}

    def _resolved(self, event: ConfirmationResolvedEvent) -> set[str]:
        request = self.pending.pop(event.action_id, None)
        verdict = "approved" if event.approved else "rejected"
        who = " by you" if event.decided_by == "user" else f" ({event.decided_by})"  # y, or which rule
        if request is not None:
            self._mark_tool(request.agent_id, request.tool_call_id, f"{verdict}{who}")
        else:  # decided by a rule without asking
            for entry in reversed(self.transcript(event.agent_id)):
                if entry.kind == "tool" and entry.data["action"].id == event.action_id:
                    entry.data["decision"] = f"{verdict}{who}"
                    entry.touch()
                    break
        return {event.agent_id}

    def _mark_tool(self, agent_id: str, tool_call_id: str, decision: str) -> None:
        entry = self._tools.get((agent_id, tool_call_id))
        if entry is not None:
            entry.data["decision"] = decision
            entry.touch()

    def _opened(self, event: DelegationOpenedEvent) -> set[str]:
        parent = event.parent_agent_id or ""
        self.names[event.agent_id] = event.agent_name
        entry = self._add(
            Entry(
                "delegation",
                parent,
                event.task,
                {"child": event.agent_id, "agent": event.agent_name, "status": "running"},
            )
        )
        self._children[event.agent_id] = entry
        self.transcript(event.agent_id)
        return {parent, event.agent_id}

    def _closed(self, event: DelegationClosedEvent) -> set[str]:
        entry = self._children.get(event.agent_id)
        if entry is not None:
            entry.data.update(
                status=event.status,
                result=event.result,
                reason=event.reason,
                tokens=event.tokens,
                elapsed=event.elapsed_s,
            )
            entry.touch()
        return {event.parent_agent_id or "", event.agent_id}

    def _loaded(self, event: MicroagentsLoadedEvent) -> set[str]:
        self.microagents = event
        # Over the always-on budget costs on every request, so it is said in the transcript;
        # other load problems wait in the microagents screen (ctrl+o).
        budget = [w for w in event.warnings if w.startswith("always-on context is")]
        if not budget:
            return set()
        others = len(event.warnings) - 1
        more = f" (+{others} more load warning{'s' if others > 1 else ''}: ctrl+o)" if others else ""
        self._add(Entry("notice", event.agent_id, f"microagents: {budget[0]}{more}", level="warning"))
        return {event.agent_id}

    def _fired(self, event: MicroagentTriggeredEvent) -> set[str]:
        self.triggered.append(event)
        self._add(Entry("microagent", event.agent_id, event.content, {"event": event}))
        return {event.agent_id}

    def _model_changed(self, event: ModelChangedEvent) -> set[str]:
        self.models[event.agent_id] = event.model
        was = f" (was {event.previous})" if event.previous else ""
        self._add(Entry("notice", event.agent_id, f"⇄ model: {event.model}{was}"))
        return {event.agent_id}

    def _condensed(self, event: CondensationEvent) -> set[str]:
        self._add(Entry("condensation", event.agent_id, event.summary, {"event": event}))
        return {event.agent_id}

    def _policy(self, event: PolicyChangedEvent) -> set[str]:
        self.policy = event
        if not event.plan:
            self.plan = None  # out of plan mode: no plan waits any more
        return set()

    @property
    def planning(self) -> bool:
        return self.policy is not None and self.policy.plan

    def _plan(self, event: PlanProposedEvent) -> set[str]:
        self.plan = event.plan
        return set()

    def _mcp_servers(self, event: MCPServersEvent) -> set[str]:
        self.mcp_servers = list(event.servers)
        return set()


_HANDLERS: dict[type, Any] = {
    SystemPromptEvent: SessionView._system,
    MessageEvent: SessionView._message,
    TextDeltaEvent: SessionView._delta,
    ActionEvent: SessionView._action,
    ObservationEvent: SessionView._observation,
    AgentErrorEvent: SessionView._error,
    LLMUsageEvent: SessionView._usage,
    StatusEvent: SessionView._status,
    ConfirmationRequestEvent: SessionView._asked,
    ConfirmationResolvedEvent: SessionView._resolved,
    DelegationOpenedEvent: SessionView._opened,
    DelegationClosedEvent: SessionView._closed,
    MicroagentsLoadedEvent: SessionView._loaded,
    MicroagentTriggeredEvent: SessionView._fired,
    PolicyChangedEvent: SessionView._policy,
    PlanProposedEvent: SessionView._plan,
    CondensationEvent: SessionView._condensed,
    ModelChangedEvent: SessionView._model_changed,
    MCPServersEvent: SessionView._mcp_servers,
    HookRanEvent: SessionView._hook,
    JobEvent: SessionView._job,
    ChildChangesEvent: SessionView._child_changes,
    ToolProgressEvent: SessionView._progress,
    CriticResultEvent: SessionView._critic,
    CheckpointEvent: SessionView._checkpoint,
    RewindEvent: SessionView._rewound,
    SessionForkedEvent: SessionView._forked,
}
