"""Running a conversation against the scripted server and collecting what it emitted."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import openhands_tui.tools  # noqa: F401 - registers the built-in tools
from openhands_tui.sdk import Agent, Conversation, ConversationParts, RunOutcome
from openhands_tui.sdk.facts.event import Event
from openhands_tui.sdk.run.confirmation import ConfirmationRequest, Decision


@dataclass
class ScriptedConfirmer:
    """Answers confirmation requests from a list of decisions, recording each request."""

    answers: list[Decision] = field(default_factory=list)
    requests: list[ConfirmationRequest] = field(default_factory=list)

    async def confirm(self, request: ConfirmationRequest) -> Decision:
        self.requests.append(request)
        return self.answers.pop(0) if self.answers else Decision(approved=True)


@dataclass
class Run:
    outcome: RunOutcome
    events: list[Event]
    conversation: Conversation

    def kinds(self, kind: str) -> list[Any]:
        return [e for e in self.events if e.kind == kind]


async def run(agent: Agent, workspace: Path, task: str | None, **parts: Any) -> Run:
    """`parts`: ConversationParts' fields (log=, confirmer=, limits=...); the events are collected."""
    events: list[Event] = []
    conversation = Conversation(
        agent, workspace=workspace, parts=ConversationParts(subscribers=[events.append], **parts)
    )
    try:
        outcome = await conversation.run(task)
    finally:
        await conversation.close()
    return Run(outcome, events, conversation)
