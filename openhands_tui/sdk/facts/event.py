"""Events: every fact the engine reports, as frozen pydantic models in one discriminated union.

Events are the engine's only output. The store appends them to `events.jsonl`, the headless
printer and the TUI subscribe to the same stream, and everything derived (chat history on
resume, the delegation tree, cost roll-ups) is rebuilt from them, so there is no second
source of truth. Each event names the agent that produced it and that agent's parent.
"""

from __future__ import annotations

from functools import lru_cache
from typing import TYPE_CHECKING, Annotated, Any, Literal

from pydantic import Field, TypeAdapter

from openhands_tui.sdk.facts.attachment import AttachedFile, AttachedImage
from openhands_tui.sdk.facts.child_changes_event import ChildChangesEvent as ChildChangesEvent  # re-exported
from openhands_tui.sdk.facts.event_base import EventBase, Status
from openhands_tui.sdk.facts.event_base import new_id as new_id  # re-exported: events' home, for callers
from openhands_tui.sdk.facts.event_base import use_deterministic_ids as use_deterministic_ids
from openhands_tui.sdk.facts.event_base import use_random_ids as use_random_ids
from openhands_tui.sdk.facts.job_event import JobEvent as JobEvent  # re-exported: every event is here
from openhands_tui.sdk.facts.progress_event import ToolProgressEvent as ToolProgressEvent  # re-exported
from openhands_tui.sdk.facts.risk import Risk  # events carry it; most code imports it from here
from openhands_tui.sdk.facts.session_event import (
    CheckpointEvent,
    ModelChangedEvent,
    RewindEvent,
    SessionForkedEvent,
)
from openhands_tui.sdk.facts.subject import Subject
from openhands_tui.sdk.model import Model

if TYPE_CHECKING:
    from openhands_tui.sdk.llm.message import Message


class SystemPromptEvent(EventBase):
    """An agent's system prompt and tool schemas: the fixed prefix of every request it makes."""

    kind: Literal["system_prompt"] = "system_prompt"
    agent_name: str
    model: str
    content: str
    tools: list[dict[str, Any]] = Field(default_factory=list)

    def to_llm_message(self) -> Message:
        """The SDK's `LLMConvertibleEvent.to_llm_message()`: this event as a chat message."""
        from openhands_tui.sdk.llm.message import Message

        return Message(role="system", content=self.content)


class MessageEvent(EventBase):
    """A user or assistant message. `context` holds blocks added for the model (workspace
    facts, microagent knowledge) that a UI may show separately from the text itself.
    `thinking` holds what an assistant thought first, as the provider returned it: Claude's
    `{"type": "thinking", "thinking", "signature"}` and `{"type": "redacted_thinking", "data"}`
    blocks are sent back exactly so (an empty signature marks a block kept for display only).
    `images` and `files` are what a user's message carried (`facts/attachment.py`): images by
    reference to bytes stored in the session's folder, files as their text in `context`."""

    kind: Literal["message"] = "message"
    role: Literal["user", "assistant"]
    content: str
    context: list[str] = Field(default_factory=list)
    response_id: str | None = None
    thinking: list[dict[str, Any]] = Field(default_factory=list)
    #: For a user message the engine sent (not the user): "critic" or "stop hook".
    source: str = ""
    images: list[AttachedImage] = Field(default_factory=list)
    files: list[AttachedFile] = Field(default_factory=list)

    def attachment_labels(self) -> list[str]:
        """`📎 shot.png (34 KB)`, `@src/app.py (2.1 KB)`: what the message carried, as plain text."""
        return [image.label() for image in self.images] + [file.label() for file in self.files]

    def to_llm_message(self) -> Message:
        """As the model is sent it: a user message with the context added to it."""
        from openhands_tui.sdk.llm.message import Message

        text = "\n\n".join([self.content, *self.context]) if self.role == "user" and self.context else self.content
        return Message(role=self.role, content=text)


class TextDeltaEvent(EventBase):
    """A piece of assistant text — or, with `thinking`, of what it thinks first — as it streams
    in. Transient: the final MessageEvent is kept."""

    kind: Literal["text_delta"] = "text_delta"
    delta: str
    response_id: str
    thinking: bool = False
    transient: bool = Field(default=True, exclude=True)


class ActionEvent(EventBase):
    """A tool call the model made. Written (and fsynced) before the tool runs."""

    kind: Literal["action"] = "action"
    tool_call_id: str
    tool_name: str
    arguments: dict[str, Any] = Field(default_factory=dict)
    raw_arguments: str = ""
    valid: bool = True
    summary: str = ""
    subject: Subject | None = Field(default=None, description="What the call touches; None if it is invalid.")
    security_risk: Risk | None = Field(default=None, description="The model's own estimate.")
    risk: Risk | None = Field(default=None, description="Effective risk: max(rules, model's estimate).")
    risk_reasons: list[str] = Field(default_factory=list)
    risk_rules: list[str] = Field(
        default_factory=list, description="The id of the rule behind each of risk_reasons, in order."
    )
    response_id: str | None = None
    parallel: int = Field(default=0, description="How many calls of the response ran side by side with it (0: alone).")

    def to_llm_message(self) -> Message:
        """The assistant's tool call, alone in its message (a response's calls are one message
        in the history the model is sent)."""
        from openhands_tui.sdk.llm.message import Message

        call = {"name": self.tool_name, "arguments": self.raw_arguments if self.valid and self.raw_arguments else "{}"}
        return Message(role="assistant", tool_calls=[{"id": self.tool_call_id, "type": "function", "function": call}])


class ObservationEvent(EventBase):
    """What a tool call produced. `content` is exactly what the model is shown."""

    kind: Literal["observation"] = "observation"
    tool_call_id: str
    tool_name: str
    content: str
    outcome: Literal["ok", "error", "rejected", "interrupted"] = "ok"
    data: dict[str, Any] = Field(default_factory=dict)
    images: list[AttachedImage] = Field(
        default_factory=list, description="Images of the result the model is sent after the text, by stored hash."
    )

    def to_llm_message(self) -> Message:
        from openhands_tui.sdk.llm.message import Message

        return Message(role="tool", content=self.content, name=self.tool_name, tool_call_id=self.tool_call_id)


class AgentErrorEvent(EventBase):
    """Something went wrong that the model may be able to fix (bad tool call) or that ended
    the run (model failure). With a `tool_call_id` it is shown to the model as that call's result."""

    kind: Literal["agent_error"] = "agent_error"
    error: str
    tool_call_id: str | None = None
    tool_name: str | None = None


class CondensationEvent(EventBase):
    """The middle of an agent's conversation was replaced by a summary to fit the context
    window. Positions are message indices at that moment, so replaying the log reproduces it."""

    kind: Literal["condensation"] = "condensation"
    summary: str
    head: int = Field(description="Messages kept from the start, the system prompt included.")
    tail: int = Field(description="Index of the first recent message kept.")
    reason: Literal["tokens", "messages", "overflow", "user"]
    focus: str = Field(default="", description="What the user asked the summary to keep (reason 'user').")
    tokens_before: int = 0
    tokens_after: int = 0
    summarized: bool = Field(default=True, description="False when the summary call failed and a note stands in.")

    @property
    def removed(self) -> int:
        return self.tail - self.head


class ResultsTruncatedEvent(EventBase):
    """Tool results among the messages the condenser must keep were too big for the context
    window and were shortened (head and tail kept). Positions are message indices at that
    moment, so replaying the log reproduces it."""

    kind: Literal["results_truncated"] = "results_truncated"
    positions: list[int]
    keep_chars: int
    tokens_before: int = 0
    tokens_after: int = 0


class LLMUsageEvent(EventBase):
    """One model call. `prompt_tokens` counts all input, including the `cache_read_tokens`
    read from the provider's prompt cache and the `cache_write_tokens` written to it; `cost`
    is litellm's price with cache reads and writes at their own rates."""

    kind: Literal["llm_usage"] = "llm_usage"
    model: str
    response_id: str
    prompt_tokens: int = 0
    completion_tokens: int = 0
    cache_read_tokens: int = 0
    cache_write_tokens: int = 0
    reasoning_tokens: int = Field(default=0, description="Of the completion tokens, those spent thinking.")
    cost: float | None = None
    latency_ms: float = 0.0
    retries: int = 0


class StatusEvent(EventBase):
    kind: Literal["status"] = "status"
    status: Status
    detail: str = ""


class ConfirmationRequestEvent(EventBase):
    """The engine is waiting for a decision on an action (persisted: asked again on resume)."""

    kind: Literal["confirmation_requested"] = "confirmation_requested"
    action_id: str
    tool_call_id: str
    tool_name: str
    summary: str
    arguments: dict[str, Any] = Field(default_factory=dict)
    subject: Subject | None = None
    risk: Risk
    reasons: list[str] = Field(default_factory=list)
    rules: list[str] = Field(default_factory=list, description="The id of the rule behind each reason, in order.")
    chain: list[str] = Field(default_factory=list, description="Agent names, root first, ending with the asker.")
    suggested_rule: dict[str, Any] | None = Field(
        default=None,
        description='What "always allow" would remember, e.g. {"action": "allow", "command": "npm test"}.',
    )
    escalation: str | None = Field(
        default=None,
        description="Set when the action already ran in the sandbox and was stopped: what running it "
        'again would allow ("network access", "write access to /x").',
    )


class ConfirmationResolvedEvent(EventBase):
    kind: Literal["confirmation_resolved"] = "confirmation_resolved"
    action_id: str
    approved: bool
    reason: str = ""
    decided_by: str = "user"


class MicroagentsLoadedEvent(EventBase):
    """What microagents this session can use, and what went wrong loading them."""

    kind: Literal["microagents_loaded"] = "microagents_loaded"
    microagents: list[dict[str, Any]] = Field(description="name, type, triggers, source, tokens, ... each")
    warnings: list[str] = Field(default_factory=list)
    shadowed: list[str] = Field(default_factory=list)


class MicroagentTriggeredEvent(EventBase):
    """A microagent's content was added to what this agent is sent."""

    kind: Literal["microagent_triggered"] = "microagent_triggered"
    name: str
    type: Literal["repo", "knowledge", "task"]
    keyword: str | None = None
    source: str
    tokens: int
    content: str


MCPState = Literal["starting", "running", "failed", "stopped"]


class MCPServerStatus(Model):
    """One MCP server of the session, as a panel shows it."""

    name: str
    state: MCPState
    target: str
    tools: list[str] = Field(default_factory=list)
    error: str = ""
    #: Its prompts (`/server:prompt` commands): name -> one-line description.
    prompts: dict[str, str] = Field(default_factory=dict)


class MCPServersEvent(EventBase):
    """The session's MCP servers changed: one was started, listed its tools, failed or stopped.
    Carries every server the session has started and how each is doing (the app's /mcp panel).
    Transient: a resumed session starts its servers again."""

    kind: Literal["mcp_servers"] = "mcp_servers"
    servers: list[MCPServerStatus]
    transient: bool = Field(default=True, exclude=True)


class PolicyChangedEvent(EventBase):
    """The session's mode: when to ask (the confirmation policy), and whether it plans (plan
    mode: the agents only read, and the root's finish message is a plan for the user to approve).
    Published when a session opens and whenever either is switched; a resumed session keeps the
    plan mode its last one of these says."""

    kind: Literal["policy_changed"] = "policy_changed"
    mode: Literal["always", "risky", "never"]
    threshold: Risk = Risk.HIGH
    plan: bool = False


class PlanProposedEvent(EventBase):
    """The root agent finished in plan mode: its finish message is a plan, waiting for the user
    to approve it (the session goes on, out of plan mode, with the plan as the task) or to send
    a note asking for a revised one."""

    kind: Literal["plan_proposed"] = "plan_proposed"
    plan: str


class DelegationOpenedEvent(EventBase):
    """A child agent starts. Carries the child's id as `agent_id` and its parent's as
    `parent_agent_id`, like every event of the child after it."""

    kind: Literal["delegation_opened"] = "delegation_opened"
    agent_name: str
    task: str
    depth: int
    tool_call_id: str = ""


DelegationStatus = Literal["finished", "failed", "rejected", "limit", "interrupted"]


class DelegationClosedEvent(EventBase):
    """A child agent ended (or was refused before it started: status `rejected`)."""

    kind: Literal["delegation_closed"] = "delegation_closed"
    agent_name: str
    status: DelegationStatus
    result: str = ""
    reason: str = ""
    tokens: int = Field(default=0, description="Prompt + completion tokens of the child and its subtree.")
    cost: float = 0.0
    elapsed_s: float = 0.0


class HookRanEvent(EventBase):
    """A hook ran: which one (its file and command), for which event and call, and what it
    decided — so the user sees why a call was refused or what context was added."""

    kind: Literal["hook"] = "hook"
    event: str = Field(description="PreToolUse, Stop, UserPromptSubmit...")
    source: str = Field(description="The file it came from (or `strategy`).")
    hook: str = Field(description="Its command, or its name.")
    matcher: str = "*"
    outcome: str = Field(description="ran, allowed, denied, asked, blocked, added context, failed, timed out...")
    said: str = Field(default="", description="Its reason, the context it added, or its error.")
    exit_code: int | None = None
    elapsed_ms: float = 0.0
    tool_call_id: str | None = None


class CriticResultEvent(EventBase):
    """A critic judged an agent's work: the score, why, and whether the agent was sent back."""

    kind: Literal["critic"] = "critic"
    critic: str
    score: float | None = Field(default=None, description="0 to 1; None when the critic failed (`error`).")
    message: str = ""
    error: str = ""
    threshold: float | None = Field(default=None, description="The refinement threshold, if refining.")
    refine: bool = Field(default=False, description="The agent was sent back with a follow-up prompt.")
    round: int = Field(default=0, description="Refinement rounds already given for this user message.")
    max_rounds: int = 0
    ending: bool = Field(default=True, description="Judged as the agent ended (False: after one of its actions).")
    tool_call_id: str | None = None


Event = Annotated[
    SystemPromptEvent
    | MessageEvent
    | TextDeltaEvent
    | ActionEvent
    | ObservationEvent
    | AgentErrorEvent
    | LLMUsageEvent
    | StatusEvent
    | ConfirmationRequestEvent
    | ConfirmationResolvedEvent
    | DelegationOpenedEvent
    | DelegationClosedEvent
    | PolicyChangedEvent
    | PlanProposedEvent
    | MicroagentsLoadedEvent
    | MicroagentTriggeredEvent
    | MCPServersEvent
    | ToolProgressEvent
    | ChildChangesEvent
    | CondensationEvent
    | ResultsTruncatedEvent
    | HookRanEvent
    | CriticResultEvent
    | CheckpointEvent
    | RewindEvent
    | SessionForkedEvent
    | ModelChangedEvent
    | JobEvent,
    Field(discriminator="kind"),
]


#: The events the model is shown (each has `to_llm_message()`): the SDK's `LLMConvertibleEvent`s.
SHOWN_TO_MODEL = (SystemPromptEvent, MessageEvent, ActionEvent, ObservationEvent)


@lru_cache(maxsize=1)
def event_adapter() -> TypeAdapter[Event]:
    """Built on first use, not at import: the app's first frame should not wait for it."""
    return TypeAdapter(Event)


def parse_event(line: str | bytes) -> Event:
    """Parse one JSON line of `events.jsonl` (raises pydantic.ValidationError on bad input)."""
    return event_adapter().validate_json(line)
